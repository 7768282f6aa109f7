package org.netnslab.machine;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Builds an actor system for virtual execution: its default dispatcher and the model's
 * ({@link ModelDispatcher}) run every mailbox on a new {@link VirtualEngine} and its scheduler is a
 * {@link VirtualScheduler} on the same engine. Akka's loggers
 * stay on a real thread (their start-up is awaited while the engine is not yet driven); they never
 * send to the model.
 */
public final class VirtualSystem {
    private VirtualSystem() {}

    /**
     * @param guardian the user guardian's behaviour
     * @param name the actor system's name
     * @param base the configuration it would have in live execution
     * @param <T> the guardian's protocol
     * @return the system; {@code Machine.get(system).engine()} is its engine
     */
    public static <T> ActorSystem<T> create(Behavior<T> guardian, String name, Config base) {
        VirtualEngine engine = VirtualEngine.create();
        Map<String, Object> keys = new HashMap<>(Map.of(
                "akka.actor.default-dispatcher.executor", VirtualExecutorConfigurator.class.getName(),
                "akka.actor.default-dispatcher.engine-id", engine.id(),
                "akka.actor.default-dispatcher.throughput", 16,
                "akka.scheduler.implementation", VirtualScheduler.class.getName(),
                "akka.loggers-dispatcher", "akka.actor.internal-dispatcher",
                "netns-lab.machine.engine-id", engine.id(),
                // With akka-cluster on the class path (run --cluster, worker) every actor system builds Distributed
                // Data's serializer, which evicts its cache on a fixed-delay timer (half this TTL): on the engine, a
                // timer whose firings in a design run depend on where the run starts on the clock, so a run's engine
                // events would depend on the runs before it. The model sends no Distributed Data message; past the
                // scheduler's never-horizon (VirtualScheduler.NEVER_NANOS) the timer is not put on the engine.
                "akka.cluster.distributed-data.serializer-cache-time-to-live", "3650d"));
        // The model's own dispatcher (ModelDispatcher) runs on the same engine, with the same settings:
        // one simulated machine, and the same mailbox runs in the same order as on the default dispatcher.
        String model = ModelDispatcher.id(base.resolve());
        if (!model.equals("akka.actor.default-dispatcher")) {
            keys.put(model + ".type", "Dispatcher");
            keys.put(model + ".executor", VirtualExecutorConfigurator.class.getName());
            keys.put(model + ".engine-id", engine.id());
            keys.put(model + ".throughput", 16);
            // Akka shuts a dispatcher down shutdown-timeout (1 s) after its last actor stops: every design run's end
            // on the model's dispatcher. That one-shot timer would fire inside the next design run, in simulated
            // time, and count as one of its engine events (a lane's first run would have one event fewer than the
            // same run after another). At 3650 days it is a backstop the scheduler never puts on the engine
            // (VirtualScheduler.NEVER_NANOS); the engine's executor needs no shutting down.
            keys.put(model + ".shutdown-timeout", "3650d");
        }
        Config overlay = ConfigFactory.parseMap(keys);
        ActorSystem<T> system = ActorSystem.create(guardian, name, overlay.withFallback(base));
        system.getWhenTerminated().thenRun(engine::unregister);
        return system;
    }

    /**
     * Terminates an actor system and waits until it has. A virtual system's actors stop only while its
     * engine runs, so the engine is driven until then; a live one is simply awaited.
     *
     * @param system the system, live or virtual
     * @param idleWall how long a virtual engine with nothing to run waits for Akka's own threads, wall time; live,
     *     how long the termination is awaited
     * @throws VirtualEngine.Stalled when the virtual engine runs out of work before the system terminated
     * @throws java.util.concurrent.ExecutionException when termination failed
     * @throws java.util.concurrent.TimeoutException when a live system has not terminated within {@code idleWall}
     *     (an actor that never stops, a dispatcher that cannot start a thread)
     * @throws InterruptedException when interrupted while waiting
     */
    public static void terminate(ActorSystem<?> system, Duration idleWall)
            throws VirtualEngine.Stalled, java.util.concurrent.ExecutionException,
                    java.util.concurrent.TimeoutException, InterruptedException {
        system.terminate();
        Machine machine = Machine.get(system);
        if (machine.isVirtual()) {
            machine.engine()
                    .runUntil(
                            () -> system.getWhenTerminated()
                                    .toCompletableFuture()
                                    .isDone(),
                            t -> {},
                            idleWall.toNanos());
        }
        try {
            system.getWhenTerminated().toCompletableFuture().get(idleWall.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            String bound = idleWall.toMillis() % 1000 == 0 ? idleWall.toSeconds() + " s" : idleWall.toMillis() + " ms";
            throw new java.util.concurrent.TimeoutException(
                    "actor system " + system.name() + " has not terminated " + bound + " after it was told to");
        }
    }
}
