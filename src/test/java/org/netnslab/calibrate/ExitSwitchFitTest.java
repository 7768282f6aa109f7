package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code costs.proc.exit-switch} from proc_probe fit's placed runs: an EXIT-only listener's CPU per wake-up beside its
 * spawner less apart, medians; and the unplaced runs alone fit recvmsg and wakeup.
 */
public class ExitSwitchFitTest extends JUnitSuite {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Lone listeners at 6 us an event and 4 a wake-up, for recvmsg and wakeup. */
    private static List<ObjectNode> lone() {
        List<ObjectNode> lines = new ArrayList<>();
        for (long[] ew : new long[][] {{300, 300}, {300, 100}, {100, 100}, {100, 20}}) {
            lines.add(line(ew[0], ew[1], 6000 * ew[0] + 4000 * ew[1], 1));
        }
        return lines;
    }

    @Test
    public void theChargeIsTheMedianBesideLessTheMedianApart() throws Exception {
        List<ObjectNode> lines = lone();
        // beside: 16.2, 17.6 and 25.8 us a wake-up (median 17.6); apart: 9.3, 10.4 and 13.9 (median 10.4)
        for (long[] ba : new long[][] {{16_200, 9_300}, {25_800, 13_900}, {17_600, 10_400}}) {
            lines.add(placed("beside", "exit", 400, ba[0]));
            lines.add(placed("beside", "all", 1200, 10_000)); // its companion apart: not read
            lines.add(placed("apart", "exit", 500, ba[1]));
            lines.add(placed("apart", "all", 1200, 10_000));
        }
        CostFit fit = CostFit.fit(lines);
        assertEquals(7200.0, fit.costs().get(ProcFit.EXIT_SWITCH).value(), 1e-6);
        assertEquals(6, fit.costs().get(ProcFit.EXIT_SWITCH).points());
        assertEquals(
                "the placed runs leave recvmsg's fit alone",
                6000.0,
                fit.costs().get("costs.proc.recvmsg").value(),
                1e-6);
        assertEquals(4000.0, fit.costs().get("costs.proc.wakeup").value(), 1e-6);
    }

    @Test
    public void withoutPlacedRunsOrAChargeItIsNotFitted() throws Exception {
        CostFit none = CostFit.fit(lone());
        assertFalse(none.costs().containsKey(ProcFit.EXIT_SWITCH));
        assertEquals(
                "proc_probe fit has no EXIT-only listener pinned beside its spawner and apart from it (a recording made"
                        + " before the probe pinned listeners, or a host with one CPU)",
                none.unfitted().get(ProcFit.EXIT_SWITCH));
        List<ObjectNode> lines = lone();
        lines.add(placed("beside", "exit", 400, 10_000));
        lines.add(placed("apart", "exit", 400, 11_000));
        CostFit below = CostFit.fit(lines);
        assertFalse(below.costs().containsKey(ProcFit.EXIT_SWITCH));
        assertTrue(
                below.unfitted().get(ProcFit.EXIT_SWITCH),
                below.unfitted()
                        .get(ProcFit.EXIT_SWITCH)
                        .startsWith("proc_probe fit: an EXIT-only listener beside its spawner paid 10000 ns a wake-up,"
                                + " not above the 11000 ns of one apart"));
    }

    @Test
    public void aListenerLinesWakeUpsAndPlacementAreChecked() {
        ObjectNode ok = placed("beside", "exit", 400, 10_000);
        assertEquals(null, RecordingCheck.badListener("proc/listener", "fit", ok));
        assertEquals(
                "placement must be \"apart\" or \"beside\", got \"near\"",
                RecordingCheck.badListener("proc/listener", "fit", placed("near", "exit", 1, 1)));
        assertEquals(
                "placement is allowed only on a fit-set proc listener line (proc_probe fit's pinned runs)",
                RecordingCheck.badListener("proc/listener", "prediction", ok));
        assertEquals(
                "listeners_at_once (3) must be 2 on a placed line (proc_probe fit pins an EXIT-only listener and an"
                        + " all-events one)",
                RecordingCheck.badListener("proc/listener", "fit", ok.deepCopy().put("listeners_at_once", 3)));
        assertEquals(
                "wakeups (0) must be at least 1 where events (400) is: proc_probe's listener reads only after a wake-up",
                RecordingCheck.badListener("proc/listener", "fit", ok.deepCopy().put("wakeups", 0)));
        assertEquals(
                "a line with two listeners at once needs placement (\"apart\" or \"beside\": proc_probe fit's pinned"
                        + " runs)",
                RecordingCheck.notAFitLoad("proc/listener", ok.deepCopy().without("placement")));
        assertEquals("a placed fit line is a fit load", null, RecordingCheck.notAFitLoad("proc/listener", ok));
        assertTrue(RecordingCheck.notAFitLoad("proc/listener", line(1, 1, 1, 3)) != null);
    }

    private static ObjectNode placed(String where, String filter, long wakeups, long nanosPerWakeup) {
        return line(wakeups, wakeups, wakeups * nanosPerWakeup, 2)
                .put("filter", filter)
                .put("placement", where);
    }

    private static ObjectNode line(long events, long wakeups, long cpuNanos, int atOnce) {
        return JSON.createObjectNode()
                .put("probe", "proc")
                .put("set", "fit")
                .put("load", "listener")
                .put("filter", "exit")
                .put("listeners_at_once", atOnce)
                .put("events", events)
                .put("wakeups", wakeups)
                .put("cpu_ns", cpuNanos);
    }
}
