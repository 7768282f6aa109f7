package org.netnslab.run;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netnslab.machine.Machine;
import org.netnslab.machine.VirtualEngine;

/**
 * Waits for an answer from the model in either execution: live, the runner's thread blocks on the
 * future; virtual, it drives the {@link VirtualEngine} until the future is complete (the model only runs
 * while someone drives it), so every wait of the runner is where simulated time may pass.
 */
final class Driver {
    /** How long a virtual run with nothing to do waits for Akka's own threads (logger, internals), wall. */
    static final Duration IDLE_WALL = Duration.ofSeconds(10);

    private Driver() {}

    /**
     * @param machine the actor system's machine
     * @param stage the answer awaited
     * @param liveTimeout the longest wait in live execution (virtual: the model's own ask timeouts, in
     *     simulated time, bound it)
     * @param <T> the answer's type
     * @return the answer
     * @throws ExecutionException when it failed
     * @throws TimeoutException when it did not come within {@code liveTimeout} (live)
     * @throws InterruptedException when the thread was interrupted (live)
     * @throws VirtualEngine.Stalled when the virtual model has nothing left to run and no answer
     */
    static <T> T get(Machine machine, CompletionStage<T> stage, Duration liveTimeout)
            throws ExecutionException, TimeoutException, InterruptedException, VirtualEngine.Stalled {
        if (!machine.isVirtual()) {
            return stage.toCompletableFuture().get(liveTimeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        // Completed on the engine at the answer's instant, not later on a pool thread (see SameThread).
        CompletableFuture<T> f = org.netnslab.machine.SameThread.of(stage);
        machine.engine().runUntil(f::isDone, now -> {}, IDLE_WALL.toNanos());
        return f.get();
    }
}
