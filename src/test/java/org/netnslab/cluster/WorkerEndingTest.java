package org.netnslab.cluster;

import static org.junit.Assert.assertEquals;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.run.RunObserver;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A worker whose coordinator finished its run without giving it a design run ends as one the coordinator needed not
 * (exit 1 with --once), not as one that served it (exit 0).
 */
public class WorkerEndingTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Test
    public void aRunDoneWithoutADesignRunHereIsNotServed() {
        TestProbe<String> said = testKit.createTestProbe();
        TestProbe<WorkerNode.Ending> ended = testKit.createTestProbe();
        ActorRef<Worker.Command> w = testKit.spawn(Worker.create(
                inputs -> null, "0.1.0", "127.0.0.1:1", said.ref()::tell, ended.ref()::tell, RunObserver.SILENT));
        w.tell(Worker.Finished.INSTANCE);
        assertEquals(
                "the coordinator's run is done, with no design run for this worker (it needed none)",
                said.receiveMessage());
        assertEquals(WorkerNode.Ending.FAILED, ended.receiveMessage());
    }
}
