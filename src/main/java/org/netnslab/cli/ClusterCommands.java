package org.netnslab.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.netnslab.cluster.ClusterConfig;
import org.netnslab.cluster.ClusterRuns;
import org.netnslab.cluster.Prepared;
import org.netnslab.cluster.RunInputs;
import org.netnslab.cluster.WorkerNode;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.settings.HoconChecker;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line's cluster side: {@code worker --join HOST:PORT} and the coordinator that
 * {@code run --cluster HOST:PORT} (or {@code netns-lab.cluster.coordinator}) starts. See docs/parallel-runs.md.
 */
final class ClusterCommands {
    private ClusterCommands() {}

    /** Prints a cluster line on stderr. */
    static void say(String line) {
        System.err.println("netns-lab: cluster: " + line);
    }

    /**
     * Loads a coordinator's run on this node as {@code run} loads its command line.
     *
     * @return the loader
     */
    static Prepared.Loader loader() {
        return in -> {
            LoadedScenario l = LoadedScenario.orReport(
                    Path.of(in.file()), in.sets(), in.scale(), in.config().isEmpty() ? null : Path.of(in.config()));
            if (l == null) {
                return null;
            }
            Scenario s = l.scenario();
            if (in.repeat() > 0) {
                s = s.withRepeat(in.repeat());
            }
            if (in.samples() > 0) {
                s = s.withSensitivity(s.sensitivity().withSamples(in.samples()));
            }
            return new Prepared(s, l.system(), l.settings());
        };
    }

    /**
     * Starts the coordinator of {@code run}, or none.
     *
     * @param option {@code --cluster}, or null
     * @param system the merged configuration ({@code netns-lab.cluster.coordinator} when the option is absent)
     * @param scenario the loaded scenario
     * @param inputs the run's inputs
     * @return the coordinator, or null when the run is not a cluster run
     * @throws IllegalArgumentException naming the option or key when the address is bad or refused, or the
     *     scenario runs live
     */
    static ClusterRuns coordinator(String option, Config system, Scenario scenario, RunInputs inputs) {
        String at = option != null ? option : system.getString("netns-lab.cluster.coordinator");
        if (at.isEmpty()) {
            return null;
        }
        String name = option != null ? "--cluster" : "netns-lab.cluster.coordinator";
        if (!scenario.execution().isVirtual()) {
            throw new IllegalArgumentException(
                    name + ": a cluster runs design runs in virtual execution only (live figures"
                            + " are the JVM's own threads and timing, which differ from node to node)");
        }
        ClusterConfig.HostPort bind = ClusterConfig.HostPort.parse(at, name);
        try {
            return ClusterRuns.start(
                    system,
                    bind,
                    inputs,
                    Main.VERSION,
                    HoconChecker.duration(system, "netns-lab.cluster.wait-for-workers"),
                    ClusterCommands::say);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    /** {@code worker}: a worker node for the coordinators at one address. */
    @Command(
            name = "worker",
            mixinStandardHelpOptions = true,
            versionProvider = HelpText.Version.class,
            description =
                    "Run a worker node: join the coordinator at HOST:PORT (run X.conf --cluster HOST:PORT) and run the"
                            + " design runs it hands out, one at a time, until stopped. See docs/parallel-runs.md.")
    static final class Worker implements Callable<Integer> {
        @Option(
                names = "--join",
                paramLabel = "HOST:PORT",
                required = true,
                description = "the coordinator's address, spelled as it binds it (e.g. 127.0.0.1:2552)")
        String join;

        @Option(
                names = "--bind",
                paramLabel = "HOST:PORT",
                defaultValue = "127.0.0.1:0",
                description =
                        "where this worker listens (default ${DEFAULT-VALUE}: loopback, any free port); beyond loopback"
                                + " Artery's TLS transport must be configured (--config)")
        String bind;

        @Option(names = "--config", paramLabel = "FILE", description = "extra HOCON file over conf/application.conf")
        Path config;

        @Option(names = "--once", description = "exit after one coordinator's run instead of waiting for the next")
        boolean once;

        @Option(
                names = "--wait",
                paramLabel = "DURATION",
                description = "with --once: give up (exit 1) when no"
                        + " coordinator has taken this worker into its cluster within DURATION, e.g. 60s (default: wait until"
                        + " stopped)")
        String wait;

        @Override
        public Integer call() {
            Config system;
            ClusterConfig.HostPort b;
            ClusterConfig.HostPort j;
            try {
                system = LoadedScenario.systemConfig(config);
                b = ClusterConfig.HostPort.parse(bind, "--bind");
                j = ClusterConfig.HostPort.parse(join, "--join");
                ClusterConfig.of(system, b, j, "worker"); // the address checks, before anything starts
            } catch (ScenarioException e) {
                System.err.println("netns-lab: " + e.getMessage());
                return Main.EXIT_CONFIG;
            } catch (IllegalArgumentException | ConfigException e) {
                System.err.println("netns-lab: worker: " + e.getMessage());
                return Main.EXIT_CONFIG;
            }
            java.time.Duration giveUp = null;
            if (wait != null) {
                try {
                    giveUp = HoconChecker.duration(
                            com.typesafe.config.ConfigFactory.parseString("wait = \"" + wait + "\""), "wait");
                } catch (ConfigException e) {
                    System.err.println(
                            "netns-lab: worker: --wait " + wait + ": must be a duration with its unit, e.g. 60s");
                    return Main.EXIT_CONFIG;
                }
                if (!once || giveUp.isNegative() || giveUp.isZero()) {
                    System.err.println("netns-lab: worker: --wait " + wait + ": "
                            + (once
                                    ? "must be above 0"
                                    : "needs --once (without it the worker serves coordinators until stopped)"));
                    return Main.EXIT_CONFIG;
                }
            }
            try {
                if (once) {
                    var s = WorkerNode.start(system, b, j, loader(), Main.VERSION, ClusterCommands::say);
                    say("worker " + s.address() + ": waiting for the coordinator at " + j);
                    if (giveUp != null && !WorkerNode.joinedWithin(s, giveUp)) {
                        say("worker " + s.address() + ": no coordinator at " + j + " took this worker within " + wait
                                + "; giving up (--wait)");
                        s.terminate();
                        s.getWhenTerminated().toCompletableFuture().get();
                        return Main.EXIT_FAILED;
                    }
                    s.getWhenTerminated().toCompletableFuture().get();
                } else {
                    WorkerNode.runForever(system, b, j, loader(), Main.VERSION, ClusterCommands::say);
                }
                return 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Main.EXIT_FAILED;
            } catch (java.util.concurrent.ExecutionException e) {
                System.err.println("netns-lab: worker failed: " + e.getCause());
                return Main.EXIT_FAILED;
            }
        }
    }

    /** @return the inputs a worker needs to load {@code run}'s command line */
    static RunInputs inputs(Path file, List<String> sets, double scale, Integer repeat, Integer samples, Path config) {
        return new RunInputs(
                file.toString(),
                sets,
                scale,
                repeat == null ? 0 : repeat,
                samples == null ? 0 : samples,
                config == null ? "" : config.toString());
    }
}
