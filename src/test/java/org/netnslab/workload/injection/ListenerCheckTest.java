package org.netnslab.workload.injection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.stream.testkit.TestSubscriber;
import akka.stream.testkit.javadsl.TestSink;
import java.nio.charset.StandardCharsets;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netlink.NetlinkFault;
import org.netnslab.netlink.NetlinkSettings;
import org.netnslab.netlink.RcvbufOption;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.run.PhaseClock;
import org.netnslab.uevent.Enobufs;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.UeventSocket;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A uevent listener's loss accounting against the kernel's overrun rules (net/netlink/af_netlink.c
 * v6.6: netlink_broadcast_deliver, netlink_overrun, netlink_rcv_wake; net/core/datagram.c
 * __skb_try_recv_datagram for the error first). Listeners here have SO_RCVBUF 1: sk_rcvbuf =
 * SOCK_MIN_RCVBUF 4608 (net/core/sock.c), 896-byte uevents (small skb head), so each holds Q = 6.
 */
public class ListenerCheckTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final int Q = 6;
    private static final byte[] PAYLOAD =
            "change@/devices/virtual/net/lo\0ACTION=change\0".getBytes(StandardCharsets.US_ASCII);
    private static final Credentials ROOT = Credentials.root(UserNamespace.INIT, 0);

    private record Bound(ReceiveQueue<Received> socket, TestSubscriber.Probe<Received> reader, ListenerCheck check) {
        /** Reads {@code n} items into the check. */
        void recv(int n) {
            reader.request(n);
            for (int i = 0; i < n; i++) {
                check.onReceive(reader.expectNext());
            }
        }
    }

    private static Bound listen(UeventSocket s, boolean noEnobufs, NetlinkSettings sysctls) {
        ReceiveQueue<Received> q =
                new ReceiveQueue<>(new SocketOptions(1, RcvbufOption.SO_RCVBUF, noEnobufs), Enobufs::new);
        q.bind(sysctls);
        s.attach(q);
        ListenerCheck check = new ListenerCheck(0, s.netnsId(), true, new PhaseClock(), new StripedRecorder());
        check.bound(q);
        return new Bound(
                q, q.source().runWith(TestSink.probe(testKit.system().classicSystem()), testKit.system()), check);
    }

    private static void inject(UeventSocket s, int n) {
        for (int i = 0; i < n; i++) {
            assertTrue(s.inject(ROOT, PAYLOAD, 0) instanceof InjectResult.Sent);
        }
    }

    /**
     * The small input: paused; 10 injections (Q = 6 queued); one recv: ENOBUFS; 3 more (dropped,
     * still congested); drain: the Q first. Drops 13 - Q = 7, all covered by the one ENOBUFS received:
     * lost_without_enobufs 0; enobufs 1 as received.
     */
    @Test
    public void oneEnobufsCoversTheWholeCongestionEpisode() {
        UeventSocket s = new UeventSocket(1, UserNamespace.INIT, new SeqnumCounter());
        Bound l = listen(s, false, NetlinkSettings.KERNEL);
        inject(s, 10);
        l.recv(1);
        inject(s, 3);
        l.recv(Q);
        s.close();
        l.reader().request(1);
        l.reader().expectComplete();
        assertEquals(1, l.check().enobufs());
        assertEquals(Q, l.check().received());
        assertEquals(13 - Q, l.socket().counters().drops());
        assertEquals(0, l.check().lostWithoutEnobufs(13));
    }

    /** Section 5: netlink.fault = drop-without-error loses the same messages with no ENOBUFS: counted. */
    @Test
    public void dropsWithoutErrorAreLostWithoutEnobufs() {
        UeventSocket s = new UeventSocket(1, UserNamespace.INIT, new SeqnumCounter());
        Bound l = listen(s, false, new NetlinkSettings(212_992, 212_992, NetlinkFault.DROP_WITHOUT_ERROR));
        inject(s, 13);
        l.recv(Q);
        s.close();
        l.reader().request(1);
        l.reader().expectComplete();
        assertEquals(0, l.check().enobufs());
        assertEquals(13 - Q, l.check().lostWithoutEnobufs(13));
    }

    /**
     * NETLINK_NO_ENOBUFS in a non-initial netns under the global SEQNUM counter: no ENOBUFS, the drops
     * show as gaps (gaps >= drops), and the gaps left by another netns's uevents are not losses.
     */
    @Test
    public void noEnobufsLossShowsAsGapsAndOtherNetnsGapsAreNotLosses() {
        SeqnumCounter global = new SeqnumCounter();
        UeventSocket mine = new UeventSocket(2, UserNamespace.INIT.createChild(1, 1000), global);
        UeventSocket other = new UeventSocket(3, UserNamespace.INIT, global);
        Bound l = listen(mine, true, NetlinkSettings.KERNEL);
        for (int i = 0; i < 10; i++) { // interleaved: every other SEQNUM is the other netns's
            inject(mine, 1);
            inject(other, 1);
        }
        l.recv(Q); // 1, 3, ..., 11
        inject(mine, 1); // SEQNUM 21, queued again: no congestion under NO_ENOBUFS
        l.recv(1);
        mine.close();
        l.reader().request(1);
        l.reader().expectComplete();
        long drops = l.socket().counters().drops();
        assertEquals(10 - Q, drops);
        assertEquals(0, l.check().enobufs());
        assertTrue("gaps " + l.check().gaps() + " >= drops " + drops, l.check().gaps() >= drops);
        assertEquals(
                "5 gaps from the other netns between 1..11, then 12..20",
                5 + 9,
                l.check().gaps());
        assertEquals(0, l.check().lostWithoutEnobufs(11));
    }
}
