package org.netnslab.proc;

import java.util.function.LongConsumer;
import org.netnslab.machine.Clock;
import org.netnslab.netlink.ReaderLosses;
import org.netnslab.netlink.ReceiveQueue;

/**
 * A process monitor that learns of processes through a proc connector socket: one recvmsg per
 * message, the subscription's ack (PROC_EVENT_NONE) skipped, and each event its subscription wants
 * handled ({@link MonitoredProcesses}); what it does not want, which reaches it only when the
 * connector does not filter ({@code proc-connector.filter = none}), is discarded. It times its own
 * handling, charged recvmsg cost included, and each event's latency from generation to receipt.
 * Confined to its listener stream: read its figures once the stream has completed.
 */
public final class ConnectorMonitor {
    private final ProcSubscription wants;
    private final SyscallCost syscalls;
    private final LongConsumer latencyNanos;
    private final MonitoredProcesses processes = new MonitoredProcesses();
    private long busyNanos;
    private long wakeups;
    private long discarded;
    private final ReaderLosses losses = new ReaderLosses("connector monitor was never bound to a socket");
    /** Whether an event's receipt is told later ({@link #received}), once its charged handling has run. */
    private final boolean deferred;
    /** The generation time of the event whose receipt {@link #received} is to tell, ns; NONE_PENDING: none. */
    private long pending = NONE_PENDING;

    private static final long NONE_PENDING = Long.MIN_VALUE;

    /**
     * @param mask the PROC_EVENT_* bits its subscription asks for
     * @param syscalls the cost charged per recvmsg
     * @param latencyNanos told each event's latency, generation to receipt, ns
     */
    public ConnectorMonitor(int mask, SyscallCost syscalls, LongConsumer latencyNanos) {
        this(mask, syscalls, latencyNanos, false);
    }

    /**
     * @param mask the PROC_EVENT_* bits its subscription asks for
     * @param syscalls the cost charged per recvmsg
     * @param latencyNanos told each event's latency, generation to receipt, ns
     * @param deferred true where the handling's charge runs after {@link #onReceive} (virtual execution): the receipt
     *     is then the end of that charge (the wake-up and recvmsg that return the message), told by {@link #received};
     *     false: the receipt is the moment {@link #onReceive} is called
     */
    public ConnectorMonitor(int mask, SyscallCost syscalls, LongConsumer latencyNanos, boolean deferred) {
        this.wants = new ProcSubscription(ProcEvents.MCAST_LISTEN, mask);
        this.syscalls = syscalls;
        this.latencyNanos = latencyNanos;
        this.deferred = deferred;
    }

    /**
     * The handling of the last event {@link #onReceive} took has run its charge: the event is received now (a
     * deferred monitor's latency, generation to this instant). Nothing for an ack, an ENOBUFS or a live monitor.
     *
     * @param nowNanos the clock now, ns, on the events' clock
     */
    public void received(long nowNanos) {
        if (pending != NONE_PENDING) {
            latencyNanos.accept(nowNanos - pending);
            pending = NONE_PENDING;
        }
    }

    /**
     * The listener found its socket empty, slept, and was woken by a message (virtual execution: charged
     * {@code costs.proc.wakeup} besides each message's recvmsg).
     *
     * @param nanos the wake-up's charge, ns
     */
    public void onWakeup(long nanos) {
        busyNanos += nanos;
        wakeups++;
    }

    /** @return wake-ups charged so far */
    public long wakeups() {
        return wakeups;
    }

    /** @param r one receive from the socket: an event, or the ENOBUFS after an overflow */
    public void onReceive(ProcReceived r) {
        long t0 = Clock.nanoTime();
        if (r instanceof ProcReceived.Enobufs e) {
            losses.onEnobufs(e.dropped());
            return;
        }
        ProcEvent e = ((ProcReceived.Event) r).event();
        busyNanos += syscalls.recvmsg();
        if (e.what() == ProcEvents.NONE) {
            busyNanos += syscalls.handlingSince(t0);
            return; // the subscription's ack
        }
        if (deferred) {
            pending = e.timestampNanos();
        } else {
            latencyNanos.accept(t0 - e.timestampNanos());
        }
        if (ProcFilter.delivers(wants, e)) {
            processes.handle(e);
        } else {
            discarded++;
        }
        busyNanos += syscalls.handlingSince(t0);
    }

    /**
     * @param e an event the process table generated
     * @return whether this monitor's subscription wants it
     */
    public boolean wants(ProcEvent e) {
        return ProcFilter.delivers(wants, e);
    }

    /** @return time spent handling what it received, charged system calls included, ns */
    public long busyNanos() {
        return busyNanos;
    }

    /** @return events handled */
    public long handled() {
        return processes.handled();
    }

    /** @return events received but not wanted */
    public long discarded() {
        return discarded;
    }

    /** @return ENOBUFS notifications received */
    public long enobufs() {
        return losses.enobufs();
    }

    /** @return the drops the ENOBUFS notifications carried when they were received (episodes so far) */
    public long dropped() {
        return losses.dropped();
    }

    /** @param socket the monitor's socket, once joined: its counters settle the loss accounting */
    public void bound(ReceiveQueue<ProcReceived> socket) {
        losses.bound(socket);
    }

    /**
     * Wanted events it neither handled, nor lost in a congestion episode whose ENOBUFS it received, nor
     * lost under NETLINK_NO_ENOBUFS. Under {@code filter = none} drops of unwanted events are counted
     * too, so silent loss of wanted ones may then be under-counted.
     *
     * @param wanted events generated that its subscription wants
     * @return silent losses, at least 0
     * @throws IllegalStateException when {@link #bound} was never called
     */
    public long lostWithoutEnobufs(long wanted) {
        return losses.lostWithoutEnobufs(wanted, handled());
    }
}
