package org.netnslab.rcu;

import static org.junit.Assert.assertEquals;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class RcuDomainTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static ActorRef<RcuDomain.Command> domain(Duration gp) {
        return testKit.spawn(RcuDomain.create(gp, Duration.ofMillis(1)));
    }

    private static RcuDomain.Stats stats(ActorRef<RcuDomain.Command> rcu) {
        TestProbe<RcuDomain.Stats> p = testKit.createTestProbe();
        rcu.tell(new RcuDomain.GetStats(p.getRef()));
        return p.receiveMessage();
    }

    @Test
    public void synchronizeCompletesBeforeTheCallbacksOfItsGracePeriodRun() {
        ActorRef<RcuDomain.Command> rcu = domain(Duration.ofMillis(100));
        TestProbe<Object> events = testKit.createTestProbe();
        ActorRef<Object> ref = events.getRef();
        TestProbe<Done> first = testKit.createTestProbe();
        rcu.tell(new RcuDomain.Synchronize(false, first.getRef())); // grace period 1 starts now
        // both arrive during grace period 1, so both wait for grace period 2
        rcu.tell(new RcuDomain.CallRcu(() -> ref.tell("callback")));
        rcu.tell(new RcuDomain.Synchronize(false, ref.narrow()));
        first.expectMessage(Done.getInstance());
        events.expectMessage(Done.getInstance());
        events.expectMessage("callback");
        assertEquals(2, stats(rcu).gracePeriods());
    }

    @Test
    public void callbacksQueuedBeforeABarrierHaveRunWhenItCompletes() {
        ActorRef<RcuDomain.Command> rcu = domain(Duration.ofMillis(2));
        List<Integer> ran = new CopyOnWriteArrayList<>();
        TestProbe<Done> barrier = testKit.createTestProbe();
        for (int i = 0; i < 3; i++) {
            int n = i;
            rcu.tell(new RcuDomain.CallRcu(() -> ran.add(n)));
        }
        rcu.tell(new RcuDomain.Barrier(barrier.getRef()));
        barrier.expectMessage(Done.getInstance());
        assertEquals("run in the order queued", List.of(0, 1, 2), ran);
        RcuDomain.Stats s = stats(rcu);
        assertEquals(3, s.callbacksInvoked());
        assertEquals(1, s.barrierCalls());
        assertEquals(0, s.synchronizeCalls());
    }

    @Test
    public void barrierWithNothingQueuedCompletesWithoutAGracePeriod() {
        ActorRef<RcuDomain.Command> rcu = domain(Duration.ofHours(1));
        TestProbe<Done> barrier = testKit.createTestProbe();
        rcu.tell(new RcuDomain.Barrier(barrier.getRef()));
        barrier.expectMessage(Done.getInstance());
        assertEquals(0, stats(rcu).gracePeriods());
    }

    @Test
    public void waitersThatArriveBeforeAGracePeriodStartsShareIt() {
        ActorRef<RcuDomain.Command> rcu = domain(Duration.ofMillis(20));
        TestProbe<Done> a = testKit.createTestProbe();
        rcu.tell(new RcuDomain.Synchronize(false, a.getRef()));
        rcu.tell(new RcuDomain.Synchronize(false, a.getRef()));
        rcu.tell(new RcuDomain.Synchronize(true, a.getRef()));
        a.receiveSeveralMessages(3);
        RcuDomain.Stats s = stats(rcu);
        assertEquals("the first started a grace period, the other two shared the next", 2, s.gracePeriods());
        assertEquals(3, s.synchronizeCalls());
    }

    @Test
    public void aReaderInsideItsSectionHoldsTheGracePeriodOpen() {
        ActorRef<RcuDomain.Command> rcu = domain(Duration.ZERO);
        TestProbe<Done> sync = testKit.createTestProbe();
        rcu.tell(new RcuDomain.ReadLock(7));
        rcu.tell(new RcuDomain.Synchronize(false, sync.getRef()));
        sync.expectNoMessage(Duration.ofMillis(100));
        rcu.tell(new RcuDomain.ReadLock(8)); // started after the grace period: does not hold it
        rcu.tell(new RcuDomain.ReadUnlock(7));
        sync.expectMessage(Done.getInstance());
    }

    @Test
    public void aCallbackThatThrowsIsCountedAndTheDomainGoesOn() {
        ActorRef<RcuDomain.Command> rcu = domain(Duration.ZERO);
        TestProbe<Done> barrier = testKit.createTestProbe();
        rcu.tell(new RcuDomain.CallRcu(() -> {
            throw new IllegalStateException("boom");
        }));
        rcu.tell(new RcuDomain.Barrier(barrier.getRef()));
        barrier.expectMessage(Done.getInstance());
        assertEquals(1, stats(rcu).callbackFailures());
    }
}
