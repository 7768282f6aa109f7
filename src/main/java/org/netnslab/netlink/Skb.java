package org.netnslab.netlink;

/**
 * What one queued netlink message costs its receiver: the skb's {@code truesize}, in bytes, as
 * {@code __alloc_skb()} sets it (net/core/skbuff.c, v6.6): the head is {@code SKB_HEAD_ALIGN(len)} =
 * {@code SKB_DATA_ALIGN(len) + SKB_DATA_ALIGN(sizeof(struct skb_shared_info))}, taken from
 * {@code skb_small_head_cache} when it fits there (kmalloc_reserve) and from kmalloc otherwise
 * (rounded up to its size class, {@code kmalloc_size_roundup}); {@code truesize} is that head plus
 * {@code SKB_DATA_ALIGN(sizeof(struct sk_buff))} (SKB_TRUESIZE over SKB_WITH_OVERHEAD of the head).
 * A broadcast's clone for each listener (do_one_broadcast: skb_clone or skb_get) has the same truesize.
 *
 * <p>Sizes are those of x86_64 with 64-byte cache lines and a distribution config: sizeof(struct
 * sk_buff) 232 (256 aligned), sizeof(struct skb_shared_info) 320, MAX_TCP_HEADER 320, so the small
 * head cache holds 640-byte heads. Every uevent and proc connector message the model sends fits a
 * small head: 896 bytes each.
 */
public final class Skb {
    private Skb() {}

    /** SMP_CACHE_BYTES: SKB_DATA_ALIGN's alignment. */
    public static final int CACHE_LINE = 64;
    /** SKB_DATA_ALIGN(sizeof(struct sk_buff)). */
    public static final int SK_BUFF = 256;
    /** SKB_DATA_ALIGN(sizeof(struct skb_shared_info)). */
    public static final int SHARED_INFO = 320;
    /** SKB_SMALL_HEAD_CACHE_SIZE: SKB_HEAD_ALIGN(MAX_TCP_HEADER = 320), not a power of two. */
    public static final int SMALL_HEAD = 640;
    /** NLMSG_HDRLEN: the netlink message header. */
    public static final int NLMSG_HDRLEN = 16;

    /**
     * @param len the length passed to alloc_skb / __alloc_skb, bytes, at least 0
     * @return the skb's truesize, bytes
     * @throws IllegalArgumentException for a negative length
     */
    public static int truesize(int len) {
        if (len < 0) {
            throw new IllegalArgumentException("skb length must be >= 0, got " + len);
        }
        int head = align(len) + SHARED_INFO; // SKB_HEAD_ALIGN
        int obj = head <= SMALL_HEAD ? SMALL_HEAD : Integer.highestOneBit(head - 1) << 1; // kmalloc size class
        return obj + SK_BUFF;
    }

    /**
     * nlmsg_total_size(payload): NLMSG_ALIGN(NLMSG_HDRLEN + payload), what nlmsg_new allocates.
     *
     * @param payload the netlink payload, bytes
     * @return the allocation length, bytes
     */
    public static int nlmsgTotalSize(int payload) {
        return (NLMSG_HDRLEN + payload + 3) & ~3;
    }

    private static int align(int len) {
        return (len + CACHE_LINE - 1) & ~(CACHE_LINE - 1);
    }
}
