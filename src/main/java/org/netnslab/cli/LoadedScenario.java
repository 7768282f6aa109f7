package org.netnslab.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.HeapEstimate;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.settings.ConfigProblem;
import org.netnslab.settings.HoconSyntax;

/**
 * A scenario read and checked with the configuration it runs under: what {@code run} and
 * {@code validate} both start from.
 *
 * @param system the merged configuration (reference.conf, conf/application.conf, {@code --config})
 * @param scenario the validated scenario
 * @param settings the runner's settings
 * @param outDir {@code netns-lab.run.out-dir}
 */
record LoadedScenario(Config system, Scenario scenario, RunSettings settings, String outDir) {
    /** @return the loaded scenario, or null once every problem has been printed to stderr */
    static LoadedScenario orReport(Path file, List<String> sets, double scale, Path config) {
        return orReport(file, sets, scale, config, java.util.Map.of());
    }

    /**
     * @param typed for a --set the tool made from another option, e.g. {@code --set machine.cpus=[1, 2]} from
     *     {@code --sweep machine.cpus=1,2}: the option the user typed, which a problem then names instead
     * @return the loaded scenario, or null once every problem has been printed to stderr
     */
    static LoadedScenario orReport(
            Path file, List<String> sets, double scale, Path config, java.util.Map<String, String> typed) {
        try {
            Config system = systemConfig(config);
            Scenario scenario = new ScenarioLoader(system.getConfig("netns-lab")).load(file, sets, scale);
            if (system.getBoolean("netns-lab.run.heap-check")) { // before the run, not an OOM part-way
                HeapEstimate.check(scenario, Runtime.getRuntime().maxMemory(), maxHeapSize(), otherHeapOptions());
            }
            checkEmbeddedDesign(system);
            return new LoadedScenario(
                    system,
                    scenario,
                    RunSettings.fromConfig(system.getConfig("netns-lab")),
                    system.getString("netns-lab.run.out-dir"));
        } catch (ScenarioException e) {
            System.err.println("netns-lab: "
                    + (typed.isEmpty()
                                    ? e
                                    : new ScenarioException(e.problems.stream()
                                            .map(p -> new ConfigProblem(
                                                    typed.getOrDefault(p.source(), p.source()),
                                                    p.line(),
                                                    p.path(),
                                                    p.message()))
                                            .toList()))
                            .getMessage());
            return null;
        } catch (ConfigException | IllegalArgumentException e) {
            System.err.println("netns-lab: configuration: " + e.getMessage());
            return null;
        }
    }

    /**
     * {@code netns-lab.embedded.design} (conf/application.conf, {@code --config}) names a design: what an
     * embedding application built with this configuration would get ({@code NetnsLab.design}).
     *
     * @throws ScenarioException naming the key, where it was set, and the known designs
     */
    static void checkEmbeddedDesign(Config system) throws ScenarioException {
        Config lab = system.getConfig("netns-lab");
        String name = lab.getString("embedded.design");
        if (!lab.getConfig("designs").hasPath(ConfigUtil.joinPath(name))) {
            var origin = lab.getValue("embedded.design").origin();
            throw new ScenarioException(List.of(new ConfigProblem(
                    origin.filename() != null ? origin.filename() : origin.description(),
                    origin.filename() != null ? origin.lineNumber() : -1,
                    "netns-lab.embedded.design",
                    "unknown design '" + name + "'; known designs: "
                            + new java.util.TreeSet<>(lab.getObject("designs").keySet()))));
        }
    }

