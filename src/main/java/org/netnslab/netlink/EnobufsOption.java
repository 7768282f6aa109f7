package org.netnslab.netlink;

/** Whether a listener socket has NETLINK_NO_ENOBUFS set (netlink_setsockopt, af_netlink.c, v6.6). */
public enum EnobufsOption {
    /** Not set: an overrun makes the socket congested and its next recvmsg returns ENOBUFS. */
    REPORTED,
    /** Set: overruns only count drops; loss shows as sequence gaps. */
    NO_ENOBUFS
}
