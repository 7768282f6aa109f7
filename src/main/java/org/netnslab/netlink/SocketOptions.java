package org.netnslab.netlink;

/**
 * A netlink listener socket's options: its receive buffer as set by setsockopt, and
 * NETLINK_NO_ENOBUFS. Immutable.
 *
 * @param rcvbuf the value passed to {@code option}, bytes; 0: no setsockopt, the socket keeps
 *     {@code net.core.rmem_default} (sock_init_data). 0..Integer.MAX_VALUE
 * @param option SO_RCVBUF or SO_RCVBUFFORCE
 * @param noEnobufs NETLINK_NO_ENOBUFS set (netlink_setsockopt): overruns are never reported
 */
public record SocketOptions(int rcvbuf, RcvbufOption option, boolean noEnobufs) {
    /** SOCK_MIN_RCVBUF (include/net/sock.h): 2 * (2048 + SKB_DATA_ALIGN(sizeof(struct sk_buff))). */
    public static final int SOCK_MIN_RCVBUF = 2 * (2048 + Skb.SK_BUFF);

    /** A socket as socket() leaves it: rmem_default, errors reported. */
    public static final SocketOptions DEFAULT = new SocketOptions(0, RcvbufOption.SO_RCVBUF, false);

    /**
     * Checks the values.
     *
     * @param rcvbuf the value passed to {@code option}, bytes; 0: no setsockopt (rmem_default)
     * @param option SO_RCVBUF or SO_RCVBUFFORCE
     * @param noEnobufs NETLINK_NO_ENOBUFS set
     * @throws IllegalArgumentException for a negative size or a null option
     */
    public SocketOptions {
        if (rcvbuf < 0) {
            throw new IllegalArgumentException("rcvbuf must be >= 0, got " + rcvbuf);
        }
        if (option == null) {
            throw new IllegalArgumentException("option must be SO_RCVBUF or SO_RCVBUFFORCE");
        }
    }

    /**
     * A model simplification kept for the message-count API: SO_RCVBUFFORCE sized so the socket holds
     * {@code messages} messages of the smallest truesize ({@link Skb#truesize}(0), 896 bytes) before
     * it overruns; bigger messages fit fewer.
     *
     * @param messages at least 1
     * @return the options
     * @throws IllegalArgumentException for fewer than 1 message
     */
    public static SocketOptions holding(int messages) {
        if (messages < 1) {
            throw new IllegalArgumentException("a socket must hold at least 1 message, got " + messages);
        }
        // A message is queued while rmem_alloc <= sk_rcvbuf, so sk_rcvbuf = (n - 1) * truesize holds n. At least 1:
        // a value of 0 would mean no setsockopt (rmem_default), where a tiny one gives SOCK_MIN_RCVBUF.
        long rcvbuf = (long) (messages - 1) * Skb.truesize(0);
        return new SocketOptions(
                (int) Math.max(1, Math.min(Integer.MAX_VALUE, (rcvbuf + 1) / 2)), RcvbufOption.SO_RCVBUFFORCE, false);
    }

    /**
     * @param on NETLINK_NO_ENOBUFS set
     * @return these options with NETLINK_NO_ENOBUFS set to {@code on}
     */
    public SocketOptions withNoEnobufs(boolean on) {
        return new SocketOptions(rcvbuf, option, on);
    }

    /**
     * The socket's {@code sk_rcvbuf}, bytes, as sock_setsockopt() sets it (net/core/sock.c, v6.6):
     * SO_RCVBUF passes {@code min(val, sysctl_rmem_max)} and SO_RCVBUFFORCE {@code max(val, 0)} to
     * __sock_set_rcvbuf(), which caps it at INT_MAX / 2 and stores {@code max(val * 2, SOCK_MIN_RCVBUF)}.
     *
     * @param sysctls net.core.rmem_default and rmem_max
     * @return sk_rcvbuf, bytes
     */
    public int skRcvbuf(NetlinkSettings sysctls) {
        if (rcvbuf == 0) {
            return sysctls.rmemDefault();
        }
        int val = option == RcvbufOption.SO_RCVBUF ? Math.min(rcvbuf, sysctls.rmemMax()) : rcvbuf;
        val = Math.min(val, Integer.MAX_VALUE / 2);
        return Math.max(val * 2, SOCK_MIN_RCVBUF);
    }
}
