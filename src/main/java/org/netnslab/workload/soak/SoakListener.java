package org.netnslab.workload.soak;

import java.nio.charset.StandardCharsets;
import org.netnslab.machine.Clock;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netlink.ReaderLosses;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.uevent.Enobufs;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.Uevent;
import org.netnslab.workload.ListenerInvariants;

/**
 * One soak listener (a udevd-like process): what it received, checked as it arrives. Isolation (a
 * uevent whose audience does not admit this netns), forged deliveries (a message only unauthorised
 * tasks send), SEQNUM order and duplicates, ENOBUFS. Confined to its stream; read it once the stream
 * has ended.
 */
final class SoakListener {
    /** The bytes only an unauthorised task's injections carry. */
    static final byte[] FORGED_MARK = "DEVPATH=/devices/virtual/net/forged".getBytes(StandardCharsets.US_ASCII);

    final int netnsIndex;
    final boolean stalled;
    private final long netnsId;
    private final boolean initOwned;
    private final StripedRecorder delivery;
    private final ReaderLosses losses;
    long received;
    long forged;
    private long crossNetns;
    private long outOfOrder;
    private long duplicates;
    private long last;

    SoakListener(int netnsIndex, long netnsId, boolean initOwned, boolean stalled, StripedRecorder delivery) {
        this.netnsIndex = netnsIndex;
        this.netnsId = netnsId;
        this.initOwned = initOwned;
        this.stalled = stalled;
        this.delivery = delivery;
        this.losses = new ReaderLosses("soak listener of netns " + netnsId + " was never bound");
    }

    void bound(ReceiveQueue<Received> socket) {
        losses.bound(socket);
    }

    void onReceive(Received r) {
        if (r instanceof Enobufs e) {
            losses.onEnobufs(e.dropped());
            return;
        }
        Uevent u = (Uevent) r;
        received++;
        if (!u.audience().admits(netnsId, initOwned)) {
            crossNetns++;
        }
        if (contains(u.wire(), FORGED_MARK)) {
            forged++;
        }
        long seq = u.seqnum();
        if (seq == last) {
            duplicates++;
        } else if (seq < last) {
            outOfOrder++;
        } else {
            last = seq;
        }
        if (!stalled) {
            delivery.record(Clock.nanoTime() - u.sentNanos());
        }
    }

    /**
     * @param expected messages broadcast into this listener's netns while it was bound
     * @param socketGone its stream was failed by the fault switch: its socket went with its process, so what
     *     was queued is gone, not lost silently
     * @return what it saw against them; each message received beyond them counts as a duplicate
     */
    ListenerInvariants invariants(long expected, boolean socketGone) {
        long lost = socketGone ? 0 : losses.lostWithoutEnobufs(expected, received);
        return new ListenerInvariants(
                outOfOrder, duplicates + Math.max(0, received - expected), lost, losses.enobufs(), crossNetns);
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
