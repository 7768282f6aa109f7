package org.netnslab.netns;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.netnslab.netns.LifecycleFixtures.WAIT;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.japi.Pair;
import akka.pattern.StatusReply;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import akka.stream.testkit.TestSubscriber;
import akka.stream.testkit.javadsl.TestSink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.fault.FaultSwitch;
import org.netnslab.fault.ModelFault;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcEvents;
import org.netnslab.proc.ProcReceived;
import org.netnslab.proc.ProcSubscription;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.Uevent;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The fault switches ({@code netns-lab.model.faults}) and the supervision each failing actor gets:
 * the netns actor, the cleanup worker and the proc connector are resumed with their state exactly
 * kept; a failing listener is closed and drops its netns reference. Every test ends with the model
 * dismantled: no netns left, sock_inuse 0 at every net_free, each fault counted.
 */
public class FaultSwitchesTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final byte[] PAYLOAD =
            "change@/devices/virtual/net/lo\0ACTION=change\0".getBytes(StandardCharsets.US_ASCII);

    private static ActorRef<NamespaceSupervisor.Command> supervisor(String keys, LifecycleRecorder probe) {
        return testKit.spawn(NamespaceSupervisor.create(ModelSettings.withKeys(keys), StandardPernetOps.all(), probe));
    }

    private static NetnsHandle create(ActorRef<NamespaceSupervisor.Command> sup, UserNamespace owner) {
        TestProbe<CreateResult> p = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.CreateNetns(owner, p.getRef()));
        return (NetnsHandle) p.receiveMessage(WAIT);
    }

    private static TestSubscriber.Probe<Received> listener(NetnsHandle h) throws Exception {
        Pair<CompletionStage<Done>, TestSubscriber.Probe<Received>> p = h.uevents(64)
                .toMat(TestSink.probe(testKit.system().classicSystem()), Keep.both())
                .run(testKit.system());
        p.first().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return p.second();
    }

    private static InjectResult inject(NetnsHandle h) {
        TestProbe<InjectResult> acks = testKit.createTestProbe();
        h.injectRoute().inject(Credentials.root(h.owner(), h.owner().ownerKuid()), PAYLOAD, 0, acks.getRef());
        return acks.receiveMessage(WAIT);
    }

    private static long nextSeqnum(TestSubscriber.Probe<Received> l) {
        l.request(1);
        return ((Uevent) l.expectNext()).seqnum();
    }

    private static void release(ActorRef<NamespaceSupervisor.Command> sup, NetnsHandle h) {
        TestProbe<Done> freed = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.ReleaseNetns(h.id(), freed.getRef()));
        freed.expectMessage(WAIT, Done.getInstance());
    }

    /** Nothing left: every netns freed, sock_inuse 0 at each net_free. */
    private static void assertDismantled(
            ActorRef<NamespaceSupervisor.Command> sup, LifecycleRecorder probe, long created) {
        LifecycleFixtures.awaitAllFreed(testKit, sup);
        assertEquals("leaked", 0, LifecycleFixtures.countLive(testKit, sup));
        assertEquals("each netns freed exactly once", created, probe.freed());
        assertEquals("sock_inuse_sum", 0, probe.sockInuseSum());
    }

    @Test
    public void aNetnsActorFaultIsResumedItsSeqnumContinuesWithoutGapOrDuplicateAndOtherNetnsGoOn() throws Exception {
        LifecycleRecorder probe = new LifecycleRecorder();
        // per-netns SEQNUM and lock: userns-owned netns handle their own injections (eligible messages)
        ActorRef<NamespaceSupervisor.Command> sup = supervisor(
                "uevent.serialization = per-netns-owner,"
                        + " uevent.seqnum-scope = per-netns, sock-inuse.free = owner-exit, faults.netns-actor = 3",
                probe);
        NetnsHandle a = create(sup, UserNamespace.INIT.createChild(1, 1000));
        NetnsHandle b = create(sup, UserNamespace.INIT.createChild(2, 2000));
        TestSubscriber.Probe<Received> la = listener(a);
        TestSubscriber.Probe<Received> lb = listener(b);
        TestProbe<Long> socket = testKit.createTestProbe();
        a.actor().tell(new NetNamespace.OpenSocket(socket.getRef()));
        long sock = socket.receiveMessage(WAIT);

        assertEquals(new InjectResult.Sent(1), inject(a)); // eligible message 1
        assertEquals(new InjectResult.Sent(2), inject(a)); // 2
        assertEquals("the 3rd faults before any SEQNUM is taken", new InjectResult.Failed(Errno.EAGAIN, -1), inject(a));
        assertEquals("resumed: the next takes the next number", new InjectResult.Sent(3), inject(a)); // 4
        assertEquals(new InjectResult.Sent(1), inject(b)); // 5
        assertEquals(new InjectResult.Failed(Errno.EAGAIN, -1), inject(b)); // 6
        assertEquals(new InjectResult.Sent(2), inject(b)); // 7
        assertEquals(List.of(1L, 2L, 3L), List.of(nextSeqnum(la), nextSeqnum(la), nextSeqnum(la)));
        assertEquals(List.of(1L, 2L), List.of(nextSeqnum(lb), nextSeqnum(lb)));
        TestProbe<Integer> inuse = testKit.createTestProbe();
        a.actor().tell(new NetNamespace.ReadSockInuse(inuse.getRef()));
        assertEquals("sock_inuse unchanged by the faults", Integer.valueOf(1), inuse.receiveMessage(WAIT));
        assertEquals(2, probe.faults(FaultSwitch.NETNS_ACTOR));

        TestProbe<StatusReply<Done>> closed = testKit.createTestProbe();
        a.actor().tell(new NetNamespace.CloseSocket(sock, closed.getRef()));
        closed.expectMessage(WAIT, StatusReply.ack());
        la.cancel();
        lb.cancel();
        release(sup, a);
        release(sup, b);
        assertDismantled(sup, probe, 2);
    }

    @Test
    public void aUeventRequestThatWaitedForSetupNetIsNeverFaultedSoNothingIsLeftInTheStash() {
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup =
                supervisor("netns.setup-cost = 200ms, faults.netns-actor = 1", probe);
        TestProbe<CreateResult> created = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.CreateNetns(UserNamespace.INIT, created.getRef()));
        TestProbe<InjectResult> early = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.KernelUevent(
                "add",
                "/devices/virtual/net/veth0",
                "net",
                Map.of(),
                1,
                early.getRef())); // netns 1 is in setup_net for 200 ms: the tagged uevent waits in its stash
        NetnsHandle h = (NetnsHandle) created.receiveMessage(WAIT);
        assertEquals(1, h.id());
        assertEquals(new InjectResult.Sent(1), early.receiveMessage(WAIT));
        TestProbe<InjectResult> later = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.KernelUevent(
                "add", "/devices/virtual/net/veth0", "net", Map.of(), 1, later.getRef()));
        assertEquals(
                "every eligible request faults", new InjectResult.Failed(Errno.EAGAIN, -1), later.receiveMessage(WAIT));
        assertEquals(1, probe.faults(FaultSwitch.NETNS_ACTOR));
        release(sup, h);
        assertDismantled(sup, probe, 1);
    }

    @Test
    public void aListenerFaultClosesThatListenerOnlyAndDropsItsNetnsReference() throws Exception {
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup = supervisor("faults.listener = 4", probe);
        NetnsHandle a = create(sup, UserNamespace.INIT.createChild(1, 1000));
        NetnsHandle b = create(sup, UserNamespace.INIT.createChild(2, 2000));
        TestSubscriber.Probe<Received> l1 = listener(a);
        TestSubscriber.Probe<Received> l2 = listener(a);
        TestSubscriber.Probe<Received> l3 = listener(b);
        for (int i = 0; i < 3; i++) {
            inject(a); // global SEQNUM 1..3
        }
        assertEquals(List.of(1L, 2L, 3L), List.of(nextSeqnum(l1), nextSeqnum(l1), nextSeqnum(l1))); // recvmsg 1..3
        l2.request(1); // recvmsg 4: the listener dies with SEQNUM 1 in hand
        Throwable failed = l2.expectError();
        assertTrue(failed.toString(), failed instanceof ModelFault f && f.which() == FaultSwitch.LISTENER);
        assertEquals(new InjectResult.Sent(4), inject(a));
        assertEquals(new InjectResult.Sent(5), inject(b));
        assertEquals(5L, nextSeqnum(l3)); // recvmsg 5: netns B untouched
        assertEquals(4L, nextSeqnum(l1)); // recvmsg 6: the other listener of A goes on
        assertEquals(1, probe.faults(FaultSwitch.LISTENER));

        // A's remaining references: its creator's and l1's; l2's went with its socket
        l1.cancel();
        release(sup, a);
        l3.cancel();
        release(sup, b);
        assertDismantled(sup, probe, 2);
    }

    @Test
    public void aCleanupWorkerFaultIsResumedWithCleanupListKeptNothingLostNothingFreedTwice() {
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup = supervisor("faults.cleanup-worker = 1", probe);
        List<NetnsHandle> netns = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            netns.add(create(sup, UserNamespace.INIT));
        }
        for (NetnsHandle h : netns) { // one at a time: each start of cleanup_net faults, its retry runs it
            release(sup, h);
        }
        assertEquals(3, probe.faults(FaultSwitch.CLEANUP_WORKER));
        for (int i = 0; i < 5; i++) {
            create(sup, UserNamespace.INIT);
        }
        TestProbe<Done> all = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.ReleaseAll(all.getRef())); // five __put_net at once, batches of any size
        all.expectMessage(WAIT, Done.getInstance());
        assertTrue("at least one more fault", probe.faults(FaultSwitch.CLEANUP_WORKER) >= 4);
        assertDismantled(sup, probe, 8);
    }

    @Test
    public void aProcConnectorFaultIsResumedWithSubscribersAndSeqKept() throws Exception {
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup = supervisor("faults.proc-connector = 2", probe);
        TestProbe<ActorRef<ProcConnector.Command>> got = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.GetProcConnector(got.getRef()));
        ActorRef<ProcConnector.Command> pc = got.receiveMessage(WAIT);
        TestProbe<ProcConnector.JoinReply> joined = testKit.createTestProbe();
        pc.tell(new ProcConnector.Join(true, 64, joined.getRef()));
        ProcConnector.Joined j = (ProcConnector.Joined) joined.receiveMessage(WAIT);
        TestProbe<Done> ack = testKit.createTestProbe();
        pc.tell(new ProcConnector.Subscribe(
                j.socket(),
                Credentials.root(UserNamespace.INIT, 0),
                true,
                ProcSubscription.encode(ProcEvents.MCAST_LISTEN, ProcEvents.ALL),
                ack.getRef()));
        ack.expectMessage(WAIT, Done.getInstance());
        CompletionStage<List<ProcReceived>> items = j.events().runWith(Sink.seq(), testKit.system());
        for (int pid = 1; pid <= 5; pid++) { // eligible 2 and 4 fault: pids 2 and 4 are lost
            pc.tell(new ProcConnector.Publish(new ProcEvent(ProcEvents.FORK, 0, 0, 0, pid, pid, 1, 0, 0)));
        }
        TestProbe<ProcConnector.Stats> stats = testKit.createTestProbe();
        pc.tell(new ProcConnector.GetStats(stats.getRef()));
        ProcConnector.Stats s = stats.receiveMessage(WAIT);
        assertEquals(3, s.generated());
        assertEquals("the subscriber is kept", 1, s.listenerCount());
        pc.tell(new ProcConnector.Close(j.socket()));
        List<long[]> seqAndPid = new ArrayList<>();
        for (ProcReceived r : items.toCompletableFuture().get(10, TimeUnit.SECONDS)) {
            ProcEvent e = ((ProcReceived.Event) r).event();
            if (e.what() != ProcEvents.NONE) {
                seqAndPid.add(new long[] {e.seq(), e.pid()});
            }
        }
        assertEquals(
                "seq continues 1, 2, 3 over the events that were sent",
                List.of("1:1", "2:3", "3:5"),
                seqAndPid.stream().map(x -> x[0] + ":" + x[1]).toList());
        assertEquals(2, probe.faults(FaultSwitch.PROC_CONNECTOR));
        assertDismantled(sup, probe, 0);
    }
}
