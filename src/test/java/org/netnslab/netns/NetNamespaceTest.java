package org.netnslab.netns;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.japi.Pair;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import akka.stream.testkit.TestSubscriber;
import akka.stream.testkit.javadsl.TestSink;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.design.Design;
import org.netnslab.netlink.RcvbufOption;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.uevent.Audience;
import org.netnslab.uevent.Enobufs;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.SeqnumScope;
import org.netnslab.uevent.Uevent;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

public class NetNamespaceTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final byte[] PAYLOAD =
            "change@/devices/virtual/net/lo\0ACTION=change\0".getBytes(StandardCharsets.US_ASCII);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static final Design KERNEL_418 = new Design(
            "kernel-4.18", ModelSettings.withKeys("uevent { serialization = global-owner, seqnum-scope = global }"));
    private static final Design PER_NETNS = new Design(
            "per-netns-2018",
            ModelSettings.withKeys("uevent { serialization = per-netns-owner, seqnum-scope = per-netns }"));
    private static final Design KERNEL_69 = new Design(
            "kernel-6.9", ModelSettings.withKeys("uevent { serialization = lockless, seqnum-scope = global }"));

    /** One listener bound to a netns: its stream's items once the netns is dismantled. */
    private record Listener(NetnsHandle netns, CompletionStage<List<Received>> items) {}

    private static ActorRef<NamespaceSupervisor.Command> supervisor(Design d) {
        return testKit.spawn(NamespaceSupervisor.create(d.model()));
    }

    /** The netns each supervisor created, so that {@link #releaseAll} can have their listeners close first. */
    private static final Map<ActorRef<NamespaceSupervisor.Command>, List<NetnsHandle>> CREATED =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static NetnsHandle create(ActorRef<NamespaceSupervisor.Command> sup, UserNamespace owner) {
        TestProbe<CreateResult> p = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.CreateNetns(owner, p.getRef()));
        NetnsHandle h = (NetnsHandle) p.receiveMessage(WAIT);
        CREATED.computeIfAbsent(sup, k -> new java.util.concurrent.CopyOnWriteArrayList<>())
                .add(h);
        return h;
    }

    private static Listener listen(NetnsHandle h, int capacity) throws Exception {
        Pair<CompletionStage<Done>, CompletionStage<List<Received>>> p =
                h.uevents(capacity).toMat(Sink.seq(), Keep.both()).run(testKit.system());
        p.first().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return new Listener(h, p.second());
    }

    /**
     * A bound listener that requests nothing until the test says so: its queue fills and then drops.
     * SO_RCVBUF 1 gives sk_rcvbuf = SOCK_MIN_RCVBUF = 4608 (sock_setsockopt, net/core/sock.c v6.6); each
     * injected uevent here costs 896 bytes of truesize (alloc of 16 + ~70 bytes: a small head, 640 +
     * 256), and a message is queued while rmem_alloc <= 4608 before it (netlink_broadcast_deliver,
     * net/netlink/af_netlink.c v6.6): 0, 896, ..., 4480 -> it holds 6.
     */
    private static TestSubscriber.Probe<Received> stalledListener(NetnsHandle h) throws Exception {
        Pair<CompletionStage<org.netnslab.netlink.ReceiveQueue<Received>>, TestSubscriber.Probe<Received>> p =
                h.uevents(new SocketOptions(1, RcvbufOption.SO_RCVBUF, false))
                        .toMat(TestSink.probe(testKit.system().classicSystem()), Keep.both())
                        .run(testKit.system());
        p.first().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return p.second();
    }

    /** What a stalled listener holds (see {@link #stalledListener}). */
    private static final int STALLED_HOLDS = 6;

    /**
     * Every listener reads what is left and closes its socket (each held its netns), then the creators
     * drop their references; returns once every netns has reached net_free.
     */
    private static void releaseAll(ActorRef<NamespaceSupervisor.Command> sup) {
        TestProbe<Done> closed = testKit.createTestProbe();
        for (NetnsHandle h : CREATED.getOrDefault(sup, List.of())) {
            h.actor().tell(new NetNamespace.CloseListeners(closed.getRef()));
            closed.expectMessage(WAIT, Done.getInstance());
        }
        TestProbe<Done> p = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.ReleaseAll(p.getRef()));
        p.expectMessage(WAIT, Done.getInstance());
        TestProbe<Integer> live = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.CountLive(live.getRef()));
        live.expectMessage(WAIT, 0);
    }

    private static List<Long> seqnums(List<Received> items) {
        List<Long> s = new ArrayList<>();
        for (Received r : items) {
            if (r instanceof Uevent u) {
                s.add(u.seqnum());
            }
        }
        return s;
    }

    private static Credentials rootOf(NetnsHandle h) {
        return Credentials.root(h.owner(), h.owner().ownerKuid());
    }

    /**
     * 3 userns-owned + 2 init-owned netns, 2 listeners each, 4 concurrent injector threads per netns with
     * 100 injections each. Returns per netns the SEQNUMs acknowledged, and the listeners.
     */
    private static Map<NetnsHandle, Set<Long>> injectConcurrently(
            ActorRef<NamespaceSupervisor.Command> sup, List<Listener> listeners, int perThread) throws Exception {
        List<NetnsHandle> netns = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            NetnsHandle h = create(sup, i < 3 ? UserNamespace.INIT.createChild(10 + i, 5000 + i) : UserNamespace.INIT);
            netns.add(h);
            listeners.add(listen(h, 1024));
            listeners.add(listen(h, 1024));
        }
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads * netns.size());
        CountDownLatch go = new CountDownLatch(1);
        Map<NetnsHandle, TestProbe<InjectResult>> acks = new java.util.LinkedHashMap<>();
        for (NetnsHandle h : netns) {
            TestProbe<InjectResult> probe = testKit.createTestProbe();
            acks.put(h, probe);
            for (int t = 0; t < threads; t++) {
                pool.submit(() -> {
                    go.await();
                    for (int k = 0; k < perThread; k++) {
                        h.injectRoute().inject(rootOf(h), PAYLOAD, System.nanoTime(), probe.getRef());
                    }
                    return null;
                });
            }
        }
        go.countDown();
        Map<NetnsHandle, Set<Long>> sent = new java.util.LinkedHashMap<>();
        for (Map.Entry<NetnsHandle, TestProbe<InjectResult>> e : acks.entrySet()) {
            Set<Long> s = new HashSet<>();
            for (InjectResult r : e.getValue().receiveSeveralMessages(threads * perThread, WAIT)) {
                s.add(((InjectResult.Sent) r).seqnum());
            }
            sent.put(e.getKey(), s);
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        return sent;
    }

    private void checkDesign(Design d, boolean ordered) throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor(d);
        List<Listener> listeners = new ArrayList<>();
        Map<NetnsHandle, Set<Long>> sent = injectConcurrently(sup, listeners, 100);
        releaseAll(sup);
        Set<Long> all = new HashSet<>();
        sent.values().forEach(s -> assertEquals("a SEQNUM acknowledged twice in one netns", 400, s.size()));
        for (Listener l : listeners) {
            List<Received> items = l.items().toCompletableFuture().get(10, TimeUnit.SECONDS);
            List<Long> seq = seqnums(items);
            assertEquals(d.name() + ": every message reaches every listener of its netns", 400, seq.size());
            assertEquals(d.name() + ": exactly the acknowledged SEQNUMs", sent.get(l.netns()), new HashSet<>(seq));
            for (Received r : items) {
                Uevent u = (Uevent) r;
                assertEquals(new Audience(Audience.Kind.INJECTED, l.netns().id()), u.audience());
                assertTrue(u.audience().admits(l.netns().id(), l.netns().initOwned()));
            }
            if (ordered) {
                for (int i = 1; i < seq.size(); i++) {
                    assertTrue(
                            d.name() + ": SEQNUM order at " + i + ": " + seq.get(i - 1) + " then " + seq.get(i),
                            seq.get(i) > seq.get(i - 1));
                }
            }
        }
        sent.forEach((h, s) -> all.addAll(s));
        if (d.model().uevent().seqnumScope() == SeqnumScope.GLOBAL) {
            Set<Long> expected = new HashSet<>();
            for (long i = 1; i <= 2000; i++) {
                expected.add(i);
            }
            assertEquals("global SEQNUMs are unique across netns and without gaps", expected, all);
        } else {
            for (Map.Entry<NetnsHandle, Set<Long>> e : sent.entrySet()) {
                if (!e.getKey().initOwned()) {
                    Set<Long> expected = new HashSet<>();
                    for (long i = 1; i <= 400; i++) {
                        expected.add(i);
                    }
                    assertEquals("a userns-owned netns counts its own SEQNUMs from 1", expected, e.getValue());
                }
            }
        }
    }

    @Test
    public void globalOwnerKeepsPerListenerOrderAndIsolationWithConcurrentInjectors() throws Exception {
        checkDesign(KERNEL_418, true);
    }

    @Test
    public void perNetnsOwnerKeepsPerListenerOrderAndIsolationWithConcurrentInjectors() throws Exception {
        checkDesign(PER_NETNS, true);
    }

    @Test
    public void locklessDeliversEveryUniqueSeqnumExactlyOnceButOrderIsNotPromised() throws Exception {
        checkDesign(KERNEL_69, false);
    }

    @Test
    public void perNetnsScopeGivesInitOwnedNetnsTheGlobalCounter() throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor(PER_NETNS);
        NetnsHandle userns = create(sup, UserNamespace.INIT.createChild(1, 1000));
        NetnsHandle init1 = create(sup, UserNamespace.INIT);
        NetnsHandle init2 = create(sup, UserNamespace.INIT);
        TestProbe<InjectResult> acks = testKit.createTestProbe();
        userns.injectRoute().inject(rootOf(userns), PAYLOAD, 0, acks.getRef());
        acks.expectMessage(new InjectResult.Sent(1));
        init1.injectRoute().inject(rootOf(init1), PAYLOAD, 0, acks.getRef());
        acks.expectMessage(new InjectResult.Sent(1));
        init2.injectRoute().inject(rootOf(init2), PAYLOAD, 0, acks.getRef());
        acks.expectMessage(new InjectResult.Sent(2));
        userns.injectRoute().inject(rootOf(userns), PAYLOAD, 0, acks.getRef());
        acks.expectMessage(new InjectResult.Sent(2));
        TestProbe<Long> sysfs = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.ReadSeqnum(sysfs.getRef()));
        sysfs.expectMessage(2L);
        releaseAll(sup);
    }

    @Test
    public void injectionWithoutCapSysAdminGetsEpermAndDeliversNothing() throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor(KERNEL_418);
        UserNamespace owner = UserNamespace.INIT.createChild(1, 1000);
        NetnsHandle h = create(sup, owner);
        Listener l = listen(h, 16);
        TestProbe<InjectResult> acks = testKit.createTestProbe();
        Credentials stranger = Credentials.root(UserNamespace.INIT.createChild(2, 2000), 2000);
        Credentials unprivileged = Credentials.unprivileged(owner, 1500);
        h.injectRoute().inject(stranger, PAYLOAD, 0, acks.getRef());
        acks.expectMessage(new InjectResult.Failed(Errno.EPERM, -1));
        h.injectRoute().inject(unprivileged, PAYLOAD, 0, acks.getRef());
        acks.expectMessage(new InjectResult.Failed(Errno.EPERM, -1));
        h.injectRoute().inject(rootOf(h), PAYLOAD, 0, acks.getRef());
        acks.expectMessage(WAIT, "refused injections consume no SEQNUM", new InjectResult.Sent(1));
        releaseAll(sup);
        assertEquals(List.of(1L), seqnums(l.items().toCompletableFuture().get(10, TimeUnit.SECONDS)));
    }

    @Test
    public void tooBigInjectionIsEinvalAndBurnsItsSeqnum() throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor(KERNEL_418);
        NetnsHandle h = create(sup, UserNamespace.INIT.createChild(1, 1000));
        Listener l = listen(h, 16);
        TestProbe<InjectResult> acks = testKit.createTestProbe();
        h.injectRoute().inject(rootOf(h), new byte[2048], 0, acks.getRef());
        acks.expectMessage(new InjectResult.Failed(Errno.EINVAL, 1));
        h.injectRoute().inject(rootOf(h), new byte[0], 0, acks.getRef());
        acks.expectMessage(new InjectResult.Failed(Errno.EINVAL, -1));
        h.injectRoute().inject(rootOf(h), PAYLOAD, 0, acks.getRef());
        acks.expectMessage(new InjectResult.Sent(2));
        releaseAll(sup);
        assertEquals(List.of(2L), seqnums(l.items().toCompletableFuture().get(10, TimeUnit.SECONDS)));
    }

    /**
     * The small input, through a netns: one paused listener; 10 injections, of which it takes
     * Q = 6; one recv; 3 more injections; then it drains. The kernel (net/netlink/af_netlink.c v6.6):
     * the first overrun sets NETLINK_S_CONGESTED and sk_err (netlink_overrun); the first recvmsg returns
     * ENOBUFS ahead of the data and consumes nothing (__skb_try_recv_datagram: sock_error first); the
     * queue is not empty, so netlink_rcv_wake leaves the socket congested and the 3 later injections
     * are dropped; the drain yields messages 1..6; once empty the socket accepts again. Drops = 13 - Q.
     * A listener with room loses nothing.
     */
    @Test
    public void pausedListenerGetsEnobufsFirstStaysCongestedUntilEmptyWhileOthersLoseNothing() throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor(PER_NETNS);
        NetnsHandle h = create(sup, UserNamespace.INIT.createChild(1, 1000));
        TestSubscriber.Probe<Received> probe = stalledListener(h);
        Listener healthy = listen(h, 1024);
        TestProbe<InjectResult> acks = testKit.createTestProbe();
        for (long i = 1; i <= 10; i++) {
            h.injectRoute().inject(rootOf(h), PAYLOAD, 0, acks.getRef());
            acks.expectMessage(new InjectResult.Sent(i));
        }
        probe.request(1);
        assertEquals(new Enobufs(10 - STALLED_HOLDS), probe.expectNext());
        for (long i = 11; i <= 13; i++) {
            h.injectRoute().inject(rootOf(h), PAYLOAD, 0, acks.getRef());
            acks.expectMessage(new InjectResult.Sent(i));
        }
        probe.request(100);
        List<Long> drained = new ArrayList<>();
        for (int i = 0; i < STALLED_HOLDS; i++) {
            drained.add(((Uevent) probe.expectNext()).seqnum());
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), drained);
        probe.expectNoMessage(Duration.ofMillis(50)); // 11..13 were dropped: still congested then
        h.injectRoute().inject(rootOf(h), PAYLOAD, 0, acks.getRef());
        acks.expectMessage(new InjectResult.Sent(14));
        assertEquals("emptied, it accepts again, with no second ENOBUFS", 14L, ((Uevent) probe.expectNext()).seqnum());
        releaseAll(sup);
        probe.expectComplete();
        List<Long> all = new ArrayList<>();
        for (long i = 1; i <= 14; i++) {
            all.add(i);
        }
        assertEquals(all, seqnums(healthy.items().toCompletableFuture().get(10, TimeUnit.SECONDS)));
    }

    /**
     * The uevent pernet exit does not wait for a listener to read: it stops deliveries and the reader
     * still gets its pending ENOBUFS (first, as recvmsg returns sk_err first) and every queued message.
     */
    @Test
    public void enobufsPendingWhenTheListenerClosesIsStillDeliveredBeforeTheStreamCompletes() throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor(KERNEL_418);
        NetnsHandle h = create(sup, UserNamespace.INIT.createChild(1, 1000));
        TestSubscriber.Probe<Received> probe = stalledListener(h);
        TestProbe<InjectResult> acks = testKit.createTestProbe();
        for (int i = 0; i < STALLED_HOLDS + 3; i++) {
            h.injectRoute().inject(rootOf(h), PAYLOAD, 0, acks.getRef());
            acks.receiveMessage(WAIT);
        }
        TestProbe<Done> closing = testKit.createTestProbe();
        h.actor().tell(new NetNamespace.CloseListeners(closing.getRef())); // the listener process closes its socket
        TestProbe<Done> released = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.ReleaseAll(released.getRef()));
        closing.expectMessage(WAIT, Done.getInstance()); // at once: the ENOBUFS takes no queue slot
        assertEquals("the unread listener still holds its netns", 1, LifecycleFixtures.countLive(testKit, sup));
        probe.request(20);
        assertEquals(new Enobufs(3), probe.expectNext());
        for (long i = 1; i <= STALLED_HOLDS; i++) {
            assertEquals(i, ((Uevent) probe.expectNext()).seqnum());
        }
        probe.expectComplete();
        released.expectMessage(WAIT, Done.getInstance()); // the stream ended: its reference went
    }

    @Test
    public void untaggedKernelUeventsReachOnlyInitOwnedNetnsAndTaggedOnlyTheDevicesNetns() throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor(PER_NETNS);
        NetnsHandle userns = create(sup, UserNamespace.INIT.createChild(1, 1000));
        NetnsHandle init1 = create(sup, UserNamespace.INIT);
        NetnsHandle init2 = create(sup, UserNamespace.INIT);
        Listener lu = listen(userns, 16);
        Listener l1 = listen(init1, 16);
        Listener l2 = listen(init2, 16);
        TestProbe<InjectResult> acks = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.KernelUevent(
                "add", "/devices/platform/serial8250", "platform", Map.of(), -1, acks.getRef()));
        acks.expectMessage(new InjectResult.Sent(1));
        sup.tell(new NamespaceSupervisor.KernelUevent(
                "add", "/devices/virtual/net/veth0", "net", Map.of("INTERFACE", "veth0"), userns.id(), acks.getRef()));
        acks.expectMessage(WAIT, "per-netns counter of the device's netns", new InjectResult.Sent(1));
        sup.tell(new NamespaceSupervisor.KernelUevent(
                "add", "/devices/virtual/net/veth1", "net", Map.of(), init2.id(), acks.getRef()));
        acks.expectMessage(WAIT, "init-owned netns use the global counter", new InjectResult.Sent(2));
        sup.tell(new NamespaceSupervisor.KernelUevent("add", "/x", "net", Map.of(), 999, acks.getRef()));
        acks.expectMessage(new InjectResult.Failed(Errno.EINVAL, -1));
        releaseAll(sup);
        List<Received> u = lu.items().toCompletableFuture().get(10, TimeUnit.SECONDS);
        List<Received> a = l1.items().toCompletableFuture().get(10, TimeUnit.SECONDS);
        List<Received> b = l2.items().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals(1, u.size());
        assertEquals(
                "add@/devices/virtual/net/veth0", ((Uevent) u.get(0)).decode().header());
        assertEquals(Audience.Kind.TAGGED, ((Uevent) u.get(0)).audience().kind());
        assertEquals(1, a.size());
        assertEquals(Audience.Kind.UNTAGGED, ((Uevent) a.get(0)).audience().kind());
        assertEquals(List.of(1L, 2L), seqnums(b));
        assertEquals(
                "the untagged message is built once and shared",
                ((Uevent) a.get(0)).wire(),
                ((Uevent) b.get(0)).wire());
    }

    @Test
    public void aListenerThatClosedItsStreamDoesNotDisturbTheTeardown() throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor(PER_NETNS);
        for (int round = 1; round <= 3; round++) {
            UserNamespace owner = UserNamespace.INIT.createChild(round, 1000 + round);
            NetnsHandle h = create(sup, owner);
            Pair<CompletionStage<Done>, CompletionStage<List<Received>>> one =
                    h.uevents(16).take(1).toMat(Sink.seq(), Keep.both()).run(testKit.system());
            one.first().toCompletableFuture().get(10, TimeUnit.SECONDS);
            TestProbe<InjectResult> acks = testKit.createTestProbe();
            h.injectRoute().inject(rootOf(h), PAYLOAD, 0, acks.getRef());
            acks.expectMessage(new InjectResult.Sent(1));
            assertEquals(
                    1,
                    one.second().toCompletableFuture().get(10, TimeUnit.SECONDS).size()); // then it cancels
            TestProbe<Done> released = testKit.createTestProbe();
            sup.tell(new NamespaceSupervisor.ReleaseNetns(h.id(), released.getRef()));
            released.expectMessage(WAIT, Done.getInstance()); // each round: the netns reached net_free
        }
    }

    @Test
    public void listenerAttachedDuringTeardownIsRefused() throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor(KERNEL_418);
        NetnsHandle h = create(sup, UserNamespace.INIT.createChild(1, 1000));
        h.actor().tell(NetNamespace.Put.INSTANCE); // the last reference: dismantling from now on
        TestProbe<Done> released = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.AwaitAllFreed(released.getRef()));
        // told after the put_net from this same thread, so the netns sees it while dismantling
        Pair<CompletionStage<Done>, CompletionStage<List<Received>>> late =
                h.uevents(4).toMat(Sink.seq(), Keep.both()).run(testKit.system());
        java.util.concurrent.ExecutionException e = org.junit.Assert.assertThrows(
                java.util.concurrent.ExecutionException.class,
                () -> late.first().toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertEquals("netns 1 is being dismantled", e.getCause().getMessage());
        assertEquals(List.of(), late.second().toCompletableFuture().get(10, TimeUnit.SECONDS));
        released.expectMessage(WAIT, Done.getInstance());
    }
}
