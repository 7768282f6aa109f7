package org.netnslab.netns;

import static org.junit.Assert.assertEquals;
import static org.netnslab.netns.LifecycleFixtures.WAIT;
import static org.netnslab.netns.LifecycleFixtures.design;
import static org.netnslab.netns.LifecycleFixtures.recording;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.LoggingTestKit;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.pattern.StatusReply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.sockinuse.SockInuseFree;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

public class LifecycleTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static CreateResult create(ActorRef<NamespaceSupervisor.Command> sup) {
        return LifecycleFixtures.create(testKit, sup);
    }

    private static void awaitAllFreed(ActorRef<NamespaceSupervisor.Command> sup) {
        LifecycleFixtures.awaitAllFreed(testKit, sup);
    }

    private static RcuDomain.Stats rcuStats(ActorRef<NamespaceSupervisor.Command> sup) {
        return LifecycleFixtures.rcuStats(testKit, sup);
    }

    @Test
    public void setupRunsTheOpsInOrderAndCleanupInReverse() {
        List<String> log = new CopyOnWriteArrayList<>();
        List<PernetOperations> ops =
                List.of(recording("a", log, false), recording("b", log, false), recording("c", log, false));
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.RWSEM, SockInuseFree.NET_FREE), ops, LifecycleProbe.NONE));
        NetnsHandle h = (NetnsHandle) create(sup);
        assertEquals(List.of("init a", "init b", "init c"), log);
        log.clear();
        h.actor().tell(NetNamespace.Put.INSTANCE);
        awaitAllFreed(sup);
        assertEquals(
                List.of(
                        "pre_exit c",
                        "pre_exit b",
                        "pre_exit a",
                        "exit c",
                        "exit_batch c x1",
                        "exit b",
                        "exit_batch b x1",
                        "exit a",
                        "exit_batch a x1",
                        "free c",
                        "free b",
                        "free a",
                        "net_free c",
                        "net_free b",
                        "net_free a"),
                log);
    }

    @Test
    public void aFailingInitUndoesTheOpsAlreadyRunInReverseAndReportsTheError() {
        List<String> log = new CopyOnWriteArrayList<>();
        List<PernetOperations> ops = List.of(
                recording("a", log, false),
                recording("b", log, false),
                recording("c", log, true),
                recording("d", log, false));
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.NET_MUTEX, SockInuseFree.NET_FREE), ops, LifecycleProbe.NONE));
        CreateResult r = create(sup);
        assertEquals(new CreateResult.Failed(1, "c init failed: boom"), r);
        awaitAllFreed(sup);
        assertEquals(
                List.of(
                        "init a",
                        "init b",
                        "init c",
                        "pre_exit b",
                        "pre_exit a",
                        "exit b",
                        "exit_batch b x1",
                        "exit a",
                        "exit_batch a x1",
                        "free b",
                        "free a",
                        "net_free b",
                        "net_free a"),
                log);
        RcuDomain.Stats s = rcuStats(sup);
        assertEquals("the undo's synchronize_rcu", 1, s.synchronizeCalls());
        assertEquals("the undo's rcu_barrier", 1, s.barrierCalls());
        // the lock was given back: the next creation (without the failing op it would succeed) is answered
        assertEquals(CreateResult.Failed.class, create(sup).getClass());
    }

    @Test
    public void aNetnsThatFailsWhileUndoingItsSetupReleasesNetMutexAndItsCreatorLearnsOfIt() {
        // netns 1: op "b" fails its init, and the undo's exit of "a" throws: the netns actor stops
        // before it can report that copy_net_ns is over. netns 2 sets up cleanly.
        PernetOperations a = new PernetOperations() {
            @Override
            public String name() {
                return "a";
            }

            @Override
            public void init(Net net) {}

            @Override
            public ExitAction exit(Net net) {
                throw new IllegalStateException("exit a of netns " + net.id() + " fails");
            }
        };
        PernetOperations b = new PernetOperations() {
            @Override
            public String name() {
                return "b";
            }

            @Override
            public void init(Net net) throws PernetInitException {
                if (net.id() == 1) {
                    throw new PernetInitException("boom");
                }
            }
        };
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.NET_MUTEX, SockInuseFree.NET_FREE), List.of(a, b), LifecycleProbe.NONE));
        CreateResult first = LoggingTestKit.error("netns 1 stopped during setup_net or its undo; its creation failed")
                .expect(testKit.system(), () -> create(sup));
        assertEquals(new CreateResult.Failed(1, "the netns stopped during setup_net or its undo (see the log)"), first);
        // under net_mutex the next creation runs only if the failed one gave the lock back
        assertEquals(2L, ((NetnsHandle) create(sup)).id());
        assertEquals(1, LifecycleFixtures.countLive(testKit, sup));
    }

    private static void churn(ActorRef<NamespaceSupervisor.Command> sup, int n) {
        List<NetnsHandle> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add((NetnsHandle) create(sup));
        }
        all.forEach(h -> h.actor().tell(NetNamespace.Put.INSTANCE));
        awaitAllFreed(sup);
    }

    @Test
    public void netFreeTakesOneSynchronizeAndOneBarrierPerBatch() {
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.RWSEM, SockInuseFree.NET_FREE), StandardPernetOps.all(), probe));
        churn(sup, 6);
        RcuDomain.Stats s = rcuStats(sup);
        long batches = probe.batchCount();
        assertEquals(6, probe.batches().histogram().getTotalCount() == batches ? sumOfBatchSizes(probe) : -1);
        assertEquals(batches, s.synchronizeCalls());
        assertEquals(batches, s.barrierCalls());
        assertEquals(0, probe.useAfterFreeCount());
        assertEquals(0, probe.sockInuseSum());
        assertEquals(6, probe.freed());
    }

    private static long sumOfBatchSizes(LifecycleRecorder probe) {
        var h = probe.batches().histogram();
        long sum = 0;
        for (var v : h.recordedValues()) {
            sum += v.getValueIteratedTo() * v.getCountAtValueIteratedTo();
        }
        return sum;
    }

    @Test
    public void exitBarrierTakesOneMoreSynchronizeAndBarrierPerNetns() {
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.RWSEM, SockInuseFree.EXIT_BARRIER), StandardPernetOps.all(), probe));
        churn(sup, 6);
        RcuDomain.Stats s = rcuStats(sup);
        assertEquals(probe.batchCount() + 6, s.synchronizeCalls());
        assertEquals(probe.batchCount() + 6, s.barrierCalls());
        assertEquals(0, probe.useAfterFreeCount());
    }

    @Test
    public void exitUnsafeFreesBeforeTheDeferredKernelSocketTeardownsAndEveryTouchIsCounted() {
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.RWSEM, SockInuseFree.EXIT_UNSAFE), StandardPernetOps.all(), probe));
        churn(sup, 3);
        TestProbe<Done> quiesce = testKit.createTestProbe(); // the deferred teardowns run after net_free
        TestProbe<RcuDomain.Stats> statsProbe = testKit.createTestProbe();
        statsProbe.awaitAssert(WAIT, () -> {
            // 2 kernel sockets per netns, half of them RCU-freed: 1 deferred touch each
            assertEquals(3, probe.useAfterFreeCount());
            return null;
        });
        quiesce.expectNoMessage(Duration.ofMillis(1));
    }

    @Test
    public void aNetnsThatFailsInItsExitDoesNotStopTheCleanupOfOthers() {
        PernetOperations failing = new PernetOperations() {
            @Override
            public String name() {
                return "failing";
            }

            @Override
            public void init(Net net) {}

            @Override
            public ExitAction exit(Net net) {
                if (net.id() == 1) {
                    throw new IllegalStateException("exit of netns 1 fails");
                }
                return ExitAction.DONE;
            }
        };
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.NET_MUTEX, SockInuseFree.NET_FREE), List.of(failing), probe));
        NetnsHandle first = (NetnsHandle) create(sup);
        NetnsHandle second = (NetnsHandle) create(sup);
        first.actor().tell(NetNamespace.Put.INSTANCE);
        second.actor().tell(NetNamespace.Put.INSTANCE);
        awaitAllFreed(sup); // the failed netns is gone, the other reached net_free, the lock was released
        assertEquals(1, probe.freed());
        assertEquals(3L, ((NetnsHandle) create(sup)).id());
    }

    /** An op whose exit reports that it started and then holds the batch until {@code gate} opens. */
    private static PernetOperations holding(ActorRef<String> started, AtomicBoolean gate) {
        return new PernetOperations() {
            @Override
            public String name() {
                return "holding";
            }

            @Override
            public void init(Net net) {}

            @Override
            public ExitAction exit(Net net) {
                started.tell("exit " + net.id());
                return new ExitAction.RetryUntil(gate::get);
            }
        };
    }

    private void creationDuringCleanup(LifecycleLock lock, boolean creationWaits) {
        TestProbe<String> started = testKit.createTestProbe();
        AtomicBoolean gate = new AtomicBoolean();
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(lock, SockInuseFree.NET_FREE), List.of(holding(started.getRef(), gate)), LifecycleProbe.NONE));
        NetnsHandle first = (NetnsHandle) create(sup);
        first.actor().tell(NetNamespace.Put.INSTANCE);
        started.expectMessage(WAIT, "exit 1"); // the cleanup batch now holds the lifecycle lock
        TestProbe<CreateResult> second = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.CreateNetns(UserNamespace.INIT, second.getRef()));
        if (creationWaits) {
            second.expectNoMessage(Duration.ofMillis(200));
            gate.set(true);
            assertEquals(2, ((NetnsHandle) second.receiveMessage(WAIT)).id());
        } else {
            assertEquals(2, ((NetnsHandle) second.receiveMessage(WAIT)).id());
            gate.set(true);
        }
        TestProbe<Done> released = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.ReleaseNetns(2, released.getRef()));
        released.expectMessage(WAIT, Done.getInstance());
        awaitAllFreed(sup);
    }

    @Test
    public void aNetnsWhoseExitWaitsRefusesNewReferencesAndStillAnswersTheRest() {
        TestProbe<String> started = testKit.createTestProbe();
        AtomicBoolean gate = new AtomicBoolean();
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.RWSEM, SockInuseFree.NET_FREE),
                List.of(StandardPernetOps.SOCK_INUSE, holding(started.getRef(), gate)),
                LifecycleProbe.NONE));
        NetnsHandle h = (NetnsHandle) create(sup);
        h.actor().tell(NetNamespace.Put.INSTANCE);
        started.expectMessage(WAIT, "exit 1"); // its exit now retries until the gate opens
        TestProbe<Long> opened = testKit.createTestProbe();
        LoggingTestKit.warn("netns 1: get_net after the last reference was dropped; ignored")
                .expect(testKit.system(), () -> {
                    h.actor().tell(NetNamespace.Get.INSTANCE);
                    return null;
                });
        h.actor().tell(new NetNamespace.OpenSocket(opened.getRef()));
        opened.expectMessage(WAIT, -1L);
        TestProbe<Integer> inuse = testKit.createTestProbe();
        h.actor().tell(new NetNamespace.ReadSockInuse(inuse.getRef()));
        inuse.expectMessage(WAIT, 0); // under net-free the counter lives until net_free
        gate.set(true);
        awaitAllFreed(sup);
    }

    @Test
    public void underNetMutexCreationWaitsForARunningCleanupBatch() {
        creationDuringCleanup(LifecycleLock.NET_MUTEX, true);
    }

    @Test
    public void underRwsemCreationRunsWhileACleanupBatchRuns() {
        creationDuringCleanup(LifecycleLock.RWSEM, false);
    }

    @Test
    public void socketsCountInSockInuseAndRcuFreedOnesHoldTheNetnsUntilTheirCallbackRan() {
        // sk_alloc: get_net + sock_inuse_add(+1) for a user socket; __sk_destruct's put_net is what
        // SOCK_RCU_FREE defers (net/core/sock.c v4.16..v5.16)
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.RWSEM, SockInuseFree.OWNER_EXIT), StandardPernetOps.all(), probe));
        NetnsHandle h = (NetnsHandle) create(sup);
        TestProbe<Long> opened = testKit.createTestProbe();
        for (int i = 0; i < 4; i++) {
            h.actor().tell(new NetNamespace.OpenSocket(opened.getRef()));
        }
        List<Long> ids = opened.receiveSeveralMessages(4, WAIT);
        TestProbe<Integer> inuse = testKit.createTestProbe();
        h.actor().tell(new NetNamespace.ReadSockInuse(inuse.getRef()));
        inuse.expectMessage(4); // the 2 kernel sockets are not counted
        TestProbe<StatusReply<Done>> closed = testKit.createTestProbe();
        ids.forEach(id -> h.actor().tell(new NetNamespace.CloseSocket(id, closed.getRef())));
        closed.receiveSeveralMessages(4, WAIT);
        h.actor().tell(NetNamespace.Put.INSTANCE); // the process exits; 2 RCU-freed sockets still hold the netns
        awaitAllFreed(sup);
        assertEquals("every socket's -1 ran before the counter was freed", 0, probe.sockInuseSum());
        assertEquals(0, probe.useAfterFreeCount());
    }
}
