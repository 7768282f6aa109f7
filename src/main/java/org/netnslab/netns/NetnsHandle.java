package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.japi.Pair;
import akka.stream.javadsl.Source;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.netnslab.netlink.DirectReader;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.uevent.Enobufs;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.userns.UserNamespace;

/**
 * What the creator of a netns gets back: its id, its owning user namespace, its actor, and the route
 * its injected uevents take under the design. Immutable; safe to share between actors.
 *
 * @param id the netns id (unique within one supervisor)
 * @param owner the owning user namespace
 * @param actor the netns actor
 * @param injectRoute where injections into this netns go (set by the design at creation)
 * @param freed completes when the netns actor has stopped: net_free reached, or the model stopped
 */
public record NetnsHandle(
        long id,
        UserNamespace owner,
        ActorRef<NetNamespace.Command> actor,
        UeventRoute injectRoute,
        CompletionStage<Done> freed)
        implements CreateResult {

    /** @return whether the netns actor has stopped (net_free, or the model stopped): nothing more reaches it */
    public boolean isFreed() {
        return freed.toCompletableFuture().isDone();
    }

    /** @return the error an operation on this netns gets once it is freed */
    public IllegalStateException freedError() {
        return new IllegalStateException("netns " + id + " is freed (net_free reached, or its supervisor stopped)");
    }

    /** @return whether the netns is owned by the initial user namespace */
    public boolean initOwned() {
        return owner.isInitial();
    }

    /**
     * A listener socket factory: each materialization binds a new NETLINK_KOBJECT_UEVENT listener to
     * this netns's uevent socket. The materialized stage completes once the listener is bound (every
     * uevent sent after that reaches it, or is counted in an {@code Enobufs}). A bound listener is a
     * user socket and holds a reference to the netns (net/core/sock.c sk_alloc: get_net when
     * {@code sk_net_refcnt}; put_net in __sk_destruct): the netns is not dismantled while the stream
     * runs, even after its creator released it. Cancelling the stream closes the socket and drops the
     * reference; so does the stream's completion after {@link NetNamespace.CloseListeners}. When the
     * netns is already being dismantled, the stage fails and the stream completes empty. When it is
     * already freed ({@link #isFreed()}), or is freed before the listener is bound, the stream and the
     * stage fail at once with {@link #freedError()} (naming the netns id and "freed"). When the model
     * stops while the listener is open, the stream fails with an exception naming the stop. Fault switch
     * {@code faults.listener}: on every Nth recvmsg the listener process dies with the message in hand,
     * as a crashed udevd would: its stream fails with the {@link org.netnslab.fault.ModelFault}, its
     * socket is closed (queue purged, later broadcasts skip it) and its netns reference is dropped
     * (__sk_destruct's put_net); the netns, its other listeners and every other netns go on.
     *
     * @param options receive buffer (SO_RCVBUF / SO_RCVBUFFORCE) and NETLINK_NO_ENOBUFS
     * @return a Source of {@link Received} items
     * @throws NullPointerException for null options, before anything is bound
     */
    public Source<Received, CompletionStage<ReceiveQueue<Received>>> uevents(SocketOptions options) {
        // checked here, not where the socket opens: a null there would fail the netns's actor
        java.util.Objects.requireNonNull(options, "uevents: options is null (SocketOptions.DEFAULT for the defaults)");
        if (isFreed()) {
            IllegalStateException e = freedError();
            return Source.<Received>failed(e).mapMaterializedValue(n -> CompletableFuture.failedFuture(e));
        }
        // A new socket per materialization, opened as the stream is materialized, in the reader's own stage
        // (Source.fromMaterializer would cost two sub-stream hops per message).
        return ReceiveQueue.opening(() -> open(options));
    }

    /**
     * A listener process as {@link #uevents(SocketOptions)} binds, reading its socket without a stream
     * ({@link DirectReader}): the model's own workloads use it (each wake-up is one engine run in virtual execution,
     * one task on a thread pool live, instead of one run of a stream actor's mailbox); embedders who want a Source
     * use {@link #uevents(SocketOptions)}. The same binding, netns reference, ends and faults as that Source's.
     *
     * <p>Threading: {@code onReceive} and the socket's close run on {@code executor}'s threads, one at a time; a
     * handler that blocks holds up that executor (in virtual execution, the whole simulated machine).
     *
     * @param options receive buffer (SO_RCVBUF / SO_RCVBUFFORCE, bytes) and NETLINK_NO_ENOBUFS
     * @param executor runs the reader's drains (the virtual engine: in submission order, so at the simulated instant
     *     of each wake-up)
     * @param onReceive handles each {@link Received} item, a message or an ENOBUFS, in order
     * @return first: completes with the socket once bound, or fails (the netns being dismantled: its socket is closed
     *     at once; freed: {@link #freedError()}); second: completes once the reader has stopped, normally after its
     *     socket was closed and drained (at once, empty, when the netns was being dismantled), exceptionally with what
     *     stopped it (the netns freed, or the model stopped, with the listener open; a receive fault; the handler's
     *     exception)
     */
    public Pair<CompletionStage<ReceiveQueue<Received>>, CompletionStage<Done>> listen(
            SocketOptions options, Executor executor, Consumer<Received> onReceive) {
        if (isFreed()) {
            IllegalStateException e = freedError();
            return Pair.create(CompletableFuture.failedFuture(e), CompletableFuture.failedFuture(e));
        }
        ReceiveQueue.Opening<Received, CompletionStage<ReceiveQueue<Received>>> opened = open(options);
        return Pair.create(opened.value(), DirectReader.start(opened.socket(), opened.closed(), executor, onReceive));
    }

    /** socket() and bind() of one listener: tells the netns to bind it; its close tells the netns it is gone. */
    private ReceiveQueue.Opening<Received, CompletionStage<ReceiveQueue<Received>>> open(SocketOptions options) {
        ReceiveQueue<Received> socket = new ReceiveQueue<>(options, Enobufs::new);
        CompletableFuture<Done> bound = new CompletableFuture<>();
        actor.tell(new NetNamespace.AttachListener(socket, bound));
        // Freed before the actor bound it (or the AttachListener met a stopped actor): fail now, not never.
        freed.thenRun(() -> {
            if (bound.completeExceptionally(freedError())) {
                socket.fail(freedError());
            }
        });
        // close(2) of the socket: cancelled, completed or failed, the reference goes
        return new ReceiveQueue.Opening<>(
                socket, () -> actor.tell(new NetNamespace.ListenerClosed(socket)), bound.thenApply(d -> socket));
    }

    /**
     * The message-count form for embedders: a model simplification that sizes the socket by
     * {@link SocketOptions#holding} (SO_RCVBUFFORCE for about {@code queueCapacity} messages of the
     * smallest truesize). Prefer {@link #uevents(SocketOptions)}.
     *
     * @param queueCapacity messages the listener holds before it overruns, at least 1
     * @return a Source of {@link Received} items; its value completes once bound
     */
    public Source<Received, CompletionStage<Done>> uevents(int queueCapacity) {
        return uevents(SocketOptions.holding(queueCapacity))
                .mapMaterializedValue(s -> s.thenApply(q -> Done.getInstance()));
    }
}
