package org.netnslab;

import akka.Done;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.netnslab.machine.SameThread;
import org.netnslab.netns.NetnsHandle;

/**
 * How a {@link NetnsLab.Client}'s stages fail without an answer: once its supervisor has terminated, every
 * pending stage fails with an {@link IllegalStateException} naming the stop, and every later one at once; an
 * operation on a netns already freed fails at once. Thread-safe.
 */
final class StopGuard {
    private final String name;
    /** Fails with the stop's reason once the supervisor has terminated (never, for {@link NetnsLab#client}). */
    private final CompletableFuture<Object> stopped = new CompletableFuture<>();

    /**
     * @param name the supervisor's name, for the error
     * @param terminated completes when the supervisor has terminated
     */
    StopGuard(String name, CompletionStage<Done> terminated) {
        this.name = name;
        terminated.thenRun(() -> stopped.completeExceptionally(error()));
    }

    /** @return whether the supervisor has terminated */
    boolean isStopped() {
        return stopped.isDone();
    }

    /** @return the error of a request the stop left unanswered */
    IllegalStateException error() {
        return new IllegalStateException("netns-lab " + name + " stopped: the request was not answered");
    }

    /** @return the error of a request made after the stop, which is not sent */
    IllegalStateException notSent() {
        return new IllegalStateException("netns-lab " + name + " is stopped: the request was not sent");
    }

    /** @return {@code stage}, or a failure naming the stop as soon as the supervisor stops */
    @SuppressWarnings("unchecked")
    <T> CompletionStage<T> guarded(CompletionStage<T> stage) {
        if (stopped.isDone()) {
            return CompletableFuture.failedFuture(error());
        }
        // Akka's stages run every callback, even thenApply, on a common-pool task; with one core's worth of
        // parallelism (2 cores) Java starts a new thread per task. A plain future completed on the answering
        // thread keeps the caller's continuations there.
        return ((CompletionStage<Object>) SameThread.of(stage)).applyToEither(stopped, x -> (T) x);
    }

    /**
     * @param ask sends the request; not called once the supervisor has stopped
     * @return its answer as {@link #guarded(CompletionStage)}; after the stop a failure at once, nothing sent (an ask
     *     to a stopped actor would only reach the dead letters)
     */
    <T> CompletionStage<T> guarded(Supplier<CompletionStage<T>> ask) {
        if (stopped.isDone()) {
            return CompletableFuture.failedFuture(notSent());
        }
        return guarded(ask.get());
    }

    /** @return {@code stage}, unless {@code netns} is already freed: then a failure naming it, at once */
    <T> CompletionStage<T> guarded(NetnsHandle netns, Supplier<CompletionStage<T>> stage) {
        if (netns.isFreed()) {
            return CompletableFuture.failedFuture(netns.freedError());
        }
        return guarded(stage.get());
    }
}
