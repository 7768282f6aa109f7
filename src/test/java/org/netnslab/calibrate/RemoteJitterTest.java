package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.Test;
import org.netnslab.calibrate.CostFit.Fitted;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code machine.jitter} from uevent_probe remote (a sender whose skbs a reader frees on another CPU) where the fit set
 * has it, else from the walk; and the remote line's own checks.
 */
public class RemoteJitterTest extends JUnitSuite {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The model's one-socket send (three steps of 3:3:1): its p99 is 0.76733 x j over its median (CostFitTest). */
    private static final double Z = 0.76733;

    private static ObjectNode walk(double p99OverP50) {
        ObjectNode n = JSON.createObjectNode();
        n.put("probe", "uevent").put("set", "fit").put("load", "broadcast-walk").put("extra_sockets", 0);
        n.put("send_p50_ns", 2000).put("send_p99_ns", 2000 * p99OverP50);
        return n.put("recv_p50_ns", 700).put("user_p50_ns", 200);
    }

    private static ObjectNode remote(double p99OverP50) {
        ObjectNode n = JSON.createObjectNode();
        n.put("probe", "uevent").put("set", "fit").put("load", "remote").put("sends", 20_000);
        n.put("send_count", 20_000).put("send_p50_ns", 1700).put("send_p99_ns", 1700 * p99OverP50);
        return n;
    }

    private static ObjectNode skipped() {
        ObjectNode n = JSON.createObjectNode();
        return n.put("probe", "uevent")
                .put("set", "fit")
                .put("load", "remote")
                .put("sends", 20_000)
                .put("skipped", "needs two CPUs");
    }

    /** @return the jitter CostFit fits on {@code lines}, or null when it fits none */
    private static Fitted jitter(List<ObjectNode> lines) {
        return CostFit.fit(lines).costs().get(CostFit.JITTER);
    }

    /** The remote lines' median spread (0.2, 0.4, 0.45 as jitters) gives 0.4; the walk's 0.25 is not used. */
    @Test
    public void theRemoteSendsSpreadGivesTheJitter() {
        Fitted j = jitter(List.of(walk(1 + 0.25 * Z), remote(1 + 0.2 * Z), remote(1 + 0.45 * Z), remote(1 + 0.4 * Z)));
        assertEquals(0.4, j.value(), 0.0002);
        assertEquals(3, j.points());
        assertTrue(
                j.source(),
                j.source()
                        .startsWith(
                                "uevent_probe remote: the send's p99 / p50 over 3 line(s) (median 1.307; its skbs freed"));
    }

    /** Without remote lines, or with only a skipped one (one CPU), the walk's spread gives it, as before. */
    @Test
    public void withoutRemoteLinesTheWalkGivesIt() {
        for (List<ObjectNode> lines : List.of(List.of(walk(1 + 0.25 * Z)), List.of(walk(1 + 0.25 * Z), skipped()))) {
            Fitted j = jitter(lines);
            assertEquals(0.25, j.value(), 0.0002);
            assertTrue(j.source().startsWith("uevent_probe fit: the send's p99 / p50"));
        }
        // the skip is said in the source
        assertTrue(jitter(List.of(walk(1 + 0.25 * Z), skipped()))
                .source()
                .endsWith("; uevent_probe remote line(s) left out: 1 skipped (needs two CPUs)"));
        // remote lines alone: no walk, so no model send to spread; nothing fitted from them
        assertTrue(jitter(List.of(remote(1.3))) == null);
    }

    /** A line whose reader fell behind (its socket overran) is left out of the fit, and the source says so. */
    @Test
    public void aLineWhoseReaderFellBehindIsLeftOut() {
        Fitted j = jitter(List.of(
                walk(1 + 0.25 * Z),
                remote(1 + 0.2 * Z),
                remote(1 + 0.3 * Z),
                remote(1 + 0.5 * Z).put("listener_overruns", 1)));
        assertEquals(0.25, j.value(), 0.0002); // the median of 0.2 and 0.3
        assertEquals(2, j.points());
        assertTrue(
                j.source(),
                j.source()
                        .endsWith(
                                "; uevent_probe remote line(s) left out: 1 whose reader fell behind (listener_overruns)"));
    }

    /** A remote line is a skip with its reason, or a send's median and p99 over one timed send per send. */
    @Test
    public void aRemoteLineIsChecked() {
        assertNull(ProbeLines.problem(new ProbeSet(List.of(remote(1.3), skipped()), List.of())));
        assertEquals(
                "fit_set[0] (uevent remote): send_count must be its sends (20000), got 7",
                ProbeLines.problem(new ProbeSet(List.of(remote(1.3).put("send_count", 7)), List.of())));
        assertEquals(
                "fit_set[0] (uevent remote): skipped must say why the probe skipped the line, got \"\"",
                ProbeLines.problem(new ProbeSet(List.of(skipped().put("skipped", "")), List.of())));
        String below = ProbeLines.problem(new ProbeSet(List.of(remote(1.3).put("send_p99_ns", 1000)), List.of()));
        assertTrue(below, below.endsWith("send_p99_ns (1000) cannot be below send_p50_ns (1700)"));
        assertEquals(
                "fit_set[0] (uevent remote): a skipped line holds no send figures, got send_p50_ns",
                ProbeLines.problem(new ProbeSet(List.of(skipped().put("send_p50_ns", 1700)), List.of())));
        assertTrue(ProbeLines.problem(new ProbeSet(List.of(remote(1.3).put("send_count", "20000")), List.of()))
                .startsWith("fit_set[0] (uevent remote): send_count must be a number"));
        assertTrue(ProbeLines.problem(new ProbeSet(List.of(remote(1.3).put("listener_overruns", -3)), List.of()))
                .startsWith("fit_set[0] (uevent remote): listener_overruns must be a number in 0.."));
        // a fit-set line is no prediction, whatever its set says
        assertEquals(
                "prediction_set[0] (uevent remote): a fit-set line, which the model does not predict (a prediction or"
                        + " unseen line is one of lifecycle/unshare-loops, proc/listener, proc/proc-scan, uevent/reorder,"
                        + " uevent/tc1)",
                ProbeLines.problem(new ProbeSet(List.of(), List.of(remote(1.3).put("set", "prediction")))));
        String none =
                ProbeLines.problem(new ProbeSet(List.of((ObjectNode) remote(1.3).without("send_p99_ns")), List.of()));
        assertTrue(none, none.startsWith("fit_set[0] (uevent remote): send_p99_ns must be a number"));
    }
}
