package org.netnslab.proc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.stream.javadsl.Sink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.proc.ProcListenerTable.Accounting;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Listener accounting of the proc connector in its two eras, end to end through {@link ProcConnector}:
 * cn_proc_mcast_ctl (drivers/connector/cn_proc.c) before v6.6 and in v6.6, and v6.6's cn_release
 * (drivers/connector/connector.c).
 */
public class ProcAccountingTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final Credentials ROOT = Credentials.root(UserNamespace.INIT, 0);
    private static final int EXITS = 10;

    private static ProcConnector.Joined join(ActorRef<ProcConnector.Command> pc) {
        TestProbe<ProcConnector.JoinReply> p = testKit.createTestProbe();
        pc.tell(new ProcConnector.Join(true, 64, p.getRef()));
        return (ProcConnector.Joined) p.receiveMessage();
    }

    private static void send(ActorRef<ProcConnector.Command> pc, long socket, int operation, Integer mask) {
        TestProbe<Done> ack = testKit.createTestProbe();
        pc.tell(new ProcConnector.Subscribe(
                socket, ROOT, true, ProcSubscription.encode(operation, mask), ack.getRef()));
        ack.expectMessage(Done.getInstance());
    }

    private static ProcConnector.Stats stats(ActorRef<ProcConnector.Command> pc) {
        TestProbe<ProcConnector.Stats> p = testKit.createTestProbe();
        pc.tell(new ProcConnector.GetStats(p.getRef()));
        return p.receiveMessage();
    }

    private static void publishExits(ActorRef<ProcConnector.Command> pc) {
        for (int i = 0; i < EXITS; i++) {
            pc.tell(new ProcConnector.Publish(new ProcEvent(ProcEvents.EXIT, 0, 0, 0, 100 + i, 100 + i, 1, 0, 0)));
        }
    }

    /** EXIT events a socket received (acks left out). */
    private static long exits(CompletionStage<List<ProcReceived>> got) throws Exception {
        return got.toCompletableFuture().get(10, TimeUnit.SECONDS).stream()
                .filter(r -> r instanceof ProcReceived.Event e && e.event().what() == ProcEvents.EXIT)
                .count();
    }

    /** S1 and S2 LISTEN (legacy 4-byte form), S2 sends IGNORE, 10 EXIT events follow; returns [S1, S2] received. */
    private static long[] listenListenIgnore(Accounting accounting) throws Exception {
        ActorRef<ProcConnector.Command> pc =
                testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, accounting, 1));
        ProcConnector.Joined s1 = join(pc);
        ProcConnector.Joined s2 = join(pc);
        send(pc, s1.socket(), ProcEvents.MCAST_LISTEN, null);
        send(pc, s2.socket(), ProcEvents.MCAST_LISTEN, null);
        send(pc, s2.socket(), ProcEvents.MCAST_IGNORE, null);
        CompletionStage<List<ProcReceived>> got1 = s1.events().runWith(Sink.seq(), testKit.system());
        CompletionStage<List<ProcReceived>> got2 = s2.events().runWith(Sink.seq(), testKit.system());
        publishExits(pc);
        pc.tell(new ProcConnector.Close(s1.socket()));
        pc.tell(new ProcConnector.Close(s2.socket()));
        return new long[] {exits(got1), exits(got2)};
    }

    /**
     * Before v6.6 cn_proc_mcast_ctl only moves proc_event_num_listeners (atomic_inc / atomic_dec) and
     * keeps no per-socket state; proc_exit_connector -> cn_netlink_send reaches every socket bound to
     * CN_IDX_PROC. So after S2's IGNORE the count is 1, events are generated, and S2 gets all 10 too.
     */
    @Test
    public void beforeV66IgnoreOnlyLowersTheCountAndTheSocketKeepsReceiving() throws Exception {
        long[] got = listenListenIgnore(Accounting.GLOBAL_COUNT);
        assertEquals("S1", EXITS, got[0]);
        assertEquals("S2, which sent IGNORE", EXITS, got[1]);
    }

    /** v6.6 cn_proc_mcast_ctl: IGNORE sets the socket's event_type to PROC_EVENT_NONE; cn_filter drops for it. */
    @Test
    public void inV66IgnoreStopsThatSocketOnly() throws Exception {
        long[] got = listenListenIgnore(Accounting.PER_SOCKET);
        assertEquals("S1", EXITS, got[0]);
        assertEquals("S2, which sent IGNORE", 0, got[1]);
    }

    /**
     * v6.6 cn_release (drivers/connector/connector.c) kfree()s sk_user_data and leaves
     * proc_event_num_listeners alone: after the only listener closes without IGNORE the count stays 1,
     * so every proc_*_connector still builds and broadcasts its event (generated 10) for nobody
     * (delivered 0 after the close).
     */
    @Test
    public void inV66ACloseWithoutIgnoreKeepsEventsGeneratedForNobody() throws Exception {
        ActorRef<ProcConnector.Command> pc =
                testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.PER_SOCKET, 1));
        ProcConnector.Joined s = join(pc);
        send(pc, s.socket(), ProcEvents.MCAST_LISTEN, ProcEvents.EXIT);
        CompletionStage<List<ProcReceived>> got = s.events().runWith(Sink.seq(), testKit.system());
        pc.tell(new ProcConnector.Close(s.socket()));
        assertEquals(0, exits(got)); // closed: the stream completed
        long deliveredBefore = stats(pc).delivered();
        publishExits(pc);
        ProcConnector.Stats after = stats(pc);
        assertEquals("cn_release does not lower the count", 1, after.listenerCount());
        assertEquals("events built and broadcast for nobody", EXITS, after.generated());
        assertEquals(deliveredBefore, after.delivered());
    }

    /** Before v6.6 cn_proc_mcast_ctl returns at once unless msg->len == sizeof(enum proc_cn_mcast_op): 4 bytes. */
    @Test
    public void beforeV66An8ByteSubscriptionIsIgnored() {
        ActorRef<ProcConnector.Command> pc =
                testKit.spawn(ProcConnector.create(ProcConnector.Filter.PER_LISTENER, Accounting.GLOBAL_COUNT, 1));
        ProcConnector.Joined s = join(pc);
        TestProbe<Done> ack = testKit.createTestProbe();
        pc.tell(new ProcConnector.Subscribe(
                s.socket(),
                ROOT,
                true,
                ProcSubscription.encode(ProcEvents.MCAST_LISTEN, ProcEvents.EXIT),
                ack.getRef()));
        ack.expectNoMessage(Duration.ofMillis(100));
        ProcConnector.Stats st = stats(pc);
        assertEquals(1, st.ignoredSubscriptions());
        assertEquals(0, st.listenerCount());
        assertTrue(ProcSubscription.parse(ProcSubscription.encode(1, ProcEvents.EXIT), Accounting.PER_SOCKET)
                .isPresent());
    }
}
