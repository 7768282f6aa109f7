package org.netnslab.netlink;

import akka.NotUsed;
import akka.stream.javadsl.Source;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The receive side of one netlink listener socket (net/netlink/af_netlink.c, v6.6), written once for
 * the uevent and the proc connector listeners: a byte-bounded receive queue, the congested state, the
 * pending socket error, and its reader as an Akka Streams {@link Source} on which each pull is one
 * recvmsg.
 *
 * <ul>
 *   <li>{@link #deliver} is netlink_broadcast_deliver(): a message is queued while {@code sk_rmem_alloc
 *       <= sk_rcvbuf} <em>before</em> adding its truesize (so the last one may overshoot) and the socket
 *       is not NETLINK_S_CONGESTED. (Since "netlink: Fix wraparounds of sk->sk_rmem_alloc", 2025, the
 *       kernel adds first and checks after, bar an empty queue; the model follows v6.6.)</li>
 *   <li>Otherwise netlink_overrun(): the drop is counted (sk_drops); unless NETLINK_NO_ENOBUFS is set,
 *       the first overrun sets NETLINK_S_CONGESTED and {@code sk_err = ENOBUFS}; a congested socket
 *       drops <em>every</em> broadcast. With NETLINK_NO_ENOBUFS neither the bit nor the error is set:
 *       the socket accepts again as soon as there is room.</li>
 *   <li>A recvmsg (netlink_recvmsg -> skb_recv_datagram -> __skb_try_recv_datagram) first returns a
 *       pending error (sock_error(), which clears it), ahead of queued data and consuming none; else
 *       it takes the head message and gives its truesize back. Either way it then runs
 *       netlink_rcv_wake(), which clears NETLINK_S_CONGESTED only when the queue is empty.</li>
 * </ul>
 *
 * <p>Model-only bookkeeping, which the kernel does not keep, lets the invariants account for every
 * drop: a congestion episode's drops (those of the overrun that set the error and all while the socket
 * stays congested) count as reported once the reader has received that episode's ENOBUFS; drops of a
 * NETLINK_NO_ENOBUFS socket count as opted out. The ENOBUFS item carries the episode's drops so far.
 *
 * <p>Threading: senders call {@link #deliver} from any thread (the lockless uevent design sends
 * concurrently); every state change is under this object's monitor. Shared on purpose between the
 * senders and the reader's stream, as the kernel's socket is.
 *
 * @param <T> what the reader receives: messages, and the error item {@code enobufs} builds
 */
public final class ReceiveQueue<T> {
    /** What became of one {@link #deliver}. */
    public enum Delivery {
        /** Queued for the reader. */
        QUEUED,
        /** Dropped by an overrun (counted in sk_drops). */
        DROPPED,
        /** The socket is closed: nothing done. */
        CLOSED
    }

    private record Entry<T>(T message, int truesize) {}

    private final SocketOptions options;
    private final LongFunction<T> enobufs;
    private final ArrayDeque<Entry<T>> queue = new ArrayDeque<>();
    private final AtomicBoolean materialized = new AtomicBoolean();
    private int rcvbuf = -1;
    private NetlinkFault fault = NetlinkFault.NONE;
    private long rmemAlloc;
    private boolean congested;
    private boolean errorPending;
    private boolean closed;
    private long drops;
    private long episodeDrops;
    private boolean episodeReported;
    private long dropsReported;
    private long dropsOptedOut;
    private Runnable reader;
    private boolean readerWaiting;
    private RuntimeException failure;
    private volatile Supplier<RuntimeException> recvFault = () -> null;

    /**
     * @param options the socket's setsockopt options (sized when {@link #bind} gives the sysctls)
     * @param enobufs builds the error item a recvmsg returns, given the episode's drops so far
     */
    public ReceiveQueue(SocketOptions options, LongFunction<T> enobufs) {
        this.options = options;
        this.enobufs = enobufs;
    }

    /**
     * Sizes the socket as socket() and setsockopt did in the binding netns; call once, before the first
     * {@link #deliver} (the binding actor does).
     *
     * @param sysctls net.core.rmem_default / rmem_max and the test-only fault
     */
    public synchronized void bind(NetlinkSettings sysctls) {
        this.rcvbuf = options.skRcvbuf(sysctls);
        this.fault = sysctls.fault();
    }

    /** @return the socket's options */
    public SocketOptions options() {
        return options;
    }

