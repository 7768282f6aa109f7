package org.netnslab.cluster;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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
     * @param bind where to listen (the address workers join)
     * @param inputs the run's inputs, offered to the workers
     * @param version this netns-lab's version
     * @param waitForWorkers how long to wait for a first worker before running locally
     * @param say prints a line about the cluster
     * @return the coordinator's side
     * @throws IllegalArgumentException when the address is refused ({@link ClusterConfig#of})
     */
    public static ClusterRuns start(
            Config base,
            ClusterConfig.HostPort bind,
            RunInputs inputs,
            String version,
            Duration waitForWorkers,
            Consumer<String> say) {
        Config c = ClusterConfig.of(base, bind, bind, "coordinator");
        return new ClusterRuns(
                ActorSystem.create(Behaviors.empty(), ClusterConfig.SYSTEM, c),
                base,
                inputs,
                version,
                waitForWorkers,
                say);
    }

    @Override
    public DesignRunOutcome[] run(Scenario scenario, List<DesignRun> plan, Local local) throws RunFailure {
        String fingerprint;
        try {
            fingerprint = inputs.fingerprint(version, base);
        } catch (IOException e) {
            throw new RunFailure("cannot read the run's inputs for its fingerprint: " + e, e);
        }
        int samples = scenario.sensitivity().samples();
        CompletableFuture<Coordinator.Done> done = new CompletableFuture<>();
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
        if (!d.left().isEmpty()) {
            say.accept(d.why() + ": running the " + d.left().size() + " design runs left here");
            DesignRunOutcome[] mine = local.run(d.left());
            for (DesignRun r : d.left()) {
                out[r.index()] = mine[r.index()];
            }
        }
        return out;
    }

    /** Leaves the cluster and stops the coordinator's actor system. */
    @Override
    public void close() {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            say.accept("the coordinator's actor system did not stop cleanly: " + e);
        }
    }
}
