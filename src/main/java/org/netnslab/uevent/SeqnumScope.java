package org.netnslab.uevent;

/** The {@code uevent.seqnum-scope} strategy: one system-wide SEQNUM counter, or one per netns. */
public enum SeqnumScope {
    /** One {@code uevent_seqnum} for the whole system (upstream). */
    GLOBAL,
    /**
     * One counter per netns owned by a non-initial user namespace (the 2018 proposal); netns owned by
     * the initial user namespace keep the global counter.
     */
    PER_NETNS;
}
