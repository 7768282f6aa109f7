package org.netnslab.netlink;

import akka.NotUsed;
import akka.stream.Attributes;
import akka.stream.Outlet;
import akka.stream.SourceShape;
import akka.stream.stage.AbstractOutHandler;
import akka.stream.stage.AsyncCallback;
import akka.stream.stage.GraphStage;
import akka.stream.stage.GraphStageLogic;

/**
 * A {@link ReceiveQueue}'s reader as a stream source: each pull is one recvmsg; with nothing to read
 * it waits to be woken by the next delivery; it completes (or fails) once the socket is closed (or
 * its owner failed) and nothing is left to read, with or without demand. Cancelling closes the socket.
 *
 * @param <T> what the reader receives
 */
final class RecvStage<T> extends GraphStage<SourceShape<T>> {
    private final ReceiveQueue<T> socket;
    private final Outlet<T> out = Outlet.create("netlink.recvmsg");
    private final SourceShape<T> shape = SourceShape.of(out);
    private final java.util.concurrent.atomic.AtomicBoolean materialized =
            new java.util.concurrent.atomic.AtomicBoolean();

    private final Runnable closed;

    RecvStage(ReceiveQueue<T> socket, Runnable closed) {
        this.socket = socket;
        this.closed = closed;
    }

    @Override
    public SourceShape<T> shape() {
        return shape;
    }

    @Override
    public GraphStageLogic createLogic(Attributes inheritedAttributes) {
        if (!materialized.compareAndSet(false, true)) {
            throw new IllegalStateException("a netlink socket has one reader: its source was materialized already");
        }
        return logic(shape, socket, closed);
    }

    /**
     * The reader's logic for a stage of shape {@code shape}: this stage's, or an {@link OpeningStage}'s
     * (a socket opened at materialization).
     *
     * @param shape the stage's shape
     * @param socket the socket read
     * @param closed run when the reader stops for any reason
     * @param <T> what the reader receives
     * @return the logic
     */
    static <T> GraphStageLogic logic(SourceShape<T> shape, ReceiveQueue<T> socket, Runnable closed) {
        Outlet<T> out = shape.out();
        return new GraphStageLogic(shape) {
            private AsyncCallback<NotUsed> ready;

            {
                setHandler(out, new AbstractOutHandler() {
                    @Override
                    public void onPull() {
                        receive();
                    }

                    @Override
                    public void onDownstreamFinish(Throwable cause) throws Exception {
                        socket.readerGone();
                        super.onDownstreamFinish(cause);
                    }
                });
            }

            @Override
            public void postStop() {
                closed.run();
            }

            @Override
            public void preStart() {
                ready = createAsyncCallback(x -> receive());
                socket.reader(() -> ready.invoke(NotUsed.getInstance()));
                receive();
            }

            @SuppressWarnings("unchecked")
            private void receive() {
                Object got = isAvailable(out) ? socket.recv() : socket.ending();
                if (got == null) {
                    return; // woken at the next delivery
                }
                Object end = socket.readerEnd(got);
                if (end == null) {
                    push(out, (T) got);
                } else if (end == ReceiveQueue.END) {
                    completeStage();
                } else {
                    failStage((RuntimeException) end);
                }
            }
        };
    }
}
