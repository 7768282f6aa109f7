package org.netnslab.uevent;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The multicast list of the uevent netlink family, {@code nl_table[NETLINK_KOBJECT_UEVENT].mc_list}
 * (net/netlink/af_netlink.c): every listener socket bound to the uevent group, in every netns. It is
 * kernel-global, shared state on purpose: netlink_broadcast() walks all of it for every uevent, whatever
 * netns the uevent is for (do_one_broadcast skips the other netns's sockets one by one), so a broadcast
 * costs time in proportion to {@link #bound()}. One per design run: the
 * global {@link SeqnumCounter} carries it ({@link SeqnumCounter#mcList()}), as both are the run's
 * kernel-global uevent state. Thread-safe (live listeners bind from netns actors on any thread).
 */
public final class UeventMcList {
    private final AtomicInteger bound = new AtomicInteger();

    /** A listener bound to the uevent group (netlink_bind -> netlink_update_subscriptions). */
    void add() {
        bound.incrementAndGet();
    }

    /** @param n listeners unbound (close -> netlink_release) */
    void remove(int n) {
        bound.addAndGet(-n);
    }

    /** @return uevent listener sockets bound in the whole system now */
    public int bound() {
        return bound.get();
    }
}
