package org.netnslab.netns;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.netnslab.netns.LifecycleFixtures.WAIT;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.pattern.StatusReply;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.settings.Setting;
import org.netnslab.sockinuse.SockInuseFree;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The four sock_inuse designs against the kernel's rule (net/core/sock.c v4.16..v5.16: sk_alloc adds 1
 * and __sk_free subtracts 1 only {@code if (sk->sk_net_refcnt)}, __sk_free before sk_destruct, whose
 * __sk_destruct SOCK_RCU_FREE defers through call_rcu; sock_inuse_exit_net frees the counter with no
 * wait). RCU callbacks are held back by an RCU reader the test owns, never by timing.
 */
public class SockInuseDesignsTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final long READER = 4242;

    /** 4 kernel sockets, every close RCU-deferred, 1 CPU slot, no costs. */
    private static ModelSettings design(SockInuseFree free, String more) {
        return ModelSettings.withKeys("sock-inuse.free = " + Setting.spell(free) + ", sock-inuse.cpus = 1"
                + ", rcu { grace-period = 2ms, expedited-grace-period = 1ms }, netns { lifecycle-lock = rwsem,"
                + " kernel-sockets = 4, setup-cost = 0ms, exit-cost = 0ms }, sockets.rcu-free-fraction = 1.0" + more);
    }

    /**
     * A test op that takes an RCU read lock (which the test releases) in its init, or in its exit, and
     * may report at its exit whether sock_inuse_exit_net has freed the counter by then.
     */
    private static PernetOperations gate(
            boolean lockInInit,
            boolean lockInExit,
            ActorRef<Boolean> reportFreed,
            AtomicReference<ActorRef<RcuDomain.Command>> rcu) {
        return new PernetOperations() {
            @Override
            public String name() {
                return "test_gate";
            }

            @Override
            public void init(Net net) {
                rcu.set(net.rcu);
                if (lockInInit) {
                    net.rcu.tell(new RcuDomain.ReadLock(READER));
                }
            }

            @Override
            public ExitAction exit(Net net) {
                if (lockInExit) {
                    net.rcu.tell(new RcuDomain.ReadLock(READER));
                }
                if (reportFreed != null) {
                    reportFreed.tell(net.sockInuse().isFreed());
                }
                return ExitAction.DONE;
            }
        };
    }

    /**
     * The standard ops after a gate registered first (its exit runs last: it reports the free) and, with
     * {@code lockAtExit}, before one registered last (its exit runs right after the batch's
     * synchronize_rcu, before kernel_sockets' exit, and takes the read lock there); otherwise the first
     * gate takes the read lock in its init.
     */
    private static List<PernetOperations> gated(
            boolean lockAtExit, AtomicReference<ActorRef<RcuDomain.Command>> rcu, ActorRef<Boolean> exited) {
        List<PernetOperations> ops = new ArrayList<>();
        ops.add(gate(!lockAtExit, false, exited, rcu));
        ops.addAll(StandardPernetOps.all());
        if (lockAtExit) {
            ops.add(gate(false, true, null, rcu));
        }
        return ops;
    }

    private static int readSockInuse(NetnsHandle h) {
        TestProbe<Integer> p = testKit.createTestProbe();
        h.actor().tell(new NetNamespace.ReadSockInuse(p.getRef()));
        return p.receiveMessage(WAIT);
    }

    /**
     * A netns with 4 kernel sockets, all SOCK_RCU_FREE, dismantled while an RCU reader holds their
     * deferred teardowns back until its counter is freed in the exit: the kernel sockets' teardowns then
     * run strictly after the free. Returns {sock_inuse while live, use-after-free count}.
     */
    private static long[] kernelSocketsAfterAnExitFree(SockInuseFree free) {
        LifecycleRecorder probe = new LifecycleRecorder();
        AtomicReference<ActorRef<RcuDomain.Command>> rcu = new AtomicReference<>();
        TestProbe<Boolean> exited = testKit.createTestProbe();
        ActorRef<NamespaceSupervisor.Command> sup =
                testKit.spawn(NamespaceSupervisor.create(design(free, ""), gated(true, rcu, exited.getRef()), probe));
        NetnsHandle h = (NetnsHandle) LifecycleFixtures.create(testKit, sup);
        int live = readSockInuse(h);
        h.actor().tell(NetNamespace.Put.INSTANCE);
        assertTrue(
                "sock_inuse_exit_net freed the counter before the deferred teardowns could run",
                exited.receiveMessage(WAIT));
        rcu.get().tell(new RcuDomain.ReadUnlock(READER));
        LifecycleFixtures.awaitAllFreed(testKit, sup);
        return new long[] {live, probe.useAfterFreeCount()};
    }

    @Test
    public void underOwnerExitKernelSocketsAreNotCountedSoTheirDeferredTeardownCannotTouchTheFreedCounter() {
        // Kernel: sk_alloc(kern=1) sets sk_net_refcnt = 0, so neither sk_alloc nor __sk_free touches
        // sock_inuse (net/core/sock.c v4.16..v5.16); sock_inuse_exit_net may free with no wait.
        long[] owner = kernelSocketsAfterAnExitFree(SockInuseFree.OWNER_EXIT);
        assertEquals("kernel sockets are not in sock_inuse", 0, owner[0]);
        assertEquals("nothing uncounted can subtract", 0, owner[1]);
        // The same path, the same order, with every socket counted and the -1 in the deferred __sk_destruct:
        // each of the 4 deferred kernel-socket teardowns subtracts from the freed counter.
        long[] unsafe = kernelSocketsAfterAnExitFree(SockInuseFree.EXIT_UNSAFE);
        assertEquals(4, unsafe[0]);
        assertEquals(4, unsafe[1]);
    }

    @Test
    public void underOwnerExitAUserSocketSubtractsAtCloseBeforeItsRcuDeferredTeardown() {
        // Kernel: __sk_free does sock_inuse_add(net, -1) before sk_destruct, which call_rcu's __sk_destruct
        // (with put_net) for SOCK_RCU_FREE: the count drops at close though the teardown is still pending.
        for (SockInuseFree free : new SockInuseFree[] {SockInuseFree.OWNER_EXIT, SockInuseFree.NET_FREE}) {
            AtomicReference<ActorRef<RcuDomain.Command>> rcu = new AtomicReference<>();
            TestProbe<Boolean> exited = testKit.createTestProbe();
            LifecycleRecorder probe = new LifecycleRecorder();
            ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                    design(free, ", netns.kernel-sockets = 0"), gated(false, rcu, exited.getRef()), probe));
            NetnsHandle h = (NetnsHandle) LifecycleFixtures.create(testKit, sup);
            TestProbe<Long> opened = testKit.createTestProbe();
            h.actor().tell(new NetNamespace.OpenSocket(opened.getRef()));
            long id = opened.receiveMessage(WAIT);
            assertEquals(1, readSockInuse(h));
            TestProbe<StatusReply<Done>> closed = testKit.createTestProbe();
            h.actor().tell(new NetNamespace.CloseSocket(id, closed.getRef()));
            closed.receiveMessage(WAIT);
            h.actor()
                    .tell(
                            NetNamespace.Put
                                    .INSTANCE); // the creator leaves; the pending __sk_destruct still holds the netns
            assertEquals(
                    free + ": the -1 ran at close (owner) or waits for __sk_destruct (hazard accounting)",
                    free == SockInuseFree.OWNER_EXIT ? 0 : 1,
                    readSockInuse(h));
            assertEquals("the socket's deferred put_net holds the netns", 1, LifecycleFixtures.countLive(testKit, sup));
            rcu.get().tell(new RcuDomain.ReadUnlock(READER));
            LifecycleFixtures.awaitAllFreed(testKit, sup);
            assertEquals(0, probe.sockInuseSum());
            assertEquals(0, probe.useAfterFreeCount());
        }
    }

    @Test
    public void ownerExitTakesNoGracePeriodBeyondTheBatchOnes() {
        // cleanup_net (net/core/net_namespace.c v4.16): one synchronize_rcu and one rcu_barrier per batch;
        // sock_inuse_exit_net adds none (the rejected patch added one of each per netns).
        for (SockInuseFree free : SockInuseFree.values()) {
            LifecycleRecorder probe = new LifecycleRecorder();
            ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                    LifecycleFixtures.design(LifecycleLock.RWSEM, free), StandardPernetOps.all(), probe));
            List<NetnsHandle> all = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                all.add((NetnsHandle) LifecycleFixtures.create(testKit, sup));
            }
            all.forEach(h -> h.actor().tell(NetNamespace.Put.INSTANCE));
            LifecycleFixtures.awaitAllFreed(testKit, sup);
            RcuDomain.Stats s = LifecycleFixtures.rcuStats(testKit, sup);
            long extra = free == SockInuseFree.EXIT_BARRIER ? 6 : 0;
            assertEquals(free.toString(), probe.batchCount() + extra, s.synchronizeCalls());
            assertEquals(free.toString(), probe.batchCount() + extra, s.barrierCalls());
            assertEquals(free.toString(), 6, probe.freed());
            if (free != SockInuseFree.EXIT_UNSAFE) {
                assertEquals(free.toString(), 0, probe.useAfterFreeCount());
                assertEquals(free.toString(), 0, probe.sockInuseSum());
            }
        }
    }
}
