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
import org.netnslab.uevent.UeventCosts;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The receive after a backlog ({@code uevent_probe backlog}): exact recovery of the fit, NOT FITTED with its
 * reasons, the model's charge, and the pair's drain cycle that the backlog lines make the pair give.
 */
public class BacklogFitTest extends JUnitSuite {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long[] SIZES = {0, 300, 1000, 4000, 16000};

    private static ObjectNode line(long m, String reader, double recv) {
        ObjectNode n = JSON.createObjectNode();
        n.put("probe", "uevent").put("set", "fit").put("load", "backlog");
        n.put("queued_since", m).put("reader", reader).put("recv_p50_ns", recv);
        return n;
    }

    /** A knee on the fit's grid, the evicted part and the other CPU's extra come back exactly, by medians. */
    @Test
    public void theBacklogsRecvIsRecoveredExactly() {
        double knee = Math.round(Math.pow(16000, 140 / (double) (BacklogFit.KNEES - 1)));
        List<ObjectNode> lines = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            for (long m : SIZES) {
                double recv = 740 + (m == 0 ? 0 : 500 * Math.max(0, 1 - knee / m));
                lines.add(line(m, "same-cpu", run == 2 ? recv + 300 : recv)); // one slow run of each size
            }
            lines.add(line(0, "other-cpu", run == 0 ? 1500 : 900));
        }
        Map<String, Fitted> costs = new TreeMap<>();
        Map<String, String> unfitted = new TreeMap<>();
        BacklogFit.fit(lines, costs, unfitted);
        assertTrue(unfitted.toString(), unfitted.isEmpty());
        assertEquals(500, costs.get(BacklogFit.EVICTED).value(), 1e-6);
        assertEquals(knee, costs.get(BacklogFit.CACHED).value(), 0);
        assertEquals(160, costs.get(BacklogFit.REMOTE).value(), 1e-9); // 900 less 740
        assertEquals(Math.round(knee) + "", CostFit.hocon(BacklogFit.CACHED, knee)); // a count, not a duration
    }

    /** No lines, no M = 0, too few sizes, no growth, one CPU, a cheaper other CPU: NOT FITTED with the reason. */
    @Test
    public void whatCannotBeFittedSaysWhy() {
        Map<String, String> u = new TreeMap<>();
        BacklogFit.fit(List.of(), new TreeMap<>(), u);
        assertEquals(
                "no uevent_probe backlog line in the fit set (a calibration from before it)", u.get(BacklogFit.REMOTE));
        assertFalse(BacklogFit.present(List.of()));
        u.clear();
        BacklogFit.fit(
                List.of(line(1000, "same-cpu", 800), line(4000, "same-cpu", 900), line(16000, "same-cpu", 950)),
                new TreeMap<>(),
                u);
        assertEquals(
                "no same-CPU backlog line at M = 0: no receive to take the others' from", u.get(BacklogFit.EVICTED));
        assertEquals("no backlog line read on the other CPU (a host with one CPU)", u.get(BacklogFit.REMOTE));
        u.clear();
        BacklogFit.fit(
                List.of(line(0, "same-cpu", 750), line(1000, "same-cpu", 800), line(0, "other-cpu", 700)),
                new TreeMap<>(),
                u);
        assertEquals("backlog lines at M = [0, 1000]: the fit needs 3 sizes above 0", u.get(BacklogFit.CACHED));
        assertEquals("the other CPU's receive (700 ns) is below the same CPU's (750 ns)", u.get(BacklogFit.REMOTE));
        u.clear();
        BacklogFit.fit(
                List.of(
                        line(0, "same-cpu", 750),
                        line(1000, "same-cpu", 740),
                        line(4000, "same-cpu", 700),
                        line(16000, "same-cpu", 720)),
                new TreeMap<>(),
                u);
        assertEquals(
                "the backlog lines' receive does not grow with the skbs queued since (M = [0, 1000, 4000, 16000])",
                u.get(BacklogFit.EVICTED));
    }

    /** The model's charge: 0 up to the cached skbs, then the evicted share, growing towards it. */
    @Test
    public void theChargeFollowsItsForm() {
        UeventCosts c = new UeventCosts(0, 0, 0, 0, 0, 700, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3000, 520, 1200, 90);
        assertEquals(0, c.recvAfterBacklog(1200));
        assertEquals(Math.round(520 * (1 - 1200 / 4000.0)), c.recvAfterBacklog(4000)); // 364
        assertEquals(Math.round(520 * (1 - 1200 / 1e6)), c.recvAfterBacklog(1_000_000)); // 519
        assertTrue(c.recvHasExtras());
        assertFalse(new UeventCosts(0, 0, 0, 0, 0, 700).recvHasExtras());
        assertEquals(0, new UeventCosts(0, 0, 0, 0, 0, 700).recvAfterBacklog(1_000_000));
    }

    private static ObjectNode pair(double listenerCpu, double sleeps, double cycles) {
        ObjectNode n = JSON.createObjectNode();
        n.put("probe", "uevent").put("set", "fit").put("load", "pair").put("injectors", 1);
        n.put("sends", 20000).put("received", 20000).put("send_p50_ns", 1800);
        n.put("injector_cpu_ns", 20000 * 2400.0).put("listener_cpu_ns", 20000 * listenerCpu);
        n.put("listener_sleeps", Math.round(20000 * sleeps)).put("listener_wakeups", Math.round(20000 * cycles));
        return n;
    }

    private static Map<String, Fitted> walked() {
        Map<String, Fitted> costs = new TreeMap<>();
        for (String k : List.of("send-outside", "broadcast-per-socket", "recv", "listener-user", "injector-user")) {
            double v = k.equals("recv") ? 740 : k.equals("listener-user") ? 100 : k.equals("injector-user") ? 200 : 7;
            costs.put("costs.uevent." + k, new Fitted(v, "test", 1, Double.NaN));
        }
        costs.put(CostFit.CONTEXT_SWITCH, new Fitted(1800, "test", 1, Double.NaN));
        return costs;
    }

    /**
     * With backlog lines the walk's recv stays and the pair's listener beyond it, its user-space part and its
     * switches, over its drain cycles, is the drain cycle; without them the pair's recv holds the cycles.
     */
    @Test
    public void thePairGivesTheDrainCycleBesideTheBacklog() {
        // 1560 ns a message at 0.09 sleeps and 0.18 cycles: (1560 - 740 - 100 - 0.09 x 1800) / 0.18 = 3100 ns
        List<ObjectNode> pairs = List.of(pair(1560, 0.09, 0.18), pair(1560, 0.09, 0.18), pair(2000, 0.2, 0.3));
        Map<String, Fitted> costs = walked();
        Map<String, String> unfitted = new TreeMap<>();
        PairFit.fit(pairs, costs, new TreeMap<>(), unfitted, true);
        assertEquals(740, costs.get("costs.uevent.recv").value(), 0);
        assertEquals(3100, costs.get("costs.uevent.drain-cycle").value(), 1e-6);
        costs = walked();
        unfitted.clear();
        PairFit.fit(pairs, costs, new TreeMap<>(), unfitted, false);
        assertEquals(1560 - 0.09 * 1800 - 100, costs.get("costs.uevent.recv").value(), 1e-6);
        assertTrue(unfitted.get("costs.uevent.drain-cycle").startsWith("no uevent_probe backlog line in the fit set"));
    }
}
