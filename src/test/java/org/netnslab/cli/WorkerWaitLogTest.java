package org.netnslab.cli;

import static org.junit.Assert.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A worker waiting for an absent coordinator: Akka's warnings about it (could not join, handshake timed out, naming
 * Artery's exception class) are dropped, and the wait is said in words at most once a minute; other warnings, and the
 * same ones once the node has joined, pass.
 */
public class WorkerWaitLogTest extends JUnitSuite {
    private static final String JOIN = "127.0.0.1:25999";
    private static final String NO_JOIN = "Cluster Node [akka://netns-lab-cluster@127.0.0.1:40885] - Couldn't join"
            + " seed nodes after [2] attempts, will try again. seed-nodes=[akka://netns-lab-cluster@127.0.0.1:25999]";
    private static final String NO_HANDSHAKE = "Outbound control stream to [akka://netns-lab-cluster@127.0.0.1:25999]"
            + " failed. Restarting it. akka.remote.artery.OutboundHandshake$HandshakeTimeoutException: Handshake with"
            + " [akka://netns-lab-cluster@127.0.0.1:25999] did not complete within 20000 ms";

    private final LoggerContext context = new LoggerContext();
    private final List<String> said = new ArrayList<>();
    private final long[] now = {1_000};
    private final WorkerWaitLog log = new WorkerWaitLog(said::add, () -> now[0]);

    private FilterReply warn(String logger, String message) {
        return log.decide(null, context.getLogger(logger), Level.WARN, message, null, null);
    }

    @Test
    public void theWaitIsSaidInWordsOnceAMinuteAndAkkasWarningsOfItAreDropped() {
        log.waiting("akka://netns-lab-cluster@127.0.0.1:40885", JOIN);
        assertEquals(FilterReply.DENY, warn("akka.cluster.Cluster", NO_JOIN));
        assertEquals(FilterReply.DENY, warn("akka.remote.artery.Association", NO_HANDSHAKE));
        assertEquals(List.of(), said);
        now[0] += WorkerWaitLog.EVERY_NANOS;
        assertEquals(FilterReply.DENY, warn("akka.cluster.Cluster", NO_JOIN));
        now[0] += WorkerWaitLog.EVERY_NANOS / 2;
        assertEquals(FilterReply.DENY, warn("akka.remote.artery.Association", NO_HANDSHAKE));
        now[0] += WorkerWaitLog.EVERY_NANOS;
        assertEquals(FilterReply.DENY, warn("akka.cluster.Cluster", NO_JOIN));
        assertEquals(
                List.of(
                        "worker akka://netns-lab-cluster@127.0.0.1:40885: still no coordinator at 127.0.0.1:25999"
                                + " (waiting 1 min)",
                        "worker akka://netns-lab-cluster@127.0.0.1:40885: still no coordinator at 127.0.0.1:25999"
                                + " (waiting 2 min)"),
                said);
    }

    @Test
    public void otherWarningsAndThoseAfterTheNodeJoinedPass() {
        assertEquals("not waiting", FilterReply.NEUTRAL, warn("akka.cluster.Cluster", NO_JOIN));
        log.waiting("akka://netns-lab-cluster@127.0.0.1:40885", JOIN);
        assertEquals(
                "another address",
                FilterReply.NEUTRAL,
                warn("akka.cluster.Cluster", NO_JOIN.replace("25999]", "25998]")));
        assertEquals(
                "another warning",
                FilterReply.NEUTRAL,
                warn("akka.remote.artery.Association", "Outbound message stream to [akka://x@" + JOIN + "] failed"));
        log.joined();
        assertEquals("joined", FilterReply.NEUTRAL, warn("akka.remote.artery.Association", NO_HANDSHAKE));
        now[0] += 2 * WorkerWaitLog.EVERY_NANOS;
        assertEquals(FilterReply.NEUTRAL, warn("akka.cluster.Cluster", NO_JOIN));
        assertEquals(List.of(), said);
    }
}