    /**
     * netlink_broadcast_deliver() and, when it refuses, netlink_overrun().
     *
     * @param message the message
     * @param truesize what it costs, bytes ({@link Skb#truesize})
     * @return what happened
     * @throws IllegalStateException when the socket was never bound
     */
    public Delivery deliver(T message, int truesize) {
        Runnable wake;
        synchronized (this) {
            if (rcvbuf < 0) {
                throw new IllegalStateException("netlink socket delivered to before it was bound");
            }
            if (closed) {
                return Delivery.CLOSED;
            }
            if (rmemAlloc <= rcvbuf && !congested) {
                queue.addLast(new Entry<>(message, truesize));
                rmemAlloc += truesize;
                wake = readerWaiting ? reader : null;
                readerWaiting = false;
            } else {
                overrun();
                return Delivery.DROPPED;
            }
        }
        if (wake != null) {
            wake.run();
        }
        return Delivery.QUEUED;
    }

    /** netlink_overrun(); caller holds the monitor. */
    private void overrun() {
        drops++; // atomic_inc(&sk->sk_drops), whatever the flags
        if (options.noEnobufs()) {
            dropsOptedOut++;
            return;
        }
        if (fault == NetlinkFault.DROP_WITHOUT_ERROR) {
            return; // the broken variant: a drop nobody is told of
        }
        if (!congested) { // test_and_set_bit(NETLINK_S_CONGESTED)
            congested = true;
            errorPending = true; // sk->sk_err = ENOBUFS
            episodeDrops = 0;
            episodeReported = false;
        }
        if (episodeReported) {
            dropsReported++;
        } else {
            episodeDrops++;
        }
    }

    /**
     * One recvmsg. Returns the pending error first, else the head message; either way then
     * netlink_rcv_wake(). With nothing to return, the reader is woken at the next delivery.
     *
     * @return the item, {@link #END} once closed and drained, the failure once failed and drained, or
     *     null to wait
     */
    synchronized Object recv() {
        Object got;
        if (errorPending) {
            errorPending = false;
            episodeReported = true;
            dropsReported += episodeDrops;
            got = enobufs.apply(episodeDrops);
        } else if (!queue.isEmpty()) {
            Entry<T> e = queue.removeFirst();
            rmemAlloc -= e.truesize();
            got = e.message();
        } else if (failure != null) {
            return failure;
        } else if (closed) {
            return END;
        } else {
            readerWaiting = true;
            return null;
        }
        if (queue.isEmpty()) {
            congested = false; // netlink_rcv_wake()
        }
        return got;
    }

    /** What {@link #recv} returns once the socket is closed and its queue drained. */
    static final Object END = new Object();

    /**
     * Whether one recvmsg's result ends its reader ({@link RecvStage}, {@link DirectReader}), and how.
     *
     * @param got what {@link #recv} or {@link #ending} returned, not null
     * @return null for a message or an error item to hand on; {@link #END} once closed and drained; else the exception
     *     the reader fails with: its owner's failure, or a receive fault, the listener process dying with the message
     *     in hand, whose socket is then closed ({@link #readerGone})
     */
    Object readerEnd(Object got) {
        if (got == END || (got instanceof RuntimeException failed && failed == failure())) {
            return got;
        }
        RuntimeException fault = nextRecvFault();
        if (fault != null) {
            readerGone();
        }
        return fault;
    }

    /**
     * Closes the socket to new messages: the reader still receives a pending error and every queued
     * message, then its stream completes.
     */
    public void close() {
        Runnable wake;
        synchronized (this) {
            closed = true;
            wake = reader;
        }
        if (wake != null) {
            wake.run();
        }
    }

    /**
     * The socket's owner went away (a model actor stopped): the reader's stream fails with
     * {@code cause} once it has received what was queued, rather than wait for messages that never come.
     *
     * @param cause what the reader's stream fails with
     */
    public void fail(RuntimeException cause) {
        Runnable wake;
        synchronized (this) {
            closed = true;
            failure = cause;
            wake = reader;
        }
        if (wake != null) {
            wake.run();
        }
    }

    /**
     * The fault hook of the reader (a test and soak switch, {@code faults.listener}): asked once per
     * message or ENOBUFS received; a non-null answer makes the reader's stream fail with it, and the
     * socket is closed as if its process had died (queue purged). Default: never.
     *
     * @param fault gives the fault to fail with, or null; called on the stream's thread, must not block
     */
    public void recvFault(Supplier<RuntimeException> fault) {
        this.recvFault = fault;
    }

    /** @return the fault the reader fails with on this receive, or null */
    private RuntimeException nextRecvFault() {
        return recvFault.get();
    }

