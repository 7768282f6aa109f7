package org.netnslab.uevent;

/**
 * The {@code uevent.fault} setting: TEST-ONLY switches that break one kernel rule on purpose, so that
 * a test can show the invariant that guards the rule counting the breakage (every invariant must be
 * able to fail). No design uses them; a scenario that sets one measures a kernel that does not exist.
 */
public enum UeventFault {
    /** No fault: the model as documented. */
    NONE,
    /**
     * uevent_net_rcv_skb without its netlink_ns_capable(CAP_SYS_ADMIN) check: injections from tasks
     * without the capability are sent. Trips {@code eperm}.
     */
    SKIP_CAPABILITY_CHECK,
    /**
     * Every netns's socket on uevent_sock_list, as before v4.18 ("netns: restrict uevents"): untagged
     * kernel events reach netns owned by a non-initial user namespace. Trips {@code cross_netns_deliveries}.
     */
    UNTAGGED_TO_EVERY_NETNS,
    /**
     * The socket holds every other message back and broadcasts it after the next one. Trips
     * {@code seqnum_out_of_order} under a serialized design.
     */
    REORDER_PAIRS,
    /**
     * Every even SEQNUM a socket's injection takes is written as the odd one before it, as a lost
     * update of the counter would. Trips {@code seqnum_duplicates}.
     */
    REPEAT_SEQNUM
}
