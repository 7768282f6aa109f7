package org.netnslab.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.netnslab.cluster.ClusterConfig;
import org.netnslab.cluster.RunInputs;
import org.netnslab.cluster.WorkerNode;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.SystemConfig;
import org.netnslab.settings.HoconDurations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code worker --join HOST:PORT}: a worker node for the coordinators at one address ({@link WorkerNode}), which
 * loads each coordinator's run as {@code run} loads its command line ({@link ClusterCommands#loader}). Exit 2 for a
 * bad option or configuration and, with {@code --once}, when it could not load the coordinator's run or was refused
 * for its version or inputs; 1 when the node fails, a design run failed on it, its coordinator went away before the
 * run was done or, with {@code --wait}, no coordinator took it in time; 0 when the run it served is done.
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

    @Option(
            names = "--once",
            description = "exit after one coordinator's run instead of waiting for the next: 0 when that run is done, 2"
                    + " when this worker could not load it or was refused for its version or inputs, 1 otherwise")
    boolean once;

    @Option(
            names = "--wait",
            paramLabel = "DURATION",
            description = "with --once: give up (exit 1) when no"
                    + " coordinator has taken this worker into its cluster within DURATION, e.g. 60s (default: wait until"
                    + " stopped)")
    String wait;

    /** Set by SIGINT or SIGTERM ({@link #leave}): no next node starts, and the command waits for the handler's exit. */
    private volatile boolean stopping;

    private final AtomicReference<WorkerNode> current = new AtomicReference<>();
    /** Akka's warnings of a coordinator not there, said in words while a node waits for one. */
    private WorkerWaitLog waitLog;
    /** What this worker runs now, for an interrupt's line. */
    private NowRunning lane;

    @Override
    public Integer call() {
        Config system;
        ClusterConfig.HostPort b;
        ClusterConfig.HostPort j;
        try {
            system = SystemConfig.load(config);
            b = ClusterConfig.HostPort.parseBind(bind, "--bind");
            j = ClusterConfig.HostPort.parse(join, "--join");
            if (sameAddress(b, j)) { // it would join itself and wait for no one
                throw new IllegalArgumentException("--bind " + bind + " is the --join address: a worker listens at an"
                        + " address of its own and joins the coordinator's (run X.conf --cluster " + join + ")");
            }
            ClusterConfig.of(system, b, j, "worker", "--bind", "--join"); // the address checks, before anything starts
            ClusterConfig.checkCanListen(b, "--bind");
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
                giveUp = HoconDurations.duration(ConfigFactory.parseString("wait = \"" + wait + "\""), "wait");
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
        if (config != null) { // said once: the runs use the coordinator's configuration, not this --config's model
            java.util.List<String> unused = RunInputs.modelDifferences(system, ConfigFactory.load());
            if (!unused.isEmpty()) {
                ClusterCommands.say("worker: --config " + config + " sets " + String.join(", ", unused)
                        + ", which this worker does not use: each run uses the coordinator's configuration (its"
                        + " --config, read here at the same path, over this host's conf/application.conf)");
            }
        }
        Stops.onStop = this::leave;
        waitLog = WorkerWaitLog.install(ClusterCommands::say);
        try {
            int status = serve(system, b, j, giveUp);
            if (stopping) {
                new CountDownLatch(1).await(); // the signal's handler exits with its status, not this thread
            }
            return status;
        } catch (IllegalArgumentException e) { // --bind's port taken since the check
            System.err.println("netns-lab: worker: " + e.getMessage());
            return Main.EXIT_CONFIG;
        } catch (IllegalStateException e) {
            System.err.println("netns-lab: worker: " + e.getMessage());
            return Main.EXIT_FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Main.EXIT_FAILED;
        } finally {
            Stops.onStop = null;
        }
    }

    /** Serves coordinators ({@link WorkerNode#serve}); with --once, the exit status of the one run served. */
    private int serve(Config system, ClusterConfig.HostPort b, ClusterConfig.HostPort j, Duration giveUp)
            throws InterruptedException {
        WorkerNode first = node(system, b, j);
        ClusterCommands.say("worker " + first.system().address() + ": waiting for the coordinator at " + j);
        if (giveUp != null && !first.joinedWithin(giveUp) && !stopping) {
            ClusterCommands.say("worker " + first.system().address() + ": no coordinator at " + j
                    + " took this worker within " + wait + "; giving up (--wait: the coordinator was not there, or"
                    + " was too busy or done to take it; --join spells the address exactly"
                    + " as the coordinator's --cluster does: 127.0.0.1 and localhost differ; and both or neither"
                    + " use TLS, akka.remote.artery.transport = tls-tcp)");
            first.stop(ClusterCommands.LEAVE);
            return Main.EXIT_FAILED;
        }
        return switch (WorkerNode.serve(
                first, () -> stopping ? null : node(system, b, j), once, ClusterCommands::say, j)) {
            case SERVED -> 0;
            case REFUSED -> Main.EXIT_CONFIG; // its files or version differ from the coordinator's
            default -> Main.EXIT_FAILED;
        };
    }

    private WorkerNode node(Config system, ClusterConfig.HostPort b, ClusterConfig.HostPort j) {
        if (lane == null) { // one for every node served: an interrupt's line names the design run in progress
            lane = NowRunning.worker(j.toString());
            Stops.running(lane, null);
        }
        WorkerNode n = WorkerNode.start(
                system,
                b,
                j,
                ClusterCommands.loader(),
                ClusterCommands.nodeVersion(),
                ClusterCommands::say,
                once,
                lane);
        current.set(n);
        waitLog.waiting(n.system().address().toString(), j.toString());
        n.onJoined(waitLog::joined);
        return n;
    }

    /**
     * On the signal's thread, before {@link Stops} says the line and exits: the node leaves its cluster, so that the
     * coordinator sees a worker leave (its run goes back to the queue at once) rather than one it cannot reach, which
     * Akka's failure detector, split brain resolver and quarantine warn of for seconds.
     */
    private void leave() {
        stopping = true;
        WorkerNode n = current.get();
        if (n != null) {
            ClusterCommands.say("worker " + n.system().address() + ": leaving the cluster");
            n.stop(ClusterCommands.LEAVE);
        }
    }

    /** @return whether two addresses name the same port on the same host (by its resolved address) */
    private static boolean sameAddress(ClusterConfig.HostPort a, ClusterConfig.HostPort b) {
        if (a.port() != b.port()) {
            return false;
        }
        try {
            return java.net.InetAddress.getByName(a.host()).equals(java.net.InetAddress.getByName(b.host()));
        } catch (java.net.UnknownHostException e) { // parse resolved both already
            return a.host().equals(b.host());
        }
    }
}
