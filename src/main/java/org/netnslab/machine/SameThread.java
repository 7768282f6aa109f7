package org.netnslab.machine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import scala.compat.java8.FutureConverters;

/**
 * Akka's CompletionStages (ask, materialized values) wrap Scala futures whose Java callbacks
 * ({@code thenApply}, {@code thenCompose}, ...) always run on a pool thread. In virtual execution a callback
 * that tells the model must run on the engine, at the instant of the answer, or simulated time may pass
 * before its message arrives. {@link #of} gives a plain CompletableFuture completed on the thread that
 * completes the answer (the engine's, for the model's answers), so its callbacks run there too.
 */
public final class SameThread {
    /** Runs each callback on the thread that completes the future. */
    private static final scala.concurrent.ExecutionContext INLINE =
            scala.concurrent.ExecutionContext.fromExecutor(Runnable::run);

    private SameThread() {}

    /**
     * @param stage an Akka CompletionStage
     * @param <T> the answer's type
     * @return a CompletableFuture with the same outcome, completed on the completing thread
     */
    public static <T> CompletableFuture<T> of(CompletionStage<T> stage) {
        return of(FutureConverters.toScala(stage));
    }

    /**
     * @param future a Scala future (an Akka promise's, say); use this form rather than converting it to Java
     *     first: a stage made by {@code scala.jdk.javaapi.FutureConverters.asJava} is not recognised by
     *     {@link #of(CompletionStage)} and would cost a pool task (a new thread on 2 cores) per answer
     * @param <T> the answer's type
     * @return a CompletableFuture with the same outcome, completed on the completing thread
     */
    public static <T> CompletableFuture<T> of(scala.concurrent.Future<T> future) {
        CompletableFuture<T> f = new CompletableFuture<>();
        future.onComplete(
                t -> {
                    if (t.isSuccess()) {
                        f.complete(t.get());
                    } else {
                        f.completeExceptionally(t.failed().get());
                    }
                    return null;
                },
                INLINE);
        return f;
    }
}
