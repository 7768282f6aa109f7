package org.netnslab;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.stream.javadsl.Sink;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.netns.CreateResult;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.proc.ProcEvents;
import org.netnslab.uevent.Received;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/** NetnsLab.start: unique names, and the stop protocol (answers, failed streams, no actor left). */
public class NetnsLabStopTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final UserNamespace USERNS = UserNamespace.INIT.createChild(1, 1000);

    /** A design whose setup_net holds net_mutex for 10 s: a second creation waits for the lock meanwhile. */
    private static Config slowSetup() {
        return ConfigFactory.parseString("""
        netns-lab.embedded.design = slow-setup
        netns-lab.designs.slow-setup { netns { lifecycle-lock = net-mutex, setup-cost = 10s } }
        """)
                .withFallback(testKit.system().settings().config());
    }

    /**
     * The actors of the system actor {@code name} and all below it, read from ActorSystem.printTree (one
     * line per live actor, children indented under their parent); 0 when it is not there.
     */
    private static long actorsOf(String name) {
        List<String> lines = testKit.system().printTree().lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("-> " + name + " ")) {
                int depth = lines.get(i).indexOf("-> ");
                long count = 1;
                for (int j = i + 1; j < lines.size() && lines.get(j).indexOf("-> ") > depth; j++) {
                    count++;
                }
                return count;
            }
        }
        return 0;
    }

    /** @return why {@code stage} failed, within 10 s; an AssertionError when it completes or does neither */
    static Throwable failure(CompletionStage<?> stage) throws InterruptedException {
        try {
            stage.toCompletableFuture().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the stage neither completed nor failed in " + TIMEOUT, e);
        }
        throw new AssertionError("the stage completed; a failure was expected");
    }

    @Test
    public void twoInstancesInOneSystemGetUniqueNamesAndStopIndependently() throws Exception {
        Config config = testKit.system().settings().config();
        NetnsLab.Instance a = NetnsLab.start(testKit.system(), config, TIMEOUT);
        NetnsLab.Instance b = NetnsLab.start(testKit.system(), config, TIMEOUT);
        assertNotEquals(a.name(), b.name());
        assertTrue(a.name(), a.name().matches("netns-lab-\\d+"));
        NetnsHandle na = a.client().createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
        NetnsHandle nb = b.client().createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals("ids are per supervisor", 1, na.id());
        assertEquals(1, nb.id());
        a.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
        // b is untouched: its netns still takes a listener and a release
        assertEquals(
                Done.getInstance(),
                b.client().releaseNetns(nb.id()).toCompletableFuture().get(10, TimeUnit.SECONDS));
        b.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    public void stopAnswersPendingCreationsFailsOpenStreamsAndLeavesNoActorBehind() throws Exception {
        NetnsLab.Instance lab = NetnsLab.start(testKit.system(), slowSetup(), TIMEOUT);
        NetnsLab.Client client = lab.client();

        TestProbe<CreateResult> creator = testKit.createTestProbe();
        lab.supervisor().tell(new NamespaceSupervisor.CreateNetns(USERNS, creator.ref()));
        // setup_net of netns 1 holds net_mutex for 10 s; netns 2 waits for the lock; the client's one too
        TestProbe<CreateResult> waiting = testKit.createTestProbe();
        lab.supervisor().tell(new NamespaceSupervisor.CreateNetns(USERNS, waiting.ref()));
        CompletionStage<NetnsHandle> pending = client.createNetns(USERNS);
        CompletionStage<Done> release = client.releaseNetns(1); // put_net of netns 1, waiting for its setup_net
        var joined = client.procEvents(
                        Credentials.root(UserNamespace.INIT, 0), ProcEvents.NONZERO_EXIT, SocketOptions.DEFAULT)
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        CompletionStage<List<org.netnslab.proc.ProcReceived>> procStream =
                joined.events().runWith(Sink.seq(), testKit.system());
        long before = actorsOf(lab.name());
        // supervisor, rcu, uevent-sock-owner, cleanup-net, proc-connector, group-1, netns-1
        assertEquals(testKit.system().printTree(), 7, before);

        lab.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);

        CreateResult.Failed inSetup = (CreateResult.Failed) creator.receiveMessage();
        assertEquals(1, inSetup.netnsId());
        assertTrue(inSetup.reason(), inSetup.reason().contains(lab.name() + " stopped"));
        CreateResult.Failed queued = (CreateResult.Failed) waiting.receiveMessage();
        assertTrue(queued.reason(), queued.reason().contains(lab.name() + " stopped"));
        Throwable clientFailure = failure(pending);
        assertEquals(IllegalStateException.class, clientFailure.getClass());
        // the supervisor's own answer (CreateResult.Failed, made an IllegalStateException by the client)
        assertEquals(
                "the netns-lab supervisor " + lab.name() + " stopped before this netns's setup_net finished",
                clientFailure.getMessage());
        // a reply typed Done cannot carry a failure: the client fails it when the supervisor has stopped
        assertEquals(
                "netns-lab " + lab.name() + " stopped: the request was not answered",
                failure(release).getMessage());
        assertEquals("the proc connector stopped", failure(procStream).getMessage());
        // a request after the stop fails at once, never after an ask timeout
        CompletableFuture<NetnsHandle> after = client.createNetns(USERNS).toCompletableFuture();
        assertTrue(after.isCompletedExceptionally());
        assertEquals(
                "netns-lab " + lab.name() + " is stopped: the request was not sent",
                failure(after).getMessage());
        assertEquals(
                "netns-lab " + lab.name() + " is stopped: the request was not sent",
                failure(client.publishProcEvent(new org.netnslab.proc.ProcEvent(
                                org.netnslab.proc.ProcEvents.FORK, 0, 0, 0, 42, 42, 1, 0, 0)))
                        .getMessage());
        // the supervisor's own cell goes right after its PostStop
        testKit.createTestProbe().awaitAssert(Duration.ofSeconds(10), () -> {
            assertEquals(testKit.system().printTree(), 0, actorsOf(lab.name()));
            return null;
        });
    }

    @Test
    public void anOpenUeventListenerFailsNamingTheStop() throws Exception {
        NetnsLab.Instance lab =
                NetnsLab.start(testKit.system(), testKit.system().settings().config(), TIMEOUT);
        NetnsHandle netns =
                lab.client().createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
        var listener = lab.client()
                .uevents(netns, SocketOptions.DEFAULT)
                .toMat(Sink.<Received>seq(), akka.stream.javadsl.Keep.both())
                .run(testKit.system());
        listener.first().toCompletableFuture().get(10, TimeUnit.SECONDS); // bound
        lab.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
        Throwable e = failure(listener.second());
        assertEquals(IllegalStateException.class, e.getClass());
        assertEquals(
                "netns 1 stopped while this listener was open (its supervisor " + lab.name()
                        + " stopped, or the netns actor failed)",
                e.getMessage());
        assertTrue(netns.isFreed());
    }

    @Test
    public void ueventsOnAFreedNetnsFailAtOnceNamingItsIdAndFreed() throws Exception {
        NetnsLab.Instance lab =
                NetnsLab.start(testKit.system(), testKit.system().settings().config(), TIMEOUT);
        NetnsHandle netns =
                lab.client().createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
        lab.client().releaseNetns(netns.id()).toCompletableFuture().get(10, TimeUnit.SECONDS); // net_free reached
        assertTrue("freed completes before the release is answered", netns.isFreed());
        var listener = lab.client()
                .uevents(netns, SocketOptions.DEFAULT)
                .toMat(Sink.<Received>seq(), akka.stream.javadsl.Keep.both())
                .run(testKit.system());
        assertTrue("bound fails at once", listener.first().toCompletableFuture().isCompletedExceptionally());
        Throwable e = failure(listener.second());
        assertEquals("netns 1 is freed (net_free reached, or its supervisor stopped)", e.getMessage());
        CompletableFuture<?> inject = lab.client()
                .inject(
                        netns,
                        Credentials.root(USERNS, 1000),
                        "add@/x\0ACTION=add\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .toCompletableFuture();
        assertTrue("an injection into it fails at once too", inject.isCompletedExceptionally());
        assertFalse(lab.whenTerminated().toCompletableFuture().isDone());
        lab.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
