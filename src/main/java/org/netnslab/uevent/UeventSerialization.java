package org.netnslab.uevent;

/**
 * The {@code uevent.serialization} strategy: what serializes a uevent's SEQNUM bump with its
 * broadcast (lib/kobject_uevent.c).
 */
public enum UeventSerialization {
    /** uevent_sock_mutex (v4.17..v6.8): every send goes through one owner actor. */
    GLOBAL_OWNER,
    /**
     * The 2018 proposal as posted: a netns owned by a non-initial user namespace serializes its
     * injections in its actor (the per-netns mutex); netns owned by the initial user namespace still
     * share the global owner. Kernel-generated events tagged for a network device still go through
     * kobject_uevent_env under uevent_sock_mutex (the global owner) and bump the device netns's own
     * counter there: one counter under two locks, the defect review objection 1 named.
     */
    PER_NETNS_OWNER,
    /**
     * The 2018 proposal corrected: as {@link #PER_NETNS_OWNER}, but a tagged kernel event for a netns
     * owned by a non-initial user namespace takes that netns's lock (its actor), so every send that
     * bumps the netns's counter is serialized by one lock.
     */
    PER_NETNS_OWNER_FIXED,
    /** v6.9+: atomic counter, no owner; the sender delivers in its own context, order not guaranteed. */
    LOCKLESS;

    /**
     * Who serializes a kernel-generated uevent tagged for a network device in a netns.
     *
     * @param deviceNetnsInitOwned whether the device's netns is owned by the initial user namespace
     * @return true when the send runs under uevent_sock_mutex (the global owner); false when it runs
     *     in the device netns's own actor: under its per-netns lock ({@link #PER_NETNS_OWNER_FIXED}),
     *     or, for {@link #LOCKLESS}, as v6.9's uevent_net_broadcast_tagged does, with no lock at all
     */
    public boolean taggedUnderGlobalLock(boolean deviceNetnsInitOwned) {
        return switch (this) {
            case GLOBAL_OWNER, PER_NETNS_OWNER -> true;
            case PER_NETNS_OWNER_FIXED -> deviceNetnsInitOwned;
            case LOCKLESS -> false;
        };
    }
}