    /**
     * The configuration the CLI runs with: conf/application.conf (or the class path's), the reference,
     * and {@code extra} on top. Its {@code netns-lab.model} and {@code netns-lab.designs} are what
     * scenarios start from.
     */
    static Config systemConfig(Path extra) throws ScenarioException {
        Config base = ConfigFactory.load();
        if (extra == null) {
            return base;
        }
        if (Files.isDirectory(extra)) {
            throw new ScenarioException(
                    List.of(new ConfigProblem(extra.toString(), -1, "--config", "is a directory, not a HOCON file")));
        }
        if (!Files.isRegularFile(extra)) {
            throw new ScenarioException(List.of(new ConfigProblem(extra.toString(), -1, "--config", "no such file")));
        }
        try {
            ConfigProblem notText = org.netnslab.settings.HoconSyntax.notText(extra, "--config");
            if (notText != null) {
                throw new ScenarioException(List.of(notText));
            }
        } catch (java.io.IOException e) {
            throw new ScenarioException(
                    List.of(new ConfigProblem(extra.toString(), -1, "--config", "cannot read it (" + e + ")")));
        }
        try {
            Config user = ConfigFactory.parseFile(
                    extra.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
            List<ConfigProblem> unknown = new ArrayList<>();
            if (user.hasPath("netns-lab")) {
                Config known = ConfigFactory.defaultReference().getConfig("netns-lab");
                for (var e : user.getConfig("netns-lab").entrySet()) {
                    String key = e.getKey();
                    if (!known.hasPath(key) && !key.startsWith("designs.")) { // new named designs are welcome
                        unknown.add(new ConfigProblem(
                                extra.toString(),
                                e.getValue().origin().lineNumber(),
                                "netns-lab." + key,
                                "unknown key; see src/main/resources/reference.conf"));
                    }
                }
            }
            if (!unknown.isEmpty()) {
                throw new ScenarioException(unknown);
            }
            Config merged = ConfigFactory.defaultOverrides()
                    .withFallback(user)
                    .withFallback(base)
                    .resolve();
            // its designs are checked here, not only when a scenario selects one; the file itself is not resolved (its
            // substitutions may need the rest), so its design names come from its unresolved tree
            java.util.Map<String, com.typesafe.config.ConfigOrigin> names = ownDesigns(user, merged);
            if (!names.isEmpty()) {
                List<ConfigProblem> bad =
                        ScenarioLoader.namedDesignProblems(names, merged.getConfig("netns-lab"), extra.toString());
                if (!bad.isEmpty()) {
                    throw new ScenarioException(bad);
                }
            }
            return merged;
        } catch (ConfigException e) {
            throw new ScenarioException(List.of(HoconSyntax.parseProblem(extra, e, "--config")));
        }
    }

    /**
     * The designs a configuration file defines, each with where the file defines it, from its unresolved tree (its
     * substitutions may need the rest); where that tree cannot say (the whole block a substitution), the merged
     * designs that are not reference.conf's, located where the merge puts them.
     *
     * @throws ScenarioException when the file's {@code netns-lab.designs} is not an object
     */
    private static java.util.Map<String, com.typesafe.config.ConfigOrigin> ownDesigns(Config user, Config merged)
            throws ScenarioException {
        try {
            ConfigValue lab = user.root().get("netns-lab");
            ConfigValue designs = lab instanceof ConfigObject o ? o.get("designs") : null;
            if (designs == null) {
                return java.util.Map.of();
            }
            if (!(designs instanceof ConfigObject own)) {
                return notReference(merged);
            }
            java.util.Map<String, com.typesafe.config.ConfigOrigin> names = new java.util.LinkedHashMap<>();
            own.forEach((name, v) -> names.put(name, v.origin()));
            return names;
        } catch (ConfigException.NotResolved e) { // a merge with a substitution: the merged block says which there are
            return notReference(merged);
        }
    }

    /** @return the merged designs that are not reference.conf's, at the merged values' origins */
    private static java.util.Map<String, com.typesafe.config.ConfigOrigin> notReference(Config merged)
            throws ScenarioException {
        ConfigValue designs = merged.getValue("netns-lab.designs");
        if (designs.valueType() != com.typesafe.config.ConfigValueType.OBJECT) {
            throw new ScenarioException(List.of(ConfigProblem.at(
                    designs.origin(),
                    "netns-lab.designs",
                    "must be an object of named designs, e.g. netns-lab.designs { \"my-design\" { uevent.serialization ="
                            + " lockless } }")));
        }
        java.util.Map<String, com.typesafe.config.ConfigOrigin> names = new java.util.TreeMap<>();
        java.util.Set<String> builtIn =
                ConfigFactory.defaultReference().getObject("netns-lab.designs").keySet();
        merged.getObject("netns-lab.designs").forEach((name, v) -> {
            if (!builtIn.contains(name)) {
                names.put(name, v.origin());
            }
        });
        return names;
    }

    /** The JVM's -Xmx, B: what the user set, where {@link Runtime#maxMemory()} is the usable part of it. */
    private static long maxHeapSize() {
        com.sun.management.HotSpotDiagnosticMXBean hotspot = java.lang.management.ManagementFactory.getPlatformMXBean(
                com.sun.management.HotSpotDiagnosticMXBean.class);
        return hotspot == null
                ? Runtime.getRuntime().maxMemory()
                : Long.parseLong(hotspot.getVMOption("MaxHeapSize").getValue());
    }

    /** The JVM's -X options but -Xmx (the collector decides how much of -Xmx is usable). */
    private static List<String> otherHeapOptions() {
        return java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-X") && !a.startsWith("-Xmx"))
                .toList();
    }
}
