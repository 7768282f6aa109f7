package org.netnslab.workload.soak;

import java.nio.charset.StandardCharsets;
import org.netnslab.machine.Clock;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.uevent.Enobufs;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.Uevent;

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
    private volatile ReceiveQueue<Received> socket;
    long received;
    long enobufs;
    long crossNetns;
    long forged;
    long outOfOrder;
    long duplicates;
    private long last;

    SoakListener(int netnsIndex, long netnsId, boolean initOwned, boolean stalled, StripedRecorder delivery) {
        this.netnsIndex = netnsIndex;
        this.netnsId = netnsId;
        this.initOwned = initOwned;
        this.stalled = stalled;
        this.delivery = delivery;
    }

    void bound(ReceiveQueue<Received> socket) {
        this.socket = socket;
    }

    void onReceive(Received r) {
        if (r instanceof Enobufs) {
            enobufs++;
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
     * @return those neither received nor covered by an ENOBUFS it received
     */
    long lostWithoutEnobufs(long expected) {
        return socket.counters().lostWithoutEnobufs(expected, received);
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
