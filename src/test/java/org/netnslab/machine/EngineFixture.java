package org.netnslab.machine;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A virtual actor system for a test that drives the engine by hand: its guardian runs the {@link Runnable}s it is
 * sent on the engine's thread, as the model's actors run, and its machine is configured as the test asks.
 */
public final class EngineFixture {
    /** The system; tell it what to run on the engine's thread. */
    public final ActorSystem<Runnable> system;
    /** Its machine. */
    public final Machine machine;
    /** Its engine. */
    public final VirtualEngine engine;

    /**
     * @param name the actor system's name
     * @param setup run in the guardian's set-up, once the machine is configured (when the engine first runs): spawn
     *     what the test needs as the guardian's children
     * @param settings the machine
     * @param handoffNanos every mutex's hand-off, ns
     */
    public EngineFixture(
            String name, Consumer<ActorContext<Runnable>> setup, MachineSettings settings, long handoffNanos) {
        system = VirtualSystem.create(
                Behaviors.<Runnable>setup(ctx -> {
                    setup.accept(ctx);
                    return Behaviors.receiveMessage(r -> {
                        r.run();
                        return Behaviors.same();
                    });
                }),
                name,
                ConfigFactory.load());
        machine = Machine.get(system);
        engine = machine.engine();
        machine.configure(settings, handoffNanos);
    }

    /**
     * Runs the engine until {@code nanos} of simulated time from now.
     *
     * @param nanos ns
     * @throws Exception when the engine fails
     */
    public void runFor(long nanos) throws Exception {
        boolean[] reached = {false};
        engine.schedule(nanos, () -> reached[0] = true);
        engine.runUntil(() -> reached[0], t -> {}, 5_000_000_000L);
    }

    /**
     * Stops the system and frees its engine.
     *
     * @throws Exception when the system does not stop in 5 s
     */
    public void terminate() throws Exception {
        VirtualSystem.terminate(system, Duration.ofSeconds(5));
        engine.unregister();
    }
}
