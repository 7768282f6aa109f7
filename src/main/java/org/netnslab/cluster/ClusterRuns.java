package org.netnslab.cluster;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.Member;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Down;
import com.typesafe.config.Config;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.DesignRun;
import org.netnslab.scenario.DesignRunOutcome;
import org.netnslab.scenario.RunDistributor;
import org.netnslab.scenario.Scenario;

/**
 * {@code run --cluster HOST:PORT}: this JVM becomes the cluster's coordinator (its seed node, listening at
 * HOST:PORT) and its design runs go to the workers that join ({@link Coordinator}); what no worker does runs
 * on the local lanes. The cluster's actor system is separate from the model's: it runs on real threads, the
 * model's lanes on their engines. Close it to leave the cluster.
 */
public final class ClusterRuns implements RunDistributor {
    private final ActorSystem<Void> system;
    private final Config base;
    private final RunInputs inputs;
    private final String version;
    private final Duration waitForWorkers;
    private final Consumer<String> say;
    /** Set by {@link #leave}: what the coordinator makes of the cluster it is leaving is not said. */
    private volatile boolean leaving;

    private ClusterRuns(
            ActorSystem<Void> system,
            Config base,
            RunInputs inputs,
            String version,
            Duration waitForWorkers,
            Consumer<String> say) {
        this.system = system;
        this.base = base;
        this.inputs = inputs;
        this.version = version;
        this.waitForWorkers = waitForWorkers;
        this.say = say;
    }

    /**
     * Starts the coordinator's node.
     *
     * @param base the merged configuration the scenario was loaded with
     * @param node the node's configuration, {@link ClusterConfig#of} of {@code base} for {@code bind}: its addresses
     *     and TLS stores checked already
     * @param bind where to listen (the address workers join)
     * @param inputs the run's inputs, offered to the workers
     * @param version this netns-lab's version
     * @param waitForWorkers how long to wait for a first worker before running locally
     * @param say prints a line about the cluster
     * @param option where {@code bind} came from ({@code --cluster} or the configuration key), for messages
     * @return the coordinator's side
     * @throws IllegalArgumentException when this node cannot listen there, naming {@code option}
     */
    public static ClusterRuns start(
            Config base,
            Config node,
            ClusterConfig.HostPort bind,
            RunInputs inputs,
            String version,
            Duration waitForWorkers,
            Consumer<String> say,
            String option) {
        ClusterConfig.checkCanListen(bind, option);
        ActorSystem<Void> system = ClusterConfig.create(Behaviors.empty(), node, bind, option);
        system.systemActorOf(HandshakeReporter.printer(say), "tls-failures", Props.empty());
        return new ClusterRuns(system, base, inputs, version, waitForWorkers, say);
    }

    @Override
    public DesignRunOutcome[] run(Scenario scenario, List<DesignRun> plan, Local local) throws RunFailure {
        String fingerprint;
        try {
            fingerprint = inputs.fingerprint(version, base, scenario.overrides());
        } catch (IOException e) {
            throw new RunFailure("cannot read the run's inputs for its fingerprint: " + e, e);
        }
        int samples = scenario.sensitivity().samples();
        CompletableFuture<Coordinator.Done> done = new CompletableFuture<>();
        Consumer<String> say = line -> {
            if (!leaving) {
                this.say.accept(line);
            }
        };
        say.accept("coordinator at " + system.address() + ": " + plan.size() + " design runs for the workers that join"
                + " (worker --join " + system.address().host().getOrElse(() -> "?") + ":"
                + system.address().port().getOrElse(() -> 0) + ")");
        system.systemActorOf(
                Coordinator.create(
                        inputs,
                        version,
                        fingerprint,
                        plan,
                        i -> plan.get(i).label(scenario, samples),
                        waitForWorkers,
                        say,
                        done),
                "coordinator",
                Props.empty());
        Coordinator.Done d;
        try {
            d = done.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RunFailure f) {
                throw f;
            }
            throw new RunFailure("the cluster run failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while the workers ran", e);
        }
        DesignRunOutcome[] out = d.outcomes();
        if (leaving && !d.left().isEmpty()) { // stopped by a signal: the runs its workers left are not started here
            throw new RunFailure("stopped while the workers ran: " + d.left().size() + " design runs not done");
        }
        if (!d.left().isEmpty()) {
            say.accept(d.why() + ": running the " + d.left().size() + " design runs left here");
            DesignRunOutcome[] mine = local.run(d.left());
            for (DesignRun r : d.left()) {
                out[r.index()] = mine[r.index()];
            }
        }
        return out;
    }

    /** Leaves the cluster and stops the coordinator's actor system ({@link #leave}), waiting up to 30 s. */
    @Override
    public void close() {
        if (!leave(Duration.ofSeconds(30))) {
            say.accept("the coordinator's actor system did not stop within 30 s");
        }
    }

    /**
     * Leaves the cluster and stops the coordinator's actor system; the workers see it leave and wait for the next
     * coordinator. A worker that is unreachable (killed, say) is downed first: leaving waits for every member this
     * node can reach, and for one it cannot reach until that one is downed.
     *
     * @param within how long to wait for the actor system to end
     * @return whether it ended in time
     */
    public boolean leave(Duration within) {
        leaving = true;
        Cluster cluster = Cluster.get(system);
        for (Member m : cluster.state().getUnreachable()) {
            cluster.manager().tell(new Down(m.address()));
        }
        return ClusterConfig.terminate(system, within);
    }
}
