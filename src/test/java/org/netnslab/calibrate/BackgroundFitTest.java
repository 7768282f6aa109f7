package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;
import org.netnslab.calibrate.CostFit.Fitted;
import org.scalatestplus.junit.JUnitSuite;

/** {@code machine.host-background} from uevent_probe idle lines: exact recovery, medians, and when it is not fitted. */
public class BackgroundFitTest extends JUnitSuite {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double WINDOW = 6e9;

    /** An idle line: K netns, the machine busy {@code perSecond} ns a second over a 6 s window. */
    private static ObjectNode idle(long k, double perSecond) {
        ObjectNode l = JSON.createObjectNode();
        l.put("probe", "uevent");
        l.put("set", "fit");
        l.put("load", "idle");
        l.put("netns", k);
        l.put("window_ns", WINDOW);
        l.put("machine_busy_ns", perSecond * WINDOW / 1e9);
        return l;
    }

    private static List<ObjectNode> lines(double base, double perNetns, double doubling, long... ks) {
        List<ObjectNode> l = new ArrayList<>();
        l.add(idle(0, base));
        for (long k : ks) {
            l.add(idle(k, base + perNetns * k * (doubling == 0 ? 1 : 1 + k / doubling)));
        }
        return l;
    }

    private static Map<String, Fitted> fit(List<ObjectNode> lines, Map<String, String> unfitted) {
        Map<String, Fitted> costs = new TreeMap<>();
        BackgroundFit.fit(lines, costs, unfitted);
        return costs;
    }

    /** A linear host (30 us a second a netns over a 5 ms a second floor) comes back as it was, doubling 0. */
    @Test
    public void aLinearHostIsRecoveredExactly() {
        Map<String, String> unfitted = new TreeMap<>();
        Map<String, Fitted> c = fit(lines(5e6, 30_000, 0, 1000, 2000, 3000), unfitted);
        assertTrue(unfitted.toString(), unfitted.isEmpty());
        assertEquals(30_000, c.get(BackgroundFit.PER_NETNS).value(), 0);
        assertEquals(0, c.get(BackgroundFit.DOUBLING).value(), 0);
        assertEquals(3, c.get(BackgroundFit.PER_NETNS).points());
    }

    /** A doubling count on the fit's grid, and the per-netns cost, come back exactly. */
    @Test
    public void aGrowingHostIsRecoveredExactly() {
        double d = Math.round(Math.pow(1e6, 100 / (double) (BackgroundFit.DOUBLINGS - 1))); // 1035
        assertEquals(1035, d, 0);
        Map<String, String> unfitted = new TreeMap<>();
        Map<String, Fitted> c = fit(lines(7e6, 12_000, d, 1000, 2000, 3000), unfitted);
        assertTrue(unfitted.toString(), unfitted.isEmpty());
        assertEquals(12_000, c.get(BackgroundFit.PER_NETNS).value(), 1e-6);
        assertEquals(1035, c.get(BackgroundFit.DOUBLING).value(), 0);
    }

    /** Each size's median is fitted: a stray run at one size moves nothing. */
    @Test
    public void eachSizeIsTakenAtItsMedian() {
        List<ObjectNode> l = lines(5e6, 30_000, 0, 1000, 2000, 3000);
        l.addAll(lines(5e6, 30_000, 0, 1000, 2000, 3000));
        l.add(idle(2000, 900e6)); // a busy neighbour during one run
        Map<String, String> unfitted = new TreeMap<>();
        assertEquals(30_000, fit(l, unfitted).get(BackgroundFit.PER_NETNS).value(), 0);
    }

    /** No lines, no K = 0, one size only, or no growth: both keys NOT FITTED, each with its reason. */
    @Test
    public void whatCannotBeFittedSaysWhy() {
        Map<String, String> u = new TreeMap<>();
        assertTrue(fit(List.of(), u).isEmpty());
        assertEquals(
                "no uevent_probe idle line in the fit set (a calibration from before it)",
                u.get(BackgroundFit.PER_NETNS));
        u.clear();
        assertTrue(fit(List.of(idle(1000, 5e7), idle(3000, 9e7)), u).isEmpty());
        assertEquals("no idle line with 0 netns: no busy time to take the others' from", u.get(BackgroundFit.DOUBLING));
        u.clear();
        assertTrue(fit(lines(5e6, 30_000, 0, 3000), u).isEmpty());
        assertEquals("idle lines at [0, 3000] netns: the fit needs 2 sizes above 0", u.get(BackgroundFit.PER_NETNS));
        u.clear();
        assertTrue(fit(lines(5e6, 0, 0, 1000, 2000), u).isEmpty());
        assertEquals(
                "the busy time at K = 2000 changed by 0 ms over its 6 s window, under 10 of /proc/stat's 10 ms ticks (a"
                        + " --quick calibration's few netns and short window)",
                u.get(BackgroundFit.PER_NETNS));
        u.clear(); // other work fell at the top: said as the noise it is, not as too few ticks
        assertTrue(
                fit(List.of(idle(0, 5e8), idle(1000, 3e8), idle(2000, 2e8)), u).isEmpty());
        assertEquals(
                "the busy time at K = 2000 fell by 1800 ms over its 6 s window against K = 0's: other work on the"
                        + " machine moved more than the netns did (run calibrate on a quiet machine)",
                u.get(BackgroundFit.PER_NETNS));
        u.clear(); // grown at the top, less than at K = 0 below it: no per-netns cost fits
        assertTrue(fit(List.of(idle(0, 5e8), idle(1000, 2e8), idle(2000, 2e8), idle(3000, 5.2e8)), u)
                .isEmpty());
        assertEquals(
                "no growth with the netns alive: per-netns came out 0.0 ns a second over K = [1000, 2000, 3000]",
                u.get(BackgroundFit.PER_NETNS));
        assertFalse(u.containsKey("machine.host-background.period"));
    }

    /**
     * calibrated.conf reports the fit as a comment, so the machine it configures runs no host background; the line it
     * gives to uncomment reads back as the fitted machine.host-background.
     */
    @Test
    public void calibratedConfReportsTheFitWithoutChargingIt() {
        Map<String, String> unfitted = new TreeMap<>();
        Map<String, Fitted> extras = fit(lines(5e6, 33_012, 0, 1000, 2000, 3000), unfitted);
        HostFacts host =
                new HostFacts("6.18.44-test", 2, 250, "none", 1_500_000, "derived", 0.0, null, null, null, null);
        String text = CalibratedConf.text(host, new CostFit(new TreeMap<>(), extras, unfitted));
        com.typesafe.config.Config ref = com.typesafe.config.ConfigFactory.defaultReference();
        com.typesafe.config.Config asWritten = com.typesafe.config.ConfigFactory.parseString(text)
                .withFallback(ref)
                .resolve();
        assertEquals(
                org.netnslab.machine.HostBackground.NONE,
                org.netnslab.run.Execution.hostBackground(asWritten.getConfig("netns-lab.machine")));
        String marker = "# to charge it, uncomment: ";
        String line = text.lines().filter(l -> l.contains(marker)).findFirst().orElseThrow();
        com.typesafe.config.Config charged = com.typesafe.config.ConfigFactory.parseString(
                        "netns-lab.machine." + line.substring(line.indexOf(marker) + marker.length()))
                .withFallback(ref)
                .resolve();
        assertEquals(
                new org.netnslab.machine.HostBackground(1_000_000_000L, 33_012, 0),
                org.netnslab.run.Execution.hostBackground(charged.getConfig("netns-lab.machine")));
    }
}
