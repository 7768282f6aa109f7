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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.sockinuse.SockInuseFree;
import org.scalatestplus.junit.JUnitSuite;

/** The one pernet-op teardown ({@link OpsUndo}) on both of its paths, and its timeout. */
public class OpsUndoTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static List<String> withoutInits(List<String> log) {
        return log.stream().filter(s -> !s.startsWith("init ")).toList();
    }

    @Test
    public void aFailedSetupTearsDownLikeACleanupBatchExitBatchIncluded() {
        List<String> undone = new CopyOnWriteArrayList<>();
        ActorRef<NamespaceSupervisor.Command> failing = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.RWSEM, SockInuseFree.NET_FREE),
                List.of(
                        recording("a", undone, false),
                        recording("b", undone, false),
                        recording("c", undone, false),
                        recording("d", undone, true)),
                LifecycleProbe.NONE));
        assertEquals(new CreateResult.Failed(1, "d init failed: boom"), LifecycleFixtures.create(testKit, failing));
        LifecycleFixtures.awaitAllFreed(testKit, failing);

        List<String> cleaned = new CopyOnWriteArrayList<>();
        ActorRef<NamespaceSupervisor.Command> working = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.RWSEM, SockInuseFree.NET_FREE),
                List.of(recording("a", cleaned, false), recording("b", cleaned, false), recording("c", cleaned, false)),
                LifecycleProbe.NONE));
        NetnsHandle h = (NetnsHandle) LifecycleFixtures.create(testKit, working);
        h.actor().tell(NetNamespace.Put.INSTANCE);
        LifecycleFixtures.awaitAllFreed(testKit, working);

        List<String> expected = List.of(
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
                "net_free a");
        assertEquals("cleanup_net", expected, withoutInits(cleaned));
        assertEquals("the undo of setup_net, over the ops that were set up", expected, withoutInits(undone));
    }

    /** An op whose exit never completes for netns 1 until {@code gate} opens; it records its exit_batch ids. */
    private static PernetOperations stuckFor(long stuckId, AtomicBoolean gate, List<List<Long>> batches) {
        return new PernetOperations() {
            @Override
            public String name() {
                return "stuck";
            }

            @Override
            public void init(Net net) {}

            @Override
            public ExitAction exit(Net net) {
                return net.id() == stuckId ? new ExitAction.RetryUntil(gate::get) : ExitAction.DONE;
            }

            @Override
            public void exitBatch(List<Long> netnsIds) {
                batches.add(netnsIds);
            }
        };
    }

    @Test
    public void aBatchGivesUpOnANetnsThatDoesNotFinishItsExitInTimeAndFinishesWithoutIt() {
        AtomicBoolean gate = new AtomicBoolean();
        List<List<Long>> batches = new CopyOnWriteArrayList<>();
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.NET_MUTEX, SockInuseFree.NET_FREE),
                List.of(stuckFor(1, gate, batches)),
                probe,
                NamespaceSupervisor.GROUP_SIZE,
                Optional.of(Duration.ofMillis(300))));
        NetnsHandle stuck = (NetnsHandle) LifecycleFixtures.create(testKit, sup);
        NetnsHandle other = (NetnsHandle) LifecycleFixtures.create(testKit, sup);
        TestProbe<Done> released = testKit.createTestProbe();
        LoggingTestKit.error("no answer within PT0.3S from netns [1] to its exit of op stuck")
                .expect(testKit.system(), () -> {
                    stuck.actor().tell(NetNamespace.Put.INSTANCE);
                    sup.tell(new NamespaceSupervisor.ReleaseNetns(other.id(), released.getRef()));
                    return null;
                });
        released.expectMessage(WAIT, Done.getInstance()); // the other netns reached net_free
        assertEquals("the stuck netns is left alive, and counted", 1, LifecycleFixtures.countLive(testKit, sup));
        assertEquals(1, probe.freed());
        List<Long> seen = new ArrayList<>();
        batches.forEach(seen::addAll);
        assertEquals(
                "exit_batch ran for both, in one batch or two",
                List.of(1L, 2L),
                seen.stream().sorted().toList());
        // The batch released net_mutex: a creation is answered.
        assertEquals(3, ((NetnsHandle) LifecycleFixtures.create(testKit, sup)).id());
        gate.set(true); // its late answer goes to a batch that has finished
    }
}
