package org.netnslab.netns;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.netnslab.netns.LifecycleFixtures.WAIT;
import static org.netnslab.netns.LifecycleFixtures.design;

import akka.Done;
import akka.actor.ActorPath;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.sockinuse.SockInuseFree;
import org.scalatestplus.junit.JUnitSuite;

/** supervisor -> group -> netns: the population is spread over groups of at most the group size. */
public class NetnsGroupTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static int countGroups(ActorRef<NamespaceSupervisor.Command> sup) {
        TestProbe<Integer> p = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.CountGroups(p.getRef()));
        return p.receiveMessage(WAIT);
    }

    @Test
    public void twentyFiveNetnsInGroupsOfTenTakeThreeGroupsAndAreAllReleasedAndFreed() {
        LifecycleRecorder probe = new LifecycleRecorder();
        ActorRef<NamespaceSupervisor.Command> sup = testKit.spawn(NamespaceSupervisor.create(
                design(LifecycleLock.RWSEM, SockInuseFree.NET_FREE),
                StandardPernetOps.all(),
                probe,
                10,
                Optional.empty()));
        List<NetnsHandle> all = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            all.add((NetnsHandle) LifecycleFixtures.create(testKit, sup));
        }
        Map<ActorPath, Long> perGroup =
                all.stream().collect(Collectors.groupingBy(h -> h.actor().path().parent(), Collectors.counting()));
        assertEquals(
                List.of(10L, 10L, 5L),
                perGroup.values().stream().sorted(Comparator.reverseOrder()).toList());
        perGroup.keySet().forEach(group -> {
            assertTrue(group.name(), group.name().startsWith("group-"));
            assertEquals("a group is the supervisor's child", sup.path(), group.parent());
        });
        assertEquals(3, countGroups(sup));
        assertEquals(25, LifecycleFixtures.countLive(testKit, sup));

        TestProbe<Done> released = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.ReleaseAll(released.getRef()));
        released.expectMessage(WAIT, Done.getInstance());
        assertEquals(0, LifecycleFixtures.countLive(testKit, sup));
        assertEquals(25, probe.freed());
        assertEquals("empty groups stop, but for one that takes the next netns", 1, countGroups(sup));
        NetnsHandle next = (NetnsHandle) LifecycleFixtures.create(testKit, sup);
        assertEquals(26, next.id());
        assertEquals(1, countGroups(sup));
    }
}
