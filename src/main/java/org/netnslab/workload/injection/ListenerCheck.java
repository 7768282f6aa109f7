package org.netnslab.workload.injection;

import java.util.List;
import java.util.function.ToLongFunction;
import org.netnslab.machine.Clock;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netlink.ReaderLosses;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.run.PhaseClock;
import org.netnslab.uevent.Enobufs;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.Uevent;
import org.netnslab.workload.ListenerInvariants;

/**
 * A uevent listener process (like udevd) that checks what it receives: SEQNUM order, duplicates,
 * isolation, ENOBUFS, SEQNUM gaps, and delivery latency (send to receipt, ns) of counted messages.
 * Confined to its listener stream; read its figures only after the stream has completed.
 *
 * <p>Loss accounting follows the kernel's overrun rules ({@link ReceiveQueue}): one ENOBUFS covers a
 * whole congestion episode, including drops after the reader received it while its queue was not yet
 * empty; a NETLINK_NO_ENOBUFS socket's drops show only as SEQNUM gaps. A gap is not a loss by itself:
 * with the global counter, every other netns's uevent leaves one in this listener's sequence.
 */
public final class ListenerCheck {
    private static final int RECENT = 32;

    private final int netnsIndex;
    private final long netnsId;
    private final boolean netnsInitOwned;
    private final PhaseClock clock;
    private final StripedRecorder delivery;
    private final long[] recent = new long[RECENT];
    private int recentNext;
    private long last = 0;
    private long received;
    private long outOfOrder;
    private long duplicates;
    private long crossNetns;
    private long gaps;
    private final ReaderLosses losses;
    /** Its process was killed by the fault switch ({@link #killedByFault}). */
    private boolean killed;

    /**
     * @param netnsIndex the netns's index in the run
     * @param netnsId the netns's id
     * @param netnsInitOwned whether the netns is owned by the initial user namespace
     * @param clock tells which messages belong to the counted phase
     * @param delivery records counted messages' delivery latency, ns
     */
    public ListenerCheck(
            int netnsIndex, long netnsId, boolean netnsInitOwned, PhaseClock clock, StripedRecorder delivery) {
        this.delivery = delivery;
        this.netnsIndex = netnsIndex;
        this.netnsId = netnsId;
        this.netnsInitOwned = netnsInitOwned;
        this.clock = clock;
        this.losses = new ReaderLosses("listener of netns " + netnsId + " was never bound");
    }

    /** Handles one receive. */
    public void onReceive(Received r) {
        if (r instanceof Enobufs e) {
            losses.onEnobufs(e.dropped());
            return;
        }
        Uevent u = (Uevent) r;
        long now = Clock.nanoTime();
        received++;
        if (!u.audience().admits(netnsId, netnsInitOwned)) {
            crossNetns++;
        }
        long seq = u.seqnum();
        if (seq <= last) {
            if (seenRecently(seq)) {
                duplicates++;
            } else {
                outOfOrder++;
            }
        } else {
            if (last > 0) {
                gaps += seq - last - 1;
            }
            last = seq;
        }
        recent[recentNext] = seq;
        recentNext = (recentNext + 1) % RECENT;
        if (u.sentNanos() >= clock.countedFromNanos()) {
            delivery.record(now - u.sentNanos());
        }
    }

    private boolean seenRecently(long seq) {
        for (long s : recent) {
            if (s == seq) {
                return true;
            }
        }
        return false;
    }

    /** @return the netns's index in the run */
    public int netnsIndex() {
        return netnsIndex;
    }

    /** @return messages received */
    public long received() {
        return received;
    }

    /** @return deliveries with a SEQNUM lower than one already seen, and not a recent duplicate */
    public long outOfOrder() {
        return outOfOrder;
    }

    /** @return deliveries of a SEQNUM seen among the last 32 */
    public long duplicates() {
        return duplicates;
    }

    /** @return deliveries the netns should not have seen */
    public long crossNetns() {
        return crossNetns;
    }

    /** @return ENOBUFS notifications received */
    public long enobufs() {
        return losses.enobufs();
    }

    /** @return SEQNUM numbers skipped between received messages (others' uevents and drops alike) */
    public long gaps() {
        return gaps;
    }

    /** @param socket the listener's socket, once bound: its counters settle the loss accounting */
    public void bound(ReceiveQueue<Received> socket) {
        losses.bound(socket);
    }

    /**
     * Messages sent into this listener's netns that it neither received, nor lost in a congestion
     * episode whose ENOBUFS it received, nor lost under NETLINK_NO_ENOBUFS (opted out: gaps only).
     *
     * @param expected messages sent into its netns while it was bound
     * @return silent losses, at least 0
     * @throws IllegalStateException when {@link #bound} was never called
     */
    public long lostWithoutEnobufs(long expected) {
        // a listener the fault switch killed closed its socket: what was sent after that went to no socket
        return killed ? 0 : losses.lostWithoutEnobufs(expected, received);
    }

    /**
     * Marks the listener's process as killed by {@code faults.listener}: its socket was closed with the message in
     * hand, so the messages it did not read are not losses of a live socket.
     */
    public void killedByFault() {
        killed = true;
    }

    /**
     * @param expected messages sent into its netns while it was bound
     * @return what it saw against them; receiving more than were sent counts as duplicates
     * @throws IllegalStateException when {@link #bound} was never called
     */
    public ListenerInvariants invariants(long expected) {
        return new ListenerInvariants(
                outOfOrder,
                Math.max(duplicates, received - expected),
                lostWithoutEnobufs(expected),
                enobufs(),
                crossNetns);
    }

    /**
     * @param checks a design's listeners
     * @param expected the messages sent into a listener's netns while it was bound
     * @return their invariants, summed
     * @throws IllegalStateException when a listener was never bound
     */
    public static ListenerInvariants sum(List<ListenerCheck> checks, ToLongFunction<ListenerCheck> expected) {
        ListenerInvariants sum = ListenerInvariants.NONE;
        for (ListenerCheck c : checks) {
            sum = sum.plus(c.invariants(expected.applyAsLong(c)));
        }
        return sum;
    }
}
