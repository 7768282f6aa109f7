package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.netnslab.calibrate.CostFit.Fitted;
import org.scalatestplus.junit.JUnitSuite;

public class SwitchFitTest extends JUnitSuite {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long[] RINGS = {2, 10, 100, 300, 1000, 3000};

    private static ObjectNode ring(long k, double hopNs) {
        ObjectNode l = JSON.createObjectNode();
        l.put("probe", "sched")
                .put("set", "fit")
                .put("load", "ring")
                .put("tasks", k)
                .put("hop_p50_ns", hopNs + 700);
        l.put("hop_min_ns", hopNs); // the fit's figure: the p50 is there to be passed over
        return l;
    }

    /** The grid's knee number g for rings up to {@code top} tasks, as the fit spaces them. */
    private static double knee(int g, double top) {
        return Math.round(2 * Math.pow(top / 2, g / (double) (SwitchFit.KNEES - 1)));
    }

    /** Hops made by the form with a knee on the fit's grid: the fit gives the three values back. */
    @Test
    public void ringsMadeByTheFormGiveItsValuesBack() {
        double cached = knee(120, 3000);
        List<ObjectNode> lines = new ArrayList<>();
        for (long k : RINGS) {
            double extra = k == 2 ? 0 : 1_900 + 6_600 * Math.max(0, 1 - cached / k);
            lines.add(ring(k, 2_500 + extra));
        }
        Map<String, Fitted> costs = new HashMap<>();
        Map<String, String> unfitted = new HashMap<>();
        SwitchFit.fit(lines, costs, unfitted);
        assertTrue(unfitted.toString(), unfitted.isEmpty());
        assertEquals(1_900, costs.get(SwitchFit.BASE).value(), 1e-6);
        assertEquals(6_600, costs.get(SwitchFit.EVICTED).value(), 1e-6);
        assertEquals(cached, costs.get(SwitchFit.CACHED).value(), 0);
        assertEquals(5, costs.get(SwitchFit.BASE).points());
    }

    /**
     * calibrated.conf carries the fitted values in the machine block, rounded, and the configuration reader gives them
     * back as the machine's cold switch.
     */
    @Test
    public void calibratedConfCarriesTheFitToTheMachine() {
        double cached = knee(120, 3000);
        List<ObjectNode> lines = new ArrayList<>();
        for (long k : RINGS) {
            lines.add(ring(k, 2_500 + (k == 2 ? 0 : 1_900.4 + 6_600 * Math.max(0, 1 - cached / k))));
        }
        HostFacts host =
                new HostFacts("6.18.44-test", 2, 250, "none", 1_500_000, "derived", 0.0, null, null, null, null);
        com.typesafe.config.Config conf = com.typesafe.config.ConfigFactory.parseString(
                        CalibratedConf.text(host, CostFit.fit(lines)))
                .withFallback(com.typesafe.config.ConfigFactory.defaultReference())
                .resolve();
        assertEquals(
                new org.netnslab.machine.ColdSwitch(1_900, 6_600, Math.round(cached)),
                org.netnslab.run.Execution.scheduling(conf.getConfig("netns-lab.machine"))
                        .coldSwitch());
    }

    /** Several runs of one size count by their median; a size's outlier run does not move the fit. */
    @Test
    public void eachSizeCountsByItsMedian() {
        List<ObjectNode> lines = new ArrayList<>();
        for (long k : RINGS) {
            double hop = 2_500 + (k == 2 ? 0 : 3_000);
            lines.add(ring(k, hop));
            lines.add(ring(k, hop));
            lines.add(ring(k, hop * 5)); // one slow run of each size
        }
        Map<String, Fitted> costs = new HashMap<>();
        SwitchFit.fit(lines, costs, new HashMap<>());
        assertEquals(
                3_000,
                costs.get(SwitchFit.BASE).value() + costs.get(SwitchFit.EVICTED).value(),
                1e-6);
    }

    /** A line without the fastest batch (a recording before it) counts by its median batch. */
    @Test
    public void aLineWithoutItsFastestBatchCountsByItsMedian() {
        List<ObjectNode> lines = new ArrayList<>();
        for (long k : RINGS) {
            ObjectNode l = ring(k, 2_500 + (k == 2 ? 0 : 3_000));
            l.remove("hop_min_ns");
            lines.add(l);
        }
        Map<String, Fitted> costs = new HashMap<>();
        SwitchFit.fit(lines, costs, new HashMap<>());
        assertEquals(
                3_000,
                costs.get(SwitchFit.BASE).value() + costs.get(SwitchFit.EVICTED).value(),
                1e-6);
    }

    /** Without a ring of 2, with too few sizes, or with no ring at all, the three keys are NOT FITTED, saying why. */
    @Test
    public void withoutEnoughRingsNothingIsFitted() {
        Map<List<ObjectNode>, String> cases = Map.of(
                List.of(), "no sched_probe ring line",
                List.of(ring(10, 4_000), ring(100, 4_500), ring(1000, 9_000)), "no ring of 2 tasks",
                List.of(ring(2, 2_500), ring(100, 4_500), ring(1000, 9_000)), "rings of [2, 100, 1000] tasks");
        for (Map.Entry<List<ObjectNode>, String> c : cases.entrySet()) {
            Map<String, Fitted> costs = new HashMap<>();
            Map<String, String> unfitted = new HashMap<>();
            SwitchFit.fit(c.getKey(), costs, unfitted);
            assertTrue(costs.isEmpty());
            for (String k : List.of(SwitchFit.BASE, SwitchFit.EVICTED, SwitchFit.CACHED)) {
                assertTrue(k + ": " + unfitted.get(k), unfitted.get(k).startsWith(c.getValue()));
            }
        }
    }

    /** Hops that fall with K give no negative part: both parts stay at 0 or above. */
    @Test
    public void fallingHopsGiveNoNegativePart() {
        List<ObjectNode> lines = new ArrayList<>();
        for (long k : RINGS) {
            lines.add(ring(k, 5_000 - k)); // every larger ring cheaper
        }
        Map<String, Fitted> costs = new HashMap<>();
        SwitchFit.fit(lines, costs, new HashMap<>());
        assertEquals(0, costs.get(SwitchFit.BASE).value(), 0);
        assertEquals(0, costs.get(SwitchFit.EVICTED).value(), 0);
    }
}
