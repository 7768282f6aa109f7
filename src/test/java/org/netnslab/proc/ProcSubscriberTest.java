package org.netnslab.proc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.typed.ActorRef;
import akka.stream.javadsl.Sink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

public class ProcSubscriberTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final Credentials ROOT = Credentials.root(UserNamespace.INIT, 0);

    private static ActorRef<ProcConnector.Command> connector() {
        return testKit.spawn(
                ProcConnector.create(ProcConnector.Filter.PER_LISTENER, ProcListenerTable.Accounting.PER_SOCKET, 2));
    }

    private static ProcConnector.Joined listen(
            ActorRef<ProcConnector.Command> pc, Credentials caller, Integer mask, Duration timeout) throws Exception {
        return ProcSubscriber.listen(pc, caller, mask, 16, timeout, testKit.scheduler())
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    public void aSubscriptionIsAcknowledgedAndGetsWhatItsMaskAsksFor() throws Exception {
        ActorRef<ProcConnector.Command> pc = connector();
        ProcConnector.Joined joined = listen(pc, ROOT, ProcEvents.EXIT, Duration.ofSeconds(5));
        CompletionStage<List<ProcReceived>> got = joined.events().take(1).runWith(Sink.seq(), testKit.system());
        List<ProcEvent> events = ProcessTable.shortLived(1, 0);
        ProcessTable.publish(events, pc);
        ProcEvent exit = ((ProcReceived.Event)
                        got.toCompletableFuture().get(10, TimeUnit.SECONDS).get(0))
                .event();
        assertEquals(ProcEvents.EXIT, exit.what());
        assertEquals(ProcessTable.FIRST_PID, exit.pid());
    }

    @Test
    public void outsideTheInitialUserNamespaceTheSubscriptionIsIgnoredAndTheStageTimesOut() throws Exception {
        Credentials child = Credentials.root(UserNamespace.INIT.createChild(7, 1000), 1000);
        try {
            listen(connector(), child, null, Duration.ofMillis(300));
            throw new AssertionError("the kernel acknowledges no subscription from outside the initial user namespace");
        } catch (ExecutionException e) {
            assertTrue(e.getCause().toString(), e.getCause() instanceof TimeoutException);
        }
    }

    /**
     * Before v6.6 (cn_proc_mcast_ctl up to v6.5) the connector reads only the 4-byte LISTEN: a masked subscription is
     * ignored without an answer, so the wait ends in a timeout that names it; the legacy form is acknowledged.
     */
    @Test
    public void beforeV66AMaskedSubscriptionTimesOutNamingWhyAndTheLegacyOneIsAcknowledged() throws Exception {
        ActorRef<ProcConnector.Command> old = testKit.spawn(
                ProcConnector.create(ProcConnector.Filter.NONE, ProcListenerTable.Accounting.GLOBAL_COUNT, 2));
        try {
            listen(old, ROOT, ProcEvents.EXIT, Duration.ofMillis(300));
            throw new AssertionError("a connector before v6.6 acknowledged a masked subscription");
        } catch (ExecutionException e) {
            assertTrue(e.getCause().toString(), e.getCause() instanceof TimeoutException);
            assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("accounting = global-count"));
            assertTrue(
                    e.getCause().getMessage(), e.getCause().getMessage().endsWith("asked for mask " + ProcEvents.EXIT));
        }
        assertEquals(
                "the second socket bound, acknowledged",
                2L,
                listen(old, ROOT, null, Duration.ofSeconds(5)).socket());
    }

    @Test
    public void whenTheConnectorStopsItsListenersStreamsFailInsteadOfHanging() throws Exception {
        ActorRef<ProcConnector.Command> pc = connector();
        ProcConnector.Joined joined = listen(pc, ROOT, null, Duration.ofSeconds(5));
        CompletionStage<List<ProcReceived>> all = joined.events().runWith(Sink.seq(), testKit.system());
        testKit.stop(pc);
        try {
            all.toCompletableFuture().get(10, TimeUnit.SECONDS);
            throw new AssertionError("the stream completed as if the socket had been closed");
        } catch (ExecutionException e) {
            assertEquals("the proc connector stopped", e.getCause().getMessage());
        }
    }
}
