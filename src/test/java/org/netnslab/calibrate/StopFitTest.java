package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;
import org.netnslab.calibrate.CostFit.Fitted;
import org.scalatestplus.junit.JUnitSuite;

/** {@code costs.uevent.listener-stop} from uevent_probe stop: the mean less the context switch, and NOT FITTED. */
public class StopFitTest extends JUnitSuite {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode stop(long rounds, double meanNs) {
        ObjectNode n = JSON.createObjectNode();
        n.put("probe", "uevent").put("set", "fit").put("load", "stop").put("rounds", rounds);
        n.put("stop_cpu_count", rounds).put("stop_cpu_mean_ns", meanNs).put("stop_cpu_p50_ns", meanNs - 500);
        return n;
    }

    private static ObjectNode walk(long sockets, double sendNs) {
        ObjectNode n = JSON.createObjectNode();
        n.put("probe", "uevent").put("set", "fit").put("load", "broadcast-walk").put("extra_sockets", sockets);
        n.put("send_p50_ns", sendNs)
                .put("recv_p50_ns", 730)
                .put("user_p50_ns", 210)
                .put("handle_p50_ns", 80);
        return n;
    }

    private static Map<String, Fitted> withContextSwitch(double ns) {
        Map<String, Fitted> costs = new TreeMap<>();
        costs.put(CostFit.CONTEXT_SWITCH, new Fitted(ns, "sched_probe ctxsw", 1, Double.NaN));
        return costs;
    }

    /** Two lines' means, 9000 and 11,000 ns, less a 2400 ns switch: 7600 ns, with its source. */
    @Test
    public void theStopIsTheMeanLessTheSwitch() {
        Map<String, Fitted> costs = withContextSwitch(2400);
        Map<String, String> unfitted = new TreeMap<>();
        StopFit.fit(List.of(stop(200, 9000), stop(200, 11_000)), costs, unfitted);
        assertTrue(unfitted.toString(), unfitted.isEmpty());
        Fitted f = costs.get(StopFit.KEY);
        assertEquals(7600, f.value(), 1e-9);
        assertEquals(400, f.points());
        assertEquals(
                "uevent_probe stop (2 line(s), 400 wake-ups): the listener's CPU from its last poll to its loop's end,"
                        + " mean 10000 ns, less machine.context-switch 2400 ns",
                f.source());
    }

    /** A recording from before the probe, or one without the context switch: NOT FITTED, with the reason. */
    @Test
    public void whatCannotBeFittedSaysWhy() {
        Map<String, Fitted> costs = withContextSwitch(2400);
        Map<String, String> unfitted = new TreeMap<>();
        StopFit.fit(List.of(), costs, unfitted);
        assertFalse(costs.containsKey(StopFit.KEY));
        assertEquals(
                "no uevent_probe stop line in the fit set (recorded before the stop probe, or edited out)",
                unfitted.get(StopFit.KEY));
        unfitted.clear();
        StopFit.fit(List.of(stop(200, 9000)), new TreeMap<>(), unfitted);
        assertEquals("no machine.context-switch: the stop's switch-in is charged as one", unfitted.get(StopFit.KEY));
    }

    /** @return CostFit over a ctxsw line of this median, the walk lines and a stop of 200 rounds taking stopNs */
    private static CostFit fitWithSwitch(double switchNs, long stopNs) {
        ObjectNode ctxsw = JSON.createObjectNode();
        ctxsw.put("probe", "sched").put("set", "fit").put("load", "context-switch");
        ctxsw.put("context_switch_p50_ns", switchNs).put("context_switch_count", 5);
        return CostFit.fit(List.of(ctxsw, walk(0, 1800), walk(500, 5300), walk(1000, 8800), stop(200, stopNs)));
    }

    /** Through CostFit: a stop below the switch is refused as negative, and the default stays. */
    @Test
    public void aStopBelowTheSwitchIsRefused() {
        CostFit fit = fitWithSwitch(2400, 2000);
        assertFalse(fit.costs().containsKey(StopFit.KEY));
        assertTrue(
                fit.unfitted().get(StopFit.KEY), fit.unfitted().get(StopFit.KEY).startsWith("-400 ns, below 0"));
    }

    /**
     * Through CostFit: a task switch's median below 0 is NOT FITTED before the stop takes it off, so the stop is not
     * raised by a negative switch (9000 - (-5) ns): it says there is no switch to take off, and the default stays. A
     * median of exactly 0 ns is no switch measured, not a free one: NOT FITTED too.
     */
    @Test
    public void aTaskSwitchOf0OrBelowIsNotTakenOffTheStop() {
        CostFit fit = fitWithSwitch(-5, 9000);
        assertFalse(fit.costs().containsKey(CostFit.CONTEXT_SWITCH));
        assertTrue(
                fit.unfitted().get(CostFit.CONTEXT_SWITCH),
                fit.unfitted()
                        .get(CostFit.CONTEXT_SWITCH)
                        .startsWith("the probe's median is -5 ns, below 0 (sched_probe ctxsw"));
        assertFalse(fit.costs().containsKey(StopFit.KEY));
        assertEquals(
                "no machine.context-switch: the stop's switch-in is charged as one",
                fit.unfitted().get(StopFit.KEY));
        CostFit zero = fitWithSwitch(0, 9000);
        assertFalse("0.4 ns is written as 0", fitWithSwitch(0.4, 9000).costs().containsKey(CostFit.CONTEXT_SWITCH));
        assertFalse(zero.costs().containsKey(CostFit.CONTEXT_SWITCH));
        assertTrue(
                zero.unfitted().get(CostFit.CONTEXT_SWITCH),
                zero.unfitted()
                        .get(CostFit.CONTEXT_SWITCH)
                        .startsWith("the probe's median is 0 ns, no time: the pipe's own cost hides the switch"));
    }

    /** A recorded stop line whose count is not its rounds was edited: refused, naming the entry and the field. */
    @Test
    public void aStopLineWhoseCountIsNotItsRoundsIsRefused() {
        assertEquals(null, ProbeLines.problem(new ProbeSet(List.of(stop(200, 9000)), List.of())));
        String problem = ProbeLines.problem(new ProbeSet(List.of(stop(200, 9000).put("stop_cpu_count", 7)), List.of()));
        assertEquals("fit_set[0] (uevent stop): stop_cpu_count must be its rounds (200), got 7", problem);
    }
}
