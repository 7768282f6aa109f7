package org.netnslab.netns;

import static org.junit.Assert.assertEquals;
import static org.netnslab.netns.LifecycleFixtures.WAIT;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.japi.Pair;
import akka.stream.javadsl.Keep;
import akka.stream.testkit.TestSubscriber;
import akka.stream.testkit.javadsl.TestSink;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.sockinuse.SockInuseFree;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.Uevent;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A uevent listener is a user socket and holds its netns (net/core/sock.c v4.16..v5.16: sk_alloc takes
 * get_net when {@code sk_net_refcnt}, __sk_destruct drops it with put_net); uevent_net_exit
 * (lib/kobject_uevent.c) releases the kernel socket without waiting for any reader.
 */
public class ListenerReferenceTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final byte[] PAYLOAD =
            "change@/devices/virtual/net/lo\0ACTION=change\0".getBytes(StandardCharsets.US_ASCII);

    private static ActorRef<NamespaceSupervisor.Command> supervisor() {
        return testKit.spawn(NamespaceSupervisor.create(
                LifecycleFixtures.design(LifecycleLock.NET_MUTEX, SockInuseFree.OWNER_EXIT)));
    }

    private static NetnsHandle create(ActorRef<NamespaceSupervisor.Command> sup, UserNamespace owner) {
        TestProbe<CreateResult> p = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.CreateNetns(owner, p.getRef()));
        return (NetnsHandle) p.receiveMessage(WAIT);
    }

    /** A bound listener that reads only when the test asks. */
    private static TestSubscriber.Probe<Received> listener(NetnsHandle h, int capacity) throws Exception {
        Pair<CompletionStage<Done>, TestSubscriber.Probe<Received>> p = h.uevents(capacity)
                .toMat(TestSink.probe(testKit.system().classicSystem()), Keep.both())
                .run(testKit.system());
        p.first().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return p.second();
    }

    private static TestProbe<Done> release(ActorRef<NamespaceSupervisor.Command> sup, NetnsHandle h) {
        TestProbe<Done> freed = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.ReleaseNetns(h.id(), freed.getRef()));
        return freed;
    }

    @Test
    public void releasingTheCreatorsReferenceWithAListenerOpenDismantlesNothingUntilTheListenerCloses()
            throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor();
        UserNamespace owner = UserNamespace.INIT.createChild(1, 1000);
        NetnsHandle h = create(sup, owner);
        TestSubscriber.Probe<Received> listener = listener(h, 16);
        TestProbe<Done> freed = release(sup, h); // put_net by the creator: the listener's reference remains
        TestProbe<Done> allFreed = testKit.createTestProbe();
        sup.tell(new NamespaceSupervisor.AwaitAllFreed(allFreed.getRef()));
        assertEquals(1, LifecycleFixtures.countLive(testKit, sup));
        // still live, not dismantling: injections reach the listener
        TestProbe<InjectResult> acks = testKit.createTestProbe();
        h.injectRoute().inject(Credentials.root(owner, 1000), PAYLOAD, 0, acks.getRef());
        acks.expectMessage(WAIT, new InjectResult.Sent(1));
        listener.request(1);
        assertEquals(1L, ((Uevent) listener.expectNext()).seqnum());
        freed.expectNoMessage(Duration.ofMillis(50));
        allFreed.expectNoMessage(Duration.ofMillis(1));
        listener.cancel(); // close(2): the last reference goes, cleanup_net runs
        freed.expectMessage(WAIT, Done.getInstance());
        allFreed.expectMessage(WAIT, Done.getInstance());
        assertEquals(0, LifecycleFixtures.countLive(testKit, sup));
    }

    @Test
    public void aPausedListenerBlocksNeitherTheCleanupOfOtherNetnsNorCreationUnderNetMutex() throws Exception {
        ActorRef<NamespaceSupervisor.Command> sup = supervisor();
        UserNamespace owner = UserNamespace.INIT.createChild(1, 1000);
        NetnsHandle a = create(sup, owner);
        TestSubscriber.Probe<Received> paused = listener(a, 2);
        TestProbe<InjectResult> acks = testKit.createTestProbe();
        for (int i = 0; i < 5; i++) { // its queue fills; 3 drops, an ENOBUFS it has not read
            a.injectRoute().inject(Credentials.root(owner, 1000), PAYLOAD, 0, acks.getRef());
            acks.receiveMessage(WAIT);
        }
        TestProbe<Done> aFreed = release(sup, a); // A first: it must not take the cleanup worker or net_mutex
        NetnsHandle b = create(sup, UserNamespace.INIT);
        release(sup, b).expectMessage(WAIT, Done.getInstance()); // B went through cleanup_net to net_free
        NetnsHandle c = create(sup, UserNamespace.INIT); // copy_net_ns under net_mutex is answered
        release(sup, c).expectMessage(WAIT, Done.getInstance());
        assertEquals("only A, held by its paused listener, is left", 1, LifecycleFixtures.countLive(testKit, sup));
        aFreed.expectNoMessage(Duration.ofMillis(1));
        paused.cancel();
        aFreed.expectMessage(WAIT, Done.getInstance());
        LifecycleFixtures.awaitAllFreed(testKit, sup);
    }
}
