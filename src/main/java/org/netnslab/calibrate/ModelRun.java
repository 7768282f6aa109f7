package org.netnslab.calibrate;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.ScenarioRunner;

/** One generated scenario run in virtual time on its own actor system, as {@code run} would run it. */
final class ModelRun {
    private ModelRun() {}

    /**
     * @param netns user-namespace-owned netns, one listener each
     * @param injectors injectors, all started at once
     * @param perNetns counted injections into each netns (no warm-up)
     * @return the {@code workload} block of a TC1-shaped uevent-injection scenario
     */
    static String injectionWorkload(int netns, int injectors, long perNetns) {
        return "workload {\n  type = uevent-injection\n  netns { userns-owned = " + netns + ", init-owned = 0 }\n"
                + "  listeners-per-netns = 1\n  injections-per-netns = " + perNetns + "\n  warmup-per-netns = 0\n"
                + "  injectors = " + injectors + "\n  injector-start-interval = 0ms\n}\n";
    }

    /**
     * @param workers parallel loops
     * @param iterations {@code unshare -n /bin/true} per loop (no warm-up)
     * @return the {@code workload} block of the lifecycle probe's loops
     */
    static String churnWorkload(int workers, long iterations) {
        return "workload {\n  type = netns-churn\n  workers = " + workers + "\n  iterations = " + iterations
                + "\n  new-userns = false\n  sockets = 0\n  warmup-iterations = 0\n}\n";
    }

    /**
     * @param cpus the host's CPUs
     * @param design the host's era
     * @return a calibrate scenario's end: virtual time on the host's CPU count, the era alone
     */
    static String footer(int cpus, String design) {
        return "execution = virtual\nmachine { cpus = " + cpus + " }\ndesigns = [\"" + design + "\"]\nbaseline = \""
                + design + "\"\n";
    }

    /**
     * @param system the calibrated configuration
     * @param file the scenario
     * @return its result
     * @throws ScenarioException the scenario is invalid
     * @throws RunFailure the model run failed
     */
    static RunResult run(Config system, Path file) throws ScenarioException, RunFailure {
        var scenario = new ScenarioLoader(system.getConfig("netns-lab")).load(file, List.of(), 1.0);
        ActorSystem<Void> actors = VirtualSystem.create(Behaviors.empty(), "netns-lab-calibrate", system);
        try {
            return new ScenarioRunner(actors, RunSettings.fromConfig(system.getConfig("netns-lab")), RunObserver.SILENT)
                    .run(scenario);
        } finally {
            try {
                VirtualSystem.terminate(actors, Duration.ofSeconds(30));
            } catch (Exception e) {
                // the result is complete; a slow shutdown is worth a line, not a failed calibration
                System.err.println("calibrate: the model's actor system did not terminate cleanly: " + e);
            }
        }
    }
}
