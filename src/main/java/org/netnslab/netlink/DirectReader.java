package org.netnslab.netlink;

import akka.Done;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A {@link ReceiveQueue}'s reader without a stream: a listener process that receives each message as soon as it is
 * woken, for the model's own workloads in virtual execution. Each wake-up is one task on the given executor, where
 * the stream reader's wake-up ({@link RecvStage}) is one run of its stream actor's mailbox; that task drains the
 * socket as the stream does (recvmsg, then the handler, until nothing is left), so with an executor that runs tasks
 * in submission order on one thread (the virtual engine) the listener receives the same messages at the same
 * simulated instants, in the same order.
 *
 * <p>It ends as the stream reader does: once the socket is closed and drained it runs {@code closed} (close(2)) and
 * completes; once its owner failed, or a receive fault hits ({@link ReceiveQueue#recvFault}), or the handler throws,
 * it runs {@code closed} and fails with that exception (a fault or a throwing handler also purge the socket, as a
 * dead process's close does).
 *
 * <p>Threading: the executor must run its tasks one at a time (no two drains at once).
 *
 * @param <T> what the reader receives
 */
public final class DirectReader<T> {
    private final ReceiveQueue<T> socket;
    private final Runnable closed;
    private final Consumer<? super T> onReceive;
    private final CompletableFuture<Done> finished = new CompletableFuture<>();

    private DirectReader(ReceiveQueue<T> socket, Runnable closed, Consumer<? super T> onReceive) {
        this.socket = socket;
        this.closed = closed;
        this.onReceive = onReceive;
    }

    /**
     * Becomes {@code socket}'s one reader and drains it on {@code executor} now and at each wake-up.
     *
     * @param socket the socket read
     * @param closed what the socket's close does (see {@link ReceiveQueue#source(Runnable)})
     * @param executor runs each drain; one at a time, in submission order
     * @param onReceive handles each message or error item, in order
     * @param <T> what the reader receives
     * @return completes when the reader has stopped: normally once the socket was closed and drained, exceptionally
     *     with the owner's failure, the receive fault or the handler's exception
     * @throws IllegalStateException when the socket already has a reader
     */
    public static <T> CompletionStage<Done> start(
            ReceiveQueue<T> socket, Runnable closed, Executor executor, Consumer<? super T> onReceive) {
        socket.claimReader();
        DirectReader<T> r = new DirectReader<>(socket, closed, onReceive);
        socket.reader(() -> executor.execute(r::drain));
        executor.execute(r::drain);
        return r.finished;
    }

    @SuppressWarnings("unchecked")
    private void drain() {
        while (!finished.isDone()) {
            Object got = socket.recv();
            if (got == null) {
                return; // woken again at the next delivery
            }
            if (got == ReceiveQueue.END) {
                stop(null);
            } else if (got instanceof RuntimeException failed && failed == socket.failure()) {
                stop(failed);
            } else {
                RuntimeException fault = socket.nextRecvFault();
                if (fault != null) { // the listener process dies with the message in hand: its socket closes
                    socket.readerGone();
                    stop(fault);
                } else {
                    handle((T) got);
                }
            }
        }
    }

    private void handle(T got) {
        try {
            onReceive.accept(got);
        } catch (RuntimeException e) { // the process dies in its handler: its socket closes
            socket.readerGone();
            stop(e);
        }
    }

    private void stop(RuntimeException cause) {
        closed.run();
        if (cause == null) {
            finished.complete(Done.getInstance());
        } else {
            finished.completeExceptionally(cause);
        }
    }
}
