package org.netnslab.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.netnslab.cluster.ClusterConfig;
import org.netnslab.cluster.WorkerNode;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.SystemConfig;
import org.netnslab.settings.HoconChecker;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code worker --join HOST:PORT}: a worker node for the coordinators at one address ({@link WorkerNode}), which
 * loads each coordinator's run as {@code run} loads its command line ({@link ClusterCommands#loader}). Exit 2 for a
 * bad option or configuration; 1 when the node fails or, with {@code --wait}, no coordinator took it in time.
 */
@Command(
        name = "worker",
        description =
                "Run a worker node: join the coordinator at HOST:PORT (run X.conf --cluster HOST:PORT) and run the"
                        + " design runs it hands out, one at a time, until stopped. See docs/parallel-runs.md.")
final class WorkerCommand implements Callable<Integer> {
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
            system = SystemConfig.load(config);
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
        Duration giveUp = null;
        if (wait != null) {
            try {
                giveUp = HoconChecker.duration(ConfigFactory.parseString("wait = \"" + wait + "\""), "wait");
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
                var s = WorkerNode.start(system, b, j, ClusterCommands.loader(), Main.VERSION, ClusterCommands::say);
                ClusterCommands.say("worker " + s.address() + ": waiting for the coordinator at " + j);
                if (giveUp != null && !WorkerNode.joinedWithin(s, giveUp)) {
                    ClusterCommands.say("worker " + s.address() + ": no coordinator at " + j
                            + " took this worker within " + wait + "; giving up (--wait)");
                    s.terminate();
                    s.getWhenTerminated().toCompletableFuture().get();
                    return Main.EXIT_FAILED;
                }
                s.getWhenTerminated().toCompletableFuture().get();
            } else {
                WorkerNode.runForever(system, b, j, ClusterCommands.loader(), Main.VERSION, ClusterCommands::say);
            }
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Main.EXIT_FAILED;
        } catch (ExecutionException e) {
            System.err.println("netns-lab: worker failed: " + e.getCause());
            return Main.EXIT_FAILED;
        }
    }
}
