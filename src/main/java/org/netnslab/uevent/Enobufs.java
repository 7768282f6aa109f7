package org.netnslab.uevent;

/**
 * The ENOBUFS a listener's next recvmsg returns, ahead of queued messages and consuming none, after
 * its socket overran (netlink_overrun, net/netlink/af_netlink.c v6.6): once per congestion episode.
 *
 * @param dropped messages its congestion episode had dropped when the error was read (the kernel
 *     does not report a number; later drops of the same episode are not in it)
 */
public record Enobufs(long dropped) implements Received {
    /** @return {@link Errno#ENOBUFS} */
    public Errno errno() {
        return Errno.ENOBUFS;
    }
}
