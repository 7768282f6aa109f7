package org.netnslab.calibrate;

import com.typesafe.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.ScenarioException;

/**
 * What the designs this kernel lacks would do on this host: the calibrated machine runs kernel-4.18's global
 * uevent_sock_mutex and the per-netns proposal of 2018 beside the host's own era on the TC1 shape (N injectors,
 * each into its own user-namespace-owned netns with one listener, all started at once). Predictions only: nothing
 * here was measured.
 */
public final class Beyond {
    /**
     * @param design the design
     * @param injectors N
     * @param meanMicros the send's mean, us
     * @param p99Micros its 99th percentile, us
     * @param throughputPerSec sends per second
     */
    public record Figure(String design, int injectors, double meanMicros, double p99Micros, double throughputPerSec) {}

    private Beyond() {}

    /**
     * The sends each injector makes in the shape with {@code injectors} of them: 20,000 in all, at least 10 each (fewer
     * than the ladder's TC1 row of the same N, so its figures are not that row's).
     *
     * @param injectors N, at least 1
     * @return sends per injector
     */
    public static long sendsPerInjector(int injectors) {
        return Math.max(10, 20_000 / injectors);
    }

    /**
     * @param system the calibrated configuration
     * @param era the host's design era
     * @param cpus simulated CPUs (the host's)
     * @param injectors N
     * @param sendsPerInjector sends each
     * @param folder where the scenario file goes (scenario-beyond-tc1-n<N>.conf)
     * @return one figure per design: the era, kernel-4.18, per-netns-2018
     * @throws ScenarioException the generated scenario is invalid
     * @throws RunFailure the model run failed
     * @throws IOException the scenario cannot be written
     */
    public static List<Figure> run(
            Config system, String era, int cpus, int injectors, long sendsPerInjector, Path folder)
            throws ScenarioException, RunFailure, IOException {
        ModelScenario scenario = new ModelScenario(
                "beyond-tc1-n" + injectors,
                "beyond-tc1-n" + injectors,
                List.of(
                        "Written by `netns-lab calibrate`: designs this kernel lacks, on this host's calibrated machine"
                                + " (a prediction).",
                        "./netns-lab run THIS_FILE --config calibrated.conf (the calibrated.conf beside it)"),
                "TC1 shape on this host: " + era + " vs kernel-4.18 vs per-netns-2018 (predicted)",
                "netns-lab calibrate: beyond this kernel",
                ModelScenario.injection(injectors, injectors, sendsPerInjector),
                java.util.Map.of(),
                cpus,
                List.of(era, "kernel-4.18", "per-netns-2018"),
                1);
        RunResult result = ModelRun.run(system, scenario, folder);
        List<Figure> out = new ArrayList<>();
        for (DesignResult d : result.designs()) {
            MeasureSummary s = d.recorders().get("uevent.transaction").summary();
            out.add(new Figure(
                    d.name(),
                    injectors,
                    ModelRun.micros(s, s.mean()),
                    ModelRun.micros(s, s.p99()),
                    d.throughputPerSec()));
        }
        return out;
    }
}
