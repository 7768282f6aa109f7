package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
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

/** {@code costs.uevent.recv-evicted} from the walk lines' recvmsg: exact recovery, the form, and NOT FITTED. */
public class RecvFitTest extends JUnitSuite {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long[] WALKS = {0, 125, 250, 500, 1000, 2000, 4000, 8000, 16000};

    private static ObjectNode walk(long l, double recv) {
        ObjectNode n = JSON.createObjectNode();
        n.put("probe", "uevent").put("set", "fit").put("load", "broadcast-walk");
        n.put("extra_sockets", l).put("recv_p50_ns", recv);
        return n;
    }

    /** A knee on the fit's grid and the evicted part come back exactly; each size counts by its median. */
    @Test
    public void theWalksRecvIsRecoveredExactly() {
        double knee = Math.round(Math.pow(16000, 150 / (double) (RecvFit.KNEES - 1)));
        List<ObjectNode> lines = new ArrayList<>();
        for (long l : WALKS) {
            double recv = 750 + (l == 0 ? 0 : 400 * Math.max(0, 1 - knee / l));
            lines.add(walk(l, recv));
            lines.add(walk(l, recv));
            lines.add(walk(l, recv + 900)); // one slow run of each size
        }
        Map<String, Fitted> costs = new TreeMap<>();
        Map<String, String> unfitted = new TreeMap<>();
        RecvFit.fit(lines, costs, unfitted);
        assertTrue(unfitted.toString(), unfitted.isEmpty());
        assertEquals(400, costs.get(RecvFit.EVICTED).value(), 1e-6);
        assertEquals(knee, costs.get(RecvFit.CACHED).value(), 0);
    }

    /** No L = 0, too few sizes, or no growth: both keys NOT FITTED with the reason. */
    @Test
    public void whatCannotBeFittedSaysWhy() {
        Map<String, String> u = new TreeMap<>();
        RecvFit.fit(List.of(walk(1000, 800), walk(2000, 900), walk(4000, 950)), new TreeMap<>(), u);
        assertEquals("no walk line at 0 extra sockets: no receive to take the others' from", u.get(RecvFit.EVICTED));
        u.clear();
        RecvFit.fit(List.of(walk(0, 750), walk(1000, 800), walk(2000, 900)), new TreeMap<>(), u);
        assertEquals("walk lines at [0, 1000, 2000] sockets: the fit needs 3 sizes above 0", u.get(RecvFit.CACHED));
        u.clear();
        RecvFit.fit(List.of(walk(0, 750), walk(250, 800), walk(500, 900), walk(1000, 960)), new TreeMap<>(), u);
        assertEquals(
                "walk lines up to 1000 sockets: the fit needs a walk of 4000 or more (a recording from before the walk"
                        + " beyond the caches)",
                u.get(RecvFit.EVICTED));
        u.clear();
        RecvFit.fit(List.of(walk(0, 750), walk(1000, 740), walk(2000, 700), walk(4000, 720)), new TreeMap<>(), u);
        assertEquals(
                "the walk lines' receive does not grow with the sockets walked (L = [0, 1000, 2000, 4000])",
                u.get(RecvFit.EVICTED));
    }

    /** The model's charge: 0 up to the cached sockets, then the evicted share, of at most the sockets bound. */
    @Test
    public void theChargeFollowsItsForm() {
        UeventCosts c = new UeventCosts(0, 0, 0, 0, 0, 700, 0, 0, 0, 0, 0, 0, 0, 0, 0, 460, 1549, 0);
        assertEquals(0, c.recvAfterWalk(3000, 1549));
        assertEquals(Math.round(460 * (1 - 1549 / 2000.0)), c.recvAfterWalk(3000, 2000)); // 104
        assertEquals(Math.round(460 * (1 - 1549 / 3000.0)), c.recvAfterWalk(3000, 1_000_000)); // 222: at most the bound
        assertEquals(0, c.recvAfterWalk(10, 1_000_000)); // the same ten sockets walked again evict nothing
        assertEquals(0, new UeventCosts(0, 0, 0, 0, 0, 700).recvAfterWalk(3000, 1_000_000));
    }
}
