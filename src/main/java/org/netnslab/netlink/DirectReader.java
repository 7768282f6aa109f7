package org.netnslab.netlink;

import akka.Done;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A {@link ReceiveQueue}'s reader without a stream: a listener process (netlink_recvmsg in a loop) that receives each
 * message as soon as it is woken, for the model's own workloads, virtual and live. Each wake-up is one task on the
 * given executor, where the stream reader's wake-up ({@link RecvStage}) is one run of its stream actor's mailbox; that
 * task drains the socket as the stream does (recvmsg, then the handler, until nothing is left). With the virtual
 * engine as the executor (tasks in submission order on one thread) the listener receives the same messages at the
 * same simulated instants, in the same order, as the stream reader; live, any executor will do (below).
 *
 * <p>It ends as the stream reader does: once the socket is closed and drained it runs {@code closed} (close(2)) and
 * completes; once its owner failed, or a receive fault hits ({@link ReceiveQueue#recvFault}), or the handler throws,
 * it runs {@code closed} and fails with that exception. A fault or a throwing handler also purges the socket, as a
 * dead process's close does; so does an executor that refuses a drain, and the reader fails with the refusal.
 *
 * <p>Threading: the drains never overlap, whatever the executor (a thread pool in live execution): a wake-up while a
 * drain is queued or running makes that drain go round once more instead of queueing another (the work-in-progress
 * count). The handler runs on the executor's threads, one call at a time.
 *
 * @param <T> what the reader receives
 */
public final class DirectReader<T> {
    private final ReceiveQueue<T> socket;
    private final Runnable closed;
    private final Consumer<? super T> onReceive;
    private final Executor executor;
    private final CompletableFuture<Done> finished = new CompletableFuture<>();
    /** Wake-ups not yet drained for: a drain is queued or running while it is above 0. */
    private final AtomicInteger wip = new AtomicInteger();

    private DirectReader(ReceiveQueue<T> socket, Runnable closed, Executor executor, Consumer<? super T> onReceive) {
        this.socket = socket;
        this.closed = closed;
        this.executor = executor;
        this.onReceive = onReceive;
    }

    /**
     * Becomes {@code socket}'s one reader and drains it on {@code executor} now and at each wake-up.
     *
     * @param socket the socket read
     * @param closed what the socket's close does (see {@link ReceiveQueue#source(Runnable)})
     * @param executor runs the drains (the virtual engine: in submission order, so at the instant of the wake-up)
     * @param onReceive handles each message or error item, in order
     * @param <T> what the reader receives
     * @return completes when the reader has stopped: normally once the socket was closed and drained, exceptionally
     *     with the owner's failure, the receive fault, the handler's exception or the executor's refusal
     * @throws IllegalStateException when the socket already has a reader
     */
    public static <T> CompletionStage<Done> start(
            ReceiveQueue<T> socket, Runnable closed, Executor executor, Consumer<? super T> onReceive) {
        socket.claimReader();
        DirectReader<T> r = new DirectReader<>(socket, closed, executor, onReceive);
        socket.reader(r::wake);
        r.wake();
        return r.finished;
    }

    private void wake() {
        if (wip.getAndIncrement() == 0) {
            try {
                executor.execute(this::drainAll);
            } catch (java.util.concurrent.RejectedExecutionException e) { // a pool shut down: nobody will read
                socket.readerGone();
                stop(e);
            }
        }
    }

    private void drainAll() {
        int missed = 1;
        do {
            drain();
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    @SuppressWarnings("unchecked")
    private void drain() {
        while (!finished.isDone()) {
            Object got = socket.recv();
            if (got == null) {
                return; // woken again at the next delivery
            }
            Object end = socket.readerEnd(got);
            if (end == null) {
                handle((T) got);
            } else {
                stop(end == ReceiveQueue.END ? null : (RuntimeException) end);
            }
        }
    }

    private void handle(T got) {
        try {
            onReceive.accept(got);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            // the process dies in its handler: its socket closes
            socket.readerGone();
            stop(e);
        }
    }

    private void stop(Throwable cause) {
        closed.run();
        if (cause == null) {
            finished.complete(Done.getInstance());
        } else {
            finished.completeExceptionally(cause);
        }
    }
}
