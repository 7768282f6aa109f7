package org.netnslab.netlink;

/**
 * A netlink reader's loss accounting: the ENOBUFS errors its recvmsg returned (netlink_overrun,
 * net/netlink/af_netlink.c, once per congestion episode), the drops they carried, and its socket, whose
 * counters settle lost_without_enobufs ({@link ReceiveQueue.Counters#lostWithoutEnobufs}). Confined to the
 * reader's stream but for {@link #bound}: read it once the stream has completed.
 */
public final class ReaderLosses {
    private final String unbound;
    private long enobufs;
    private long dropped;
    private volatile ReceiveQueue<?> socket;

    /** @param unbound the message when {@link #lostWithoutEnobufs} is asked of a reader never bound */
    public ReaderLosses(String unbound) {
        this.unbound = unbound;
    }

    /** @param dropped the drops the ENOBUFS received carried (its congestion episode's so far) */
    public void onEnobufs(long dropped) {
        enobufs++;
        this.dropped += dropped;
    }

    /** @param socket the reader's socket, once bound */
    public void bound(ReceiveQueue<?> socket) {
        this.socket = socket;
    }

    /** @return ENOBUFS notifications received */
    public long enobufs() {
        return enobufs;
    }

    /** @return the drops the ENOBUFS notifications carried when they were received (episodes so far) */
    public long dropped() {
        return dropped;
    }

    /**
     * @param expected messages sent to the socket that its reader wanted
     * @param received those it got
     * @return those neither received, nor lost in a congestion episode whose ENOBUFS it received, nor lost
     *     under NETLINK_NO_ENOBUFS; at least 0
     * @throws IllegalStateException when {@link #bound} was never called
     */
    public long lostWithoutEnobufs(long expected, long received) {
        if (socket == null) {
            throw new IllegalStateException(unbound);
        }
        return socket.counters().lostWithoutEnobufs(expected, received);
    }
}
