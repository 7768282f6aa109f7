package org.netnslab.proc;

import static org.junit.Assert.assertEquals;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.stream.javadsl.Sink;
import akka.stream.testkit.TestSubscriber;
import akka.stream.testkit.javadsl.TestSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.netlink.NetlinkFault;
import org.netnslab.netlink.NetlinkSettings;
import org.netnslab.netlink.RcvbufOption;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.proc.ProcListenerTable.Accounting;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

public class ProcConnectorTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final Credentials ROOT = Credentials.root(UserNamespace.INIT, 0);

    private static ProcEvent ev(int what, int cpu, int exitCode) {
        return new ProcEvent(what, cpu, 0, 0, 100, 100, 0, exitCode, 0);
    }

    private static ProcConnector.Joined join(ActorRef<ProcConnector.Command> pc, int capacity) {
        return join(pc, SocketOptions.holding(capacity));
    }

    private static ProcConnector.Joined join(ActorRef<ProcConnector.Command> pc, SocketOptions options) {
        TestProbe<ProcConnector.JoinReply> p = testKit.createTestProbe();
        pc.tell(new ProcConnector.Join(true, options, p.getRef()));
        return (ProcConnector.Joined) p.receiveMessage();
    }

    private static void listen(ActorRef<ProcConnector.Command> pc, long socket, Integer mask) {
        TestProbe<Done> ack = testKit.createTestProbe();
        pc.tell(new ProcConnector.Subscribe(
                socket, ROOT, true, ProcSubscription.encode(ProcEvents.MCAST_LISTEN, mask), ack.getRef()));
        ack.expectMessage(Done.getInstance());
    }

    private static ProcConnector.Stats stats(ActorRef<ProcConnector.Command> pc) {
        TestProbe<ProcConnector.Stats> p = testKit.createTestProbe();
        pc.tell(new ProcConnector.GetStats(p.getRef()));
        return p.receiveMessage();
    }

    private static List<ProcEvent> events(CompletionStage<List<ProcReceived>> items) throws Exception {
        List<ProcEvent> out = new ArrayList<>();
        for (ProcReceived r : items.toCompletableFuture().get(10, TimeUnit.SECONDS)) {
            ProcEvent e = ((ProcReceived.Event) r).event();
            if (e.what() != ProcEvents.NONE) { // acks are checked on their own
                out.add(e);
            }
        }
        return out;
    }

    /** Events received (acks left out) plus the drops ENOBUFS reported: every event one way or the other. */
    private static long receivedOrReported(List<ProcReceived> items) {
        long n = 0;
        for (ProcReceived r : items) {
            if (r instanceof ProcReceived.Enobufs e) {
                n += e.dropped();
            } else if (((ProcReceived.Event) r).event().what() != ProcEvents.NONE) {
                n++;
            }
        }
        return n;
    }

    /** Publishes fork, exec, a clean exit, exit(1) and a SIGKILL death, then closes the listed sockets. */
    private static void publishMixAndClose(ActorRef<ProcConnector.Command> pc, List<Long> sockets) {
        pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
        pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXEC, 0, 0)));
        pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 0)));
        pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 1 << 8)));
        pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 9)));
        sockets.forEach(s -> pc.tell(new ProcConnector.Close(s)));
    }

    @Test
    public void perListenerFilteringGivesEachListenerWhatItAskedFor() throws Exception {
        ActorRef<ProcConnector.Command> pc =
                testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 2));
        int[] masks = {ProcEvents.ALL, ProcEvents.FORK | ProcEvents.EXIT, ProcEvents.EXIT, ProcEvents.NONZERO_EXIT};
        List<CompletionStage<List<ProcReceived>>> got = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        for (int mask : masks) {
            ProcConnector.Joined j = join(pc, 64);
            listen(pc, j.socket(), mask);
            got.add(j.events().runWith(Sink.seq(), testKit.system()));
            ids.add(j.socket());
        }
        publishMixAndClose(pc, ids);
        assertEquals(5, events(got.get(0)).size());
        assertEquals(4, events(got.get(1)).size()); // fork + 3 exits
        assertEquals(3, events(got.get(2)).size());
        List<ProcEvent> nonzero = events(got.get(3));
        assertEquals(
                "exactly the non-zero exits, signals included",
                List.of(1 << 8, 9),
                nonzero.stream().map(ProcEvent::exitCode).toList());
        ProcConnector.Stats s = stats(pc);
        assertEquals(5, s.generated());
        assertEquals("events only: the ack the listener of everything got is not one", 5 + 4 + 3 + 2, s.delivered());
        assertEquals("every event to every socket is delivered or filtered", 4 * 5 - 14, s.filtered());
    }

    /**
     * A socket closed with an ENOBUFS pending and events queued: its reader still gets the error first
     * (__skb_try_recv_datagram returns sock_error() before any data, net/core/datagram.c v6.6), then the
     * queued events, then the end of the stream.
     */
    @Test
    public void aPendingEnobufsAtCloseComesFirstThenTheQueuedEvents() throws Exception {
        ActorRef<ProcConnector.Command> pc =
                testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 1));
        ProcConnector.Joined slow = join(pc, new SocketOptions(1, RcvbufOption.SO_RCVBUF, false));
        listen(pc, slow.socket(), ProcEvents.FORK);
        TestSubscriber.Probe<ProcReceived> probe =
                slow.events().runWith(TestSink.probe(testKit.system().classicSystem()), testKit.system());
        for (int i = 0; i < 50; i++) {
            pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
        }
        pc.tell(new ProcConnector.Close(slow.socket()));
        stats(pc); // the 50 events and the close are handled before the reader asks
        probe.request(100);
        assertEquals(new ProcReceived.Enobufs(50 - SMALL_HOLDS), probe.expectNext());
        for (int i = 1; i <= SMALL_HOLDS; i++) {
            assertEquals(
                    (long) i, ((ProcReceived.Event) probe.expectNext()).event().seq());
        }
        probe.expectComplete();
    }

    @Test
    public void theAckGoesThroughTheSocketsOwnFilter() throws Exception {
        ActorRef<ProcConnector.Command> pc =
                testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 1));
        ProcConnector.Joined everything = join(pc, 8);
        ProcConnector.Joined exits = join(pc, 8);
        listen(pc, everything.socket(), null);
        listen(pc, exits.socket(), ProcEvents.EXIT);
        CompletionStage<List<ProcReceived>> a = everything.events().runWith(Sink.seq(), testKit.system());
        CompletionStage<List<ProcReceived>> b = exits.events().runWith(Sink.seq(), testKit.system());
        pc.tell(new ProcConnector.Close(everything.socket()));
        pc.tell(new ProcConnector.Close(exits.socket()));
        List<ProcReceived> gotA = a.toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals(1, gotA.size());
        assertEquals(ProcEvents.NONE, ((ProcReceived.Event) gotA.get(0)).event().what());
        assertEquals(
                "a masked listener does not get the ack",
                List.of(),
                b.toCompletableFuture().get(10, TimeUnit.SECONDS));
    }

    @Test
    public void withoutFilteringEveryListenerGetsEverything() throws Exception {
        ActorRef<ProcConnector.Command> pc =
                testKit.spawn(ProcConnector.create(ProcConnector.Filter.NONE, Accounting.PER_SOCKET, 1));
        ProcConnector.Joined j = join(pc, 64);
        listen(pc, j.socket(), ProcEvents.NONZERO_EXIT);
        CompletionStage<List<ProcReceived>> got = j.events().runWith(Sink.seq(), testKit.system());
        publishMixAndClose(pc, List.of(j.socket()));
        assertEquals(5, events(got).size());
        assertEquals(
                "the ack the listener got is not counted as an event",
                5,
                stats(pc).delivered());
    }

    @Test
    public void noEventIsGeneratedWithoutAListenerAndSeqIsPerCpu() throws Exception {
        ActorRef<ProcConnector.Command> pc =
                testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 2));
        ProcConnector.Joined j = join(pc, 64);
        pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
        assertEquals(0, stats(pc).generated());
        listen(pc, j.socket(), null);
        CompletionStage<List<ProcReceived>> got = j.events().runWith(Sink.seq(), testKit.system());
        pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
        pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 1, 0)));
        pc.tell(new ProcConnector.Publish(ev(ProcEvents.FORK, 0, 0)));
        pc.tell(new ProcConnector.Close(j.socket()));
        assertEquals(
                List.of(1L, 1L, 2L), events(got).stream().map(ProcEvent::seq).toList());
    }

    @Test
    public void accessRules() {
        ActorRef<ProcConnector.Command> pc =
                testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 1));
        TestProbe<ProcConnector.JoinReply> join = testKit.createTestProbe();
        pc.tell(new ProcConnector.Join(false, 8, join.getRef()));
        assertEquals(new ProcConnector.JoinFailed("the proc connector works only in init_net"), join.receiveMessage());
        ProcConnector.Joined j = join(pc, 8);
        TestProbe<Done> ack = testKit.createTestProbe();
        Credentials inChild = Credentials.root(UserNamespace.INIT.createChild(1, 1000), 1000);
        pc.tell(new ProcConnector.Subscribe(j.socket(), inChild, true, ProcSubscription.encode(1, null), ack.getRef()));
        pc.tell(new ProcConnector.Subscribe(j.socket(), ROOT, false, ProcSubscription.encode(1, null), ack.getRef()));
        pc.tell(new ProcConnector.Subscribe(j.socket(), ROOT, true, new byte[6], ack.getRef()));
        ack.expectNoMessage(Duration.ofMillis(100));
        ProcConnector.Stats s = stats(pc);
        assertEquals(3, s.ignoredSubscriptions());
        assertEquals(0, s.listenerCount());
    }

    /**
     * SO_RCVBUF 1: sk_rcvbuf = SOCK_MIN_RCVBUF = 4608 (sock_setsockopt / __sock_set_rcvbuf, net/core/sock.c
     * v6.6). An event is nlmsg_new(20 + 40) = 76 bytes (cn_netlink_send_mult, connector.c), a small skb
     * head: truesize 640 + 256 = 896. Queued while rmem_alloc <= 4608 before it (netlink_broadcast_deliver,
     * af_netlink.c v6.6): 0, 896, ..., 4480: it holds 6.
     */
    private static final int SMALL_HOLDS = 6;

    /**
     * The small input on a proc connector listener (net/netlink/af_netlink.c v6.6): paused; 10
     * EXIT events, of which it takes Q = 6; the first overrun sets NETLINK_S_CONGESTED and sk_err
     * (netlink_overrun); one recv returns ENOBUFS ahead of the data and consumes nothing; the queue is
     * not empty so netlink_rcv_wake leaves it congested and the 3 next events are dropped; the drain
     * yields events 1..6; drops = 13 - Q = 7, every one covered by the ENOBUFS received:
     * lost_without_enobufs 0. Once emptied it accepts again. A listener with room loses nothing.
     */
    @Test
    public void pausedListenerGetsEnobufsFirstAndStaysCongestedUntilEmptied() throws Exception {
        ActorRef<ProcConnector.Command> pc =
                testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 1));
        ProcConnector.Joined slow = join(pc, new SocketOptions(1, RcvbufOption.SO_RCVBUF, false));
        ProcConnector.Joined fast = join(pc, 1024);
        listen(pc, slow.socket(), ProcEvents.EXIT); // its mask keeps the ack (PROC_EVENT_NONE) out
        listen(pc, fast.socket(), ProcEvents.EXIT);
        TestSubscriber.Probe<ProcReceived> probe =
                slow.events().runWith(TestSink.probe(testKit.system().classicSystem()), testKit.system());
        CompletionStage<List<ProcReceived>> fastGot = fast.events().runWith(Sink.seq(), testKit.system());
        for (int i = 0; i < 10; i++) {
            pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 0)));
        }
        stats(pc); // the 10 are delivered or dropped
        probe.request(1);
        assertEquals(new ProcReceived.Enobufs(10 - SMALL_HOLDS), probe.expectNext());
        for (int i = 0; i < 3; i++) {
            pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 0)));
        }
        assertEquals(
                "the 3 later events dropped: never emptied",
                13 - SMALL_HOLDS,
                stats(pc).dropped());
        probe.request(100);
        for (int i = 1; i <= SMALL_HOLDS; i++) {
            assertEquals(
                    (long) i, ((ProcReceived.Event) probe.expectNext()).event().seq());
        }
        probe.expectNoMessage(Duration.ofMillis(50));
        ReceiveQueue.Counters c = slow.queue().counters();
        assertEquals(13 - SMALL_HOLDS, c.drops());
        assertEquals("every drop covered by the ENOBUFS received", 0, c.dropsUnreported());
        pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 0)));
        assertEquals(
                "emptied, it accepts again, with no second ENOBUFS",
                14L,
                ((ProcReceived.Event) probe.expectNext()).event().seq());
        pc.tell(new ProcConnector.Close(slow.socket()));
        pc.tell(new ProcConnector.Close(fast.socket()));
        probe.expectComplete();
        assertEquals("the other listener lost nothing", 14, events(fastGot).size());
    }

    /**
     * Section 5: with {@code netlink.fault = drop-without-error} an overrun neither sets ENOBUFS nor
     * congests the socket, so the same input loses events silently, and lost_without_enobufs counts them.
     */
    @Test
    public void aDropWithoutErrorIsCountedAsLostWithoutEnobufs() throws Exception {
        NetlinkSettings broken = new NetlinkSettings(212_992, 212_992, NetlinkFault.DROP_WITHOUT_ERROR);
        ActorRef<ProcConnector.Command> pc = testKit.spawn(
                ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 1, broken));
        ProcConnector.Joined slow = join(pc, new SocketOptions(1, RcvbufOption.SO_RCVBUF, false));
        listen(pc, slow.socket(), ProcEvents.EXIT);
        ConnectorMonitor m = new ConnectorMonitor(ProcEvents.EXIT, new SyscallCost(0), ns -> {});
        m.bound(slow.queue());
        TestSubscriber.Probe<ProcReceived> probe =
                slow.events().runWith(TestSink.probe(testKit.system().classicSystem()), testKit.system());
        for (int i = 0; i < 13; i++) {
            pc.tell(new ProcConnector.Publish(ev(ProcEvents.EXIT, 0, 0)));
        }
        pc.tell(new ProcConnector.Close(slow.socket()));
        stats(pc); // all 13 handled before the reader asks
        probe.request(100);
        for (int i = 0; i < SMALL_HOLDS; i++) {
            m.onReceive(probe.expectNext()); // no ENOBUFS: only events
        }
        probe.expectComplete();
        assertEquals(0, m.enobufs());
        assertEquals(13 - SMALL_HOLDS, m.lostWithoutEnobufs(13));
    }
}