    /** The reader cancelled its stream: userspace closed the socket, whose queue is purged. */
    synchronized void readerGone() {
        closed = true;
        queue.clear();
        rmemAlloc = 0;
        reader = null;
    }

    /** @param wake run (from any thread) when the reader may have something new: a message, the end */
    synchronized void reader(Runnable wake) {
        this.reader = wake;
    }

    /** @return {@link #END}, the failure, or null: how the stream ends now that nothing is left to read */
    synchronized Object ending() {
        if (errorPending || !queue.isEmpty()) {
            return null;
        }
        return failure != null ? failure : closed ? END : null;
    }

    private synchronized RuntimeException failure() {
        return failure;
    }

    /** @return whether the socket is closed */
    public synchronized boolean isClosed() {
        return closed;
    }

    /** @return this socket's figures now */
    public synchronized Counters counters() {
        return new Counters(rcvbuf, rmemAlloc, queue.size(), congested, drops, dropsReported, dropsOptedOut);
    }

    /**
     * A socket's figures at one moment.
     *
     * @param skRcvbuf sk_rcvbuf, bytes (-1 before binding)
     * @param rmemAlloc sk_rmem_alloc, bytes queued
     * @param queued messages queued
     * @param congested NETLINK_S_CONGESTED
     * @param drops sk_drops: every overrun
     * @param dropsReported drops of congestion episodes whose ENOBUFS the reader has received (model-only)
     * @param dropsOptedOut drops under NETLINK_NO_ENOBUFS, visible only as sequence gaps (model-only)
     */
    public record Counters(
            int skRcvbuf,
            long rmemAlloc,
            int queued,
            boolean congested,
            long drops,
            long dropsReported,
            long dropsOptedOut) {
        /** @return drops neither reported by an ENOBUFS received nor opted out of: silent loss */
        public long dropsUnreported() {
            return drops - dropsReported - dropsOptedOut;
        }

        /**
         * The lost_without_enobufs invariant of one reader.
         *
         * @param expected messages sent to this socket that its reader wanted, count
         * @param received those its reader got, count
         * @return those neither received, nor lost in a congestion episode whose ENOBUFS the reader
         *     received, nor lost under NETLINK_NO_ENOBUFS; at least 0
         */
        public long lostWithoutEnobufs(long expected, long received) {
            return Math.max(0, expected - received - dropsReported - dropsOptedOut);
        }
    }

    /**
     * The socket's reader: each pull is one recvmsg. Call once and materialize the result once;
     * cancelling it closes the socket.
     *
     * @return the reader's source
     * @throws IllegalStateException on a second call
     */
    public Source<T, NotUsed> source() {
        return source(() -> {});
    }

    /**
     * As {@link #source()}, and runs {@code closed} when the reader stops for any reason (completed,
     * failed or cancelled: close(2) of the socket), inside the stream, so in virtual execution it happens
     * on the engine at the simulated instant it stops (a CompletionStage callback would run on a pool thread).
     *
     * @param closed what the socket's close does, e.g. telling its netns
     * @return the reader's source
     * @throws IllegalStateException on a second call
     */
    public Source<T, NotUsed> source(Runnable closed) {
        claimReader();
        return Source.fromGraph(new RecvStage<>(this, closed));
    }

    /** @throws IllegalStateException when this socket's reader was made already (one reader per socket) */
    void claimReader() {
        if (!materialized.compareAndSet(false, true)) {
            throw new IllegalStateException("a netlink socket has one reader: its source was made already");
        }
    }

    /**
     * What {@link #opening}'s factory returns for one materialization.
     *
     * @param socket the socket just opened, whose reader the stream is
     * @param closed what the socket's close does (see {@link #source(Runnable)})
     * @param value the stream's materialized value
     * @param <T> what the reader receives
     * @param <M> the materialized value's type
     */
    public record Opening<T, M>(ReceiveQueue<T> socket, Runnable closed, M value) {}

    /**
     * A reader source that opens a new socket each time it is materialized: {@code open} runs at
     * materialization (on the materializing thread), makes the socket and does whatever opening it takes
     * (e.g. telling its netns to bind it). Each pull is then one recvmsg, as {@link #source(Runnable)}'s.
     * One stage, no sub-stream (unlike {@code Source.fromMaterializer}).
     *
     * @param open opens one socket
     * @param <T> what the reader receives
     * @param <M> the materialized value's type
     * @return the source
     */
    public static <T, M> Source<T, M> opening(java.util.function.Supplier<Opening<T, M>> open) {
        return Source.fromGraph(new OpeningStage<>(open));
    }
}
