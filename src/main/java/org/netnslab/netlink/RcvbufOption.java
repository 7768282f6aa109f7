package org.netnslab.netlink;

/** Which setsockopt sets a listener's receive buffer (sock_setsockopt, net/core/sock.c, v6.6). */
public enum RcvbufOption {
    /** SO_RCVBUF: the value is capped at {@code net.core.rmem_max}, then doubled. */
    SO_RCVBUF,
    /** SO_RCVBUFFORCE (CAP_NET_ADMIN): doubled, not capped. */
    SO_RCVBUFFORCE
}
