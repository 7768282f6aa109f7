package org.netnslab;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcEvents;
import org.scalatestplus.junit.JUnitSuite;

/** The client's proc connector lookup: asked when needed, not kept when it failed; publish never blocks. */
public class NetnsLabClientTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static ProcEvent exit(int pid) {
        return new ProcEvent(ProcEvents.EXIT, 0, 0, 0, pid, pid, 0, 0, 17);
    }

    @Test
    public void aFailedLookupIsAskedAgainAndPublishKeepsTheCallersOrderWithoutBlocking() throws Exception {
        TestProbe<NamespaceSupervisor.Command> supervisor = testKit.createTestProbe();
        TestProbe<ProcConnector.Command> connector = testKit.createTestProbe();
        NetnsLab.Client client = NetnsLab.client(testKit.system(), supervisor.ref(), Duration.ofMillis(300));
        supervisor.expectNoMessage(Duration.ofMillis(50)); // nothing is asked before it is needed

        // 1. The supervisor never answers: the publish returns at once, then fails with the ask timeout.
        CompletableFuture<Done> first = client.publishProcEvent(exit(1)).toCompletableFuture();
        assertFalse("publish does not wait for the lookup", first.isDone());
        supervisor.expectMessageClass(NamespaceSupervisor.GetProcConnector.class);
        try {
            first.get(10, TimeUnit.SECONDS);
            throw new AssertionError("the first publish should fail: its lookup was not answered");
        } catch (ExecutionException e) {
            assertEquals(TimeoutException.class, e.getCause().getClass());
        }

        // 2. The next calls ask again (the failure is not kept); their events wait, in order, for the answer.
        CompletableFuture<Done> second = client.publishProcEvent(exit(2)).toCompletableFuture();
        CompletableFuture<Done> third = client.publishProcEvent(exit(3)).toCompletableFuture();
        NamespaceSupervisor.GetProcConnector ask =
                supervisor.expectMessageClass(NamespaceSupervisor.GetProcConnector.class);
        supervisor.expectNoMessage(Duration.ofMillis(50)); // one lookup for both
        assertFalse(second.isDone());
        ask.replyTo().tell(connector.ref());
        assertEquals(Done.getInstance(), second.get(10, TimeUnit.SECONDS));
        assertEquals(Done.getInstance(), third.get(10, TimeUnit.SECONDS));
        assertEquals(
                2,
                connector
                        .expectMessageClass(ProcConnector.Publish.class)
                        .event()
                        .pid());
        assertEquals(
                3,
                connector
                        .expectMessageClass(ProcConnector.Publish.class)
                        .event()
                        .pid());

        // 3. Once known, the connector is kept: no more lookups, the event is handed over at once.
        assertTrue(client.publishProcEvent(exit(4)).toCompletableFuture().isDone());
        assertEquals(
                4,
                connector
                        .expectMessageClass(ProcConnector.Publish.class)
                        .event()
                        .pid());
        supervisor.expectNoMessage(Duration.ofMillis(50));
    }
}
