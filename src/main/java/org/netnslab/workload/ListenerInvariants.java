package org.netnslab.workload;

import static org.netnslab.metrics.Invariants.Counter.CROSS_NETNS_DELIVERIES;
import static org.netnslab.metrics.Invariants.Counter.ENOBUFS;
import static org.netnslab.metrics.Invariants.Counter.LOST_WITHOUT_ENOBUFS;
import static org.netnslab.metrics.Invariants.Counter.SEQNUM_DUPLICATES;
import static org.netnslab.metrics.Invariants.Counter.SEQNUM_OUT_OF_ORDER;

import org.netnslab.metrics.Invariants;

/**
 * The invariants a netlink listener checks, of one listener or summed over a design's listeners: what
 * they received against what was sent into their netns. Counts; see {@link Invariants} for each.
 *
 * @param outOfOrder deliveries whose SEQNUM was lower than one already seen
 * @param duplicates deliveries of a SEQNUM already seen, or more deliveries than were sent
 * @param lostWithoutEnobufs messages sent that were neither received nor told of by an ENOBUFS
 * @param enobufs ENOBUFS notifications received
 * @param crossNetns deliveries to a netns the message was not for
 */
public record ListenerInvariants(
        long outOfOrder, long duplicates, long lostWithoutEnobufs, long enobufs, long crossNetns) {

    /** No listener, or none that saw anything wrong. */
    public static final ListenerInvariants NONE = new ListenerInvariants(0, 0, 0, 0, 0);

    /**
     * @param lostWithoutEnobufs messages lost silently
     * @param enobufs ENOBUFS notifications received
     * @return the invariants of a listener that checks only its losses (a proc connector listener)
     */
    public static ListenerInvariants losses(long lostWithoutEnobufs, long enobufs) {
        return new ListenerInvariants(0, 0, lostWithoutEnobufs, enobufs, 0);
    }

    /** @return the sum of both, counter by counter */
    public ListenerInvariants plus(ListenerInvariants o) {
        return new ListenerInvariants(
                outOfOrder + o.outOfOrder,
                duplicates + o.duplicates,
                lostWithoutEnobufs + o.lostWithoutEnobufs,
                enobufs + o.enobufs,
                crossNetns + o.crossNetns);
    }

    /** @return a design's invariants with these five set and every other counter 0 */
    public Invariants invariants() {
        return Invariants.NONE
                .with(SEQNUM_OUT_OF_ORDER, outOfOrder)
                .with(SEQNUM_DUPLICATES, duplicates)
                .with(LOST_WITHOUT_ENOBUFS, lostWithoutEnobufs)
                .with(ENOBUFS, enobufs)
                .with(CROSS_NETNS_DELIVERIES, crossNetns);
    }
}
