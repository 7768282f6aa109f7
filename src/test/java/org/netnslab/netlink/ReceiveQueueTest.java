package org.netnslab.netlink;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.stream.testkit.TestSubscriber;
import akka.stream.testkit.javadsl.TestSink;
import java.time.Duration;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.netlink.ReceiveQueue.Delivery;
import org.scalatestplus.junit.JUnitSuite;

/** The receive-queue rules of net/netlink/af_netlink.c and the buffer sizes of net/core/sock.c (v6.6). */
public class ReceiveQueueTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    /** The kernel's truesize of the small messages both listeners get (see {@link #truesizeIsTheSkbsHeadPlusTheSkBuff}). */
    private static final int T = 896;

    /** An item: a message number, or -drops for the ENOBUFS. */
    private static ReceiveQueue<Long> queue(SocketOptions o, NetlinkSettings s) {
        ReceiveQueue<Long> q = new ReceiveQueue<>(o, drops -> -drops);
        q.bind(s);
        return q;
    }

    private static TestSubscriber.Probe<Long> reader(ReceiveQueue<Long> q) {
        return q.source().runWith(TestSink.probe(testKit.system().classicSystem()), testKit.system());
    }

    /**
     * __alloc_skb / kmalloc_reserve (net/core/skbuff.c v6.6), x86_64: SKB_HEAD_ALIGN(len) =
     * SKB_DATA_ALIGN(len) + 320; up to 640 from skb_small_head_cache (640), else the kmalloc size
     * class; truesize adds SKB_DATA_ALIGN(sizeof(struct sk_buff)) = 256.
     */
    @Test
    public void truesizeIsTheSkbsHeadPlusTheSkBuff() {
        assertEquals(640 + 256, Skb.truesize(0));
        assertEquals(640 + 256, Skb.truesize(320)); // 320 + 320 = 640: still a small head
        assertEquals(1024 + 256, Skb.truesize(321)); // 384 + 320 = 704: kmalloc-1024
        assertEquals(4096 + 256, Skb.truesize(2048)); // 2048 + 320 = 2368: kmalloc-4096
    }

    /** sock_setsockopt SO_RCVBUF / SO_RCVBUFFORCE and __sock_set_rcvbuf (net/core/sock.c v6.6). */
    @Test
    public void rcvbufIsCappedAtRmemMaxThenDoubledAndForceIsNotCapped() {
        NetlinkSettings k = NetlinkSettings.KERNEL;
        assertEquals("no setsockopt: rmem_default", 212_992, SocketOptions.DEFAULT.skRcvbuf(k));
        assertEquals(2 * 100_000, new SocketOptions(100_000, RcvbufOption.SO_RCVBUF, false).skRcvbuf(k));
        assertEquals(
                "min(val, rmem_max) * 2",
                2 * 212_992,
                new SocketOptions(8_000_000, RcvbufOption.SO_RCVBUF, false).skRcvbuf(k));
        assertEquals(
                "not capped", 16_000_000, new SocketOptions(8_000_000, RcvbufOption.SO_RCVBUFFORCE, false).skRcvbuf(k));
        assertEquals("SOCK_MIN_RCVBUF", 4608, new SocketOptions(1, RcvbufOption.SO_RCVBUF, false).skRcvbuf(k));
        assertEquals(
                "val capped at INT_MAX / 2 before doubling",
                Integer.MAX_VALUE - 1,
                new SocketOptions(Integer.MAX_VALUE, RcvbufOption.SO_RCVBUFFORCE, false).skRcvbuf(k));
    }

    /**
     * netlink_broadcast_deliver (af_netlink.c v6.6) checks rmem_alloc <= sk_rcvbuf before adding: with
     * rmem_default 212992 and 896-byte messages, 237 * 896 = 212352 <= 212992 admits a 238th, which
     * overshoots to 213248; the 239th is dropped.
     */
    @Test
    public void theLastMessageMayOvershootTheBuffer() {
        ReceiveQueue<Long> q = queue(SocketOptions.DEFAULT, NetlinkSettings.KERNEL);
        for (long i = 1; i <= 238; i++) {
            assertEquals(Delivery.QUEUED, q.deliver(i, T));
        }
        assertEquals(238L * T, q.counters().rmemAlloc());
        assertTrue(q.counters().rmemAlloc() > 212_992);
        assertEquals(Delivery.DROPPED, q.deliver(239L, T));
        assertTrue(q.counters().congested());
    }

    /**
     * netlink_overrun sets NETLINK_S_CONGESTED and sk_err once; while congested every broadcast is
     * dropped even when there is room; the error comes first on the next recvmsg and consumes nothing
     * (__skb_try_recv_datagram, sock_error); netlink_rcv_wake clears the bit only on an empty queue.
     */
    @Test
    public void congestedDropsEverythingUntilTheReaderHasEmptiedTheQueue() {
        ReceiveQueue<Long> q = queue(new SocketOptions(1, RcvbufOption.SO_RCVBUF, false), NetlinkSettings.KERNEL);
        TestSubscriber.Probe<Long> r = reader(q);
        for (long i = 1; i <= 7; i++) {
            q.deliver(i, T); // 6 fit in 4608 (0..4480 before each), the 7th overruns
        }
        r.request(1);
        assertEquals(Long.valueOf(-1), r.expectNext());
        assertEquals("the error consumed no message", 6, q.counters().queued());
        r.request(1);
        assertEquals(Long.valueOf(1), r.expectNext());
        assertEquals("room again, but still congested", Delivery.DROPPED, q.deliver(8L, T));
        r.request(5);
        for (long i = 2; i <= 6; i++) {
            assertEquals(Long.valueOf(i), r.expectNext());
        }
        assertFalse(q.counters().congested());
        assertEquals(Delivery.QUEUED, q.deliver(9L, T));
        r.request(1);
        assertEquals("no second error for the drop after the first was read", Long.valueOf(9), r.expectNext());
        assertEquals(2, q.counters().drops());
        assertEquals(2, q.counters().dropsReported());
        q.close();
        r.expectComplete();
    }

    /** netlink_overrun with NETLINK_F_RECV_NO_ENOBUFS: sk_drops only, no congestion, no error. */
    @Test
    public void noEnobufsDropsWithoutErrorOrCongestion() {
        ReceiveQueue<Long> q = queue(new SocketOptions(1, RcvbufOption.SO_RCVBUF, true), NetlinkSettings.KERNEL);
        TestSubscriber.Probe<Long> r = reader(q);
        for (long i = 1; i <= 8; i++) {
            q.deliver(i, T);
        }
        assertFalse(q.counters().congested());
        r.request(1);
        assertEquals(Long.valueOf(1), r.expectNext());
        assertEquals("accepted again as soon as there is room", Delivery.QUEUED, q.deliver(9L, T));
        r.request(20);
        for (long i : new long[] {2, 3, 4, 5, 6, 9}) {
            assertEquals(Long.valueOf(i), r.expectNext());
        }
        r.expectNoMessage(Duration.ofMillis(50));
        ReceiveQueue.Counters c = q.counters();
        assertEquals(2, c.drops());
        assertEquals(2, c.dropsOptedOut());
        assertEquals(0, c.dropsUnreported());
    }

    /** Section 5: the broken variant drops without error or congestion, and the drops stay unreported. */
    @Test
    public void theFaultSwitchDropsSilently() {
        ReceiveQueue<Long> q = queue(
                new SocketOptions(1, RcvbufOption.SO_RCVBUF, false),
                new NetlinkSettings(212_992, 212_992, NetlinkFault.DROP_WITHOUT_ERROR));
        TestSubscriber.Probe<Long> r = reader(q);
        for (long i = 1; i <= 10; i++) {
            q.deliver(i, T);
        }
        q.close();
        r.request(20);
        for (long i = 1; i <= 6; i++) {
            assertEquals(Long.valueOf(i), r.expectNext());
        }
        r.expectComplete();
        assertEquals(4, q.counters().dropsUnreported());
    }

    /** SocketOptions.holding, the message-count simplification, never goes below SOCK_MIN_RCVBUF. */
    @Test
    public void holdingSizesForSmallMessages() {
        ReceiveQueue<Long> q = queue(SocketOptions.holding(100), NetlinkSettings.KERNEL);
        long queued = 0;
        while (q.deliver(queued + 1, T) == Delivery.QUEUED) {
            queued++;
        }
        assertEquals(100, queued);
        assertEquals(4608, SocketOptions.holding(2).skRcvbuf(NetlinkSettings.KERNEL));
    }
}
