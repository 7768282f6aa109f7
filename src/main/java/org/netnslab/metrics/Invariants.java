package org.netnslab.metrics;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The invariant counters of one design's run (docs/reading-results.md), all counts. Which must be 0
 * depends on the design: out-of-order deliveries are expected under {@code lockless}, use-after-free
 * under {@code exit-unsafe}.
 *
 * @param seqnumOutOfOrder deliveries whose SEQNUM was lower than one the listener had already seen
 * @param seqnumDuplicates deliveries of a SEQNUM the listener had already seen, or more deliveries
 *     than were sent
 * @param lostWithoutEnobufs messages sent to a listener that it neither received nor was told of by an ENOBUFS
 * @param enobufs ENOBUFS notifications listeners received
 * @param crossNetnsDeliveries deliveries to a netns the event was not for
 * @param eperm injections whose outcome breaks the permission rule of uevent_net_rcv_skb: sent
 *     without CAP_SYS_ADMIN over the target netns's owning user namespace, or refused with EPERM with
 *     it (must be 0; judged from the sender's credentials, not from the socket's own check)
 * @param useAfterFree accesses to a freed per-netns counter
 * @param leaked netns actors, counters or listeners alive after teardown
 * @param sockInuseSum sum of every netns's sock_inuse counter when it was freed (0 when every
 *     socket's teardown had run first)
 */
public record Invariants(
        long seqnumOutOfOrder,
        long seqnumDuplicates,
        long lostWithoutEnobufs,
        long enobufs,
        long crossNetnsDeliveries,
        long eperm,
        long useAfterFree,
        long leaked,
        long sockInuseSum) {

    /** All zero: start from it and set the counters a workload checks, e.g. {@code NONE.with(LEAKED, n)}. */
    public static final Invariants NONE = new Invariants(0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** The counters, in schema order; {@link #jsonName()} is each one's result.json name. */
    public enum Counter {
        /** {@link Invariants#seqnumOutOfOrder}. */
        SEQNUM_OUT_OF_ORDER,
        /** {@link Invariants#seqnumDuplicates}. */
        SEQNUM_DUPLICATES,
        /** {@link Invariants#lostWithoutEnobufs}. */
        LOST_WITHOUT_ENOBUFS,
        /** {@link Invariants#enobufs}. */
        ENOBUFS,
        /** {@link Invariants#crossNetnsDeliveries}. */
        CROSS_NETNS_DELIVERIES,
        /** {@link Invariants#eperm}. */
        EPERM,
        /** {@link Invariants#useAfterFree}. */
        USE_AFTER_FREE,
        /** {@link Invariants#leaked}. */
        LEAKED,
        /** {@link Invariants#sockInuseSum}. */
        SOCK_INUSE_SUM;

        /** @return the counter's name in result.json, e.g. {@code lost_without_enobufs} */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param c a counter
     * @return its value
     */
    public long get(Counter c) {
        return switch (c) {
            case SEQNUM_OUT_OF_ORDER -> seqnumOutOfOrder;
            case SEQNUM_DUPLICATES -> seqnumDuplicates;
            case LOST_WITHOUT_ENOBUFS -> lostWithoutEnobufs;
            case ENOBUFS -> enobufs;
            case CROSS_NETNS_DELIVERIES -> crossNetnsDeliveries;
            case EPERM -> eperm;
            case USE_AFTER_FREE -> useAfterFree;
            case LEAKED -> leaked;
            case SOCK_INUSE_SUM -> sockInuseSum;
        };
    }

    /**
     * @param c a counter
     * @param n its new value
     * @return these counters with {@code c} set to {@code n}
     */
    public Invariants with(Counter c, long n) {
        return of(k -> k == c ? n : get(k));
    }

    /** @return the sum of both, counter by counter */
    public Invariants plus(Invariants o) {
        return of(k -> get(k) + o.get(k));
    }

    /** @return the counters by their result.json names, in schema order */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Counter c : Counter.values()) {
            m.put(c.jsonName(), get(c));
        }
        return m;
    }

    private static Invariants of(ToLongFunction<Counter> value) {
        long[] v = new long[Counter.values().length];
        for (Counter c : Counter.values()) {
            v[c.ordinal()] = value.applyAsLong(c);
        }
        return new Invariants(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
    }
}
