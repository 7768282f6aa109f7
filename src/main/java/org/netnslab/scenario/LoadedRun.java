package org.netnslab.scenario;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.typesafe.config.Config;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import org.netnslab.run.RunSettings;

/**
 * A scenario read and checked with the configuration it runs under: the first step of a run, the same for
 * {@code run}, {@code validate} and a cluster worker ({@link #load}, then {@link #withOptions}); {@link ScenarioRun}
 * runs it.
 *
 * @param system the merged configuration (reference.conf, conf/application.conf, {@code --config}: {@link SystemConfig})
 * @param scenario the validated scenario
 * @param settings the runner's settings
 * @param outDir {@code netns-lab.run.out-dir}
 */
public record LoadedRun(Config system, Scenario scenario, RunSettings settings, String outDir) {
    /**
     * Reads the configuration and the scenario, and checks that the scenario fits the heap (before the run, not an
     * OutOfMemoryError part-way; when {@code netns-lab.run.heap-check} is on) and that
     * {@code netns-lab.embedded.design} names a design.
     *
     * @param file the scenario file
     * @param sets the {@code --set} overrides, in order
     * @param scale {@code --scale}
     * @param config the {@code --config} file, or null
     * @return the loaded run
     * @throws ScenarioException every problem found, each with file, line and key
     * @throws com.typesafe.config.ConfigException when the merged configuration has a value of the wrong type
     * @throws IllegalArgumentException when the runner's settings are out of range
     */
    public static LoadedRun load(Path file, List<String> sets, double scale, Path config) throws ScenarioException {
        Config system = SystemConfig.load(config);
        Scenario scenario = new ScenarioLoader(system.getConfig("netns-lab")).load(file, sets, scale);
        if (system.getBoolean("netns-lab.run.heap-check")) {
            HeapEstimate.check(scenario, Runtime.getRuntime().maxMemory(), maxHeapSize(), otherHeapOptions());
        }
        SystemConfig.checkEmbeddedDesign(system);
        return new LoadedRun(
                system,
                scenario,
                RunSettings.fromConfig(system.getConfig("netns-lab")),
                system.getString("netns-lab.run.out-dir"));
    }

    /**
     * The command line's {@code --repeat} and {@code --sensitivity} applied over the scenario's own keys.
     *
     * @param repeat replicates, 1..{@value ScenarioLoader#MAX_REPEAT}, or null for the scenario's own
     * @param samples sensitivity samples, 1..{@value Sensitivity#MAX_SAMPLES} (virtual execution only), 0 for no
     *     study, or null for the scenario's own
     * @return the run with them
     * @throws IllegalArgumentException naming the option and what is wrong with its value
     */
    public LoadedRun withOptions(Integer repeat, Integer samples) {
        Scenario s = scenario;
        if (repeat != null) {
            if (repeat < 1 || repeat > ScenarioLoader.MAX_REPEAT) {
                throw new IllegalArgumentException(
                        "--repeat: must be in 1.." + ScenarioLoader.MAX_REPEAT + ", got " + repeat);
            }
            s = s.withRepeat(repeat);
        }
        if (samples != null && samples == 0) { // no study, whatever the scenario's block says
            s = s.withSensitivity(s.sensitivity().withSamples(0));
        } else if (samples != null) {
            if (samples < 1 || samples > Sensitivity.MAX_SAMPLES) {
                throw new IllegalArgumentException(
                        "--sensitivity: must be in 0.." + Sensitivity.MAX_SAMPLES + " (0: no study), got " + samples);
            }
            String refused =
                    Sensitivity.refusal(samples, s.execution(), s.designs().size());
            if (refused != null) {
                throw new IllegalArgumentException("--sensitivity: " + refused);
            }
            s = s.withSensitivity(s.sensitivity().withSamples(samples));
        }
        return new LoadedRun(system, s, settings, outDir);
    }

    /** The JVM's -Xmx, B: what the user set, where {@link Runtime#maxMemory()} is the usable part of it. */
    private static long maxHeapSize() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        return hotspot == null
                ? Runtime.getRuntime().maxMemory()
                : Long.parseLong(hotspot.getVMOption("MaxHeapSize").getValue());
    }

    /**
     * The JVM's -X options but -Xmx (the collector decides how much of -Xmx is usable) and the launcher's class-data
     * archive, which the launcher adds itself and which a copied option would pin to one jar's build.
     */
    private static List<String> otherHeapOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-X") && !a.startsWith("-Xmx"))
                .filter(a -> !a.startsWith("-XX:SharedArchiveFile=") && !a.startsWith("-XX:+VerifySharedSpaces"))
                .toList();
    }
}
