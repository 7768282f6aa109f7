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
 * The walk beyond the caches: the knee and the uncached extra recovered from synthetic walk lines, left NOT FITTED
 * where the larger walks are missing or the caches hold them, and the walk's sizes.
 */
public class UncachedWalkFitTest extends JUnitSuite {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A walk line: send median = 1700 ns + 8 ns a socket, + extra ns a socket beyond the knee. */
    private static ObjectNode walk(long extra, double knee, double extraNs) {
        double sockets = extra + 1;
        ObjectNode l = JSON.createObjectNode();
        l.put("probe", "uevent").put("set", "fit").put("load", "broadcast-walk");
        l.put("extra_sockets", extra).put("sends", 2000);
        l.put("send_p50_ns", 1700 + 8 * sockets + extraNs * Math.max(0, sockets - knee));
        l.put("send_p99_ns", 1.2 * (1700 + 8 * sockets + extraNs * Math.max(0, sockets - knee)));
        l.put("recv_p50_ns", 700).put("user_p50_ns", 400).put("handle_p50_ns", 300);
        return l;
    }

    private static List<ObjectNode> walks(double knee, double extraNs, long... sizes) {
        List<ObjectNode> l = new ArrayList<>();
        for (long s : sizes) {
            l.add(walk(s, knee, extraNs));
        }
        return l;
    }

    @Test
    public void aKneeOnTheGridIsRecoveredExactly() {
        // the first knee tried is the cached walk's end, 1001 sockets: the lines lie on the form, residual 0
        CostFit fit = CostFit.fit(walks(1001, 14, 0, 125, 250, 500, 1000, 2000, 4000, 8000, 16000), false);
        assertEquals(8.0, fit.costs().get("costs.uevent.broadcast-per-socket").value(), 1e-9);
        assertEquals(14.0, fit.costs().get(UeventFit.UNCACHED_EXTRA).value(), 1e-9);
        assertEquals(1001.0, fit.costs().get(UeventFit.CACHED_SOCKETS).value(), 0.0);
        assertEquals(0.0, fit.costs().get(UeventFit.UNCACHED_EXTRA).residual(), 1e-12);
        assertEquals(4, fit.costs().get(UeventFit.UNCACHED_EXTRA).points());
    }

    @Test
    public void aKneeBetweenSizesIsFoundWithinTheGridsStep() {
        // 200 knees from 1001 to 8001 sockets on a log scale: about 1% apart
        CostFit fit = CostFit.fit(walks(3000, 20, 0, 125, 250, 500, 1000, 2000, 4000, 8000, 16000), false);
        double knee = fit.costs().get(UeventFit.CACHED_SOCKETS).value();
        assertEquals(3000, knee, 30);
        assertEquals(20.0, fit.costs().get(UeventFit.UNCACHED_EXTRA).value(), 0.5);
        // the cached line is fitted on the walks up to 1000 extra sockets only, as before the larger walks
        assertEquals(8.0, fit.costs().get("costs.uevent.broadcast-per-socket").value(), 1e-9);
        assertEquals(5, fit.costs().get("costs.uevent.broadcast-per-socket").points());
    }

    @Test
    public void theMedianPerSizeCountsEachSizeOnce() {
        List<ObjectNode> lines = walks(1001, 14, 0, 125, 250, 500, 1000, 2000, 4000, 8000, 16000);
        lines.add(walk(16000, 1001, 0)); // a run where the caches held the largest walk: its median is the middle one
        lines.add(walk(16000, 1001, 14));
        CostFit fit = CostFit.fit(lines, false);
        assertEquals(14.0, fit.costs().get(UeventFit.UNCACHED_EXTRA).value(), 1e-9);
        assertEquals(6, fit.costs().get(UeventFit.UNCACHED_EXTRA).points());
    }

    @Test
    public void withoutThreeLargerWalksTheWalkStaysLinear() {
        for (List<ObjectNode> lines :
                List.of(walks(0, 0, 0, 125, 250, 500, 1000), walks(1001, 14, 0, 500, 1000, 2000, 4000))) {
            CostFit fit = CostFit.fit(lines, false);
            assertFalse(fit.costs().containsKey(UeventFit.UNCACHED_EXTRA));
            assertFalse(fit.costs().containsKey(UeventFit.CACHED_SOCKETS));
            assertTrue(fit.unfitted().get(UeventFit.UNCACHED_EXTRA).startsWith("fewer than 3 walk sizes beyond 1000"));
        }
    }

    @Test
    public void cachesThatHoldTheWalkLeaveItLinear() {
        // the larger walks cost less than the line: a negative extra is not a cost
        CostFit fit = CostFit.fit(walks(1001, -2, 0, 125, 250, 500, 1000, 2000, 4000, 8000), false);
        assertFalse(fit.costs().containsKey(UeventFit.UNCACHED_EXTRA));
        assertTrue(fit.unfitted()
                .get(UeventFit.CACHED_SOCKETS)
                .contains("the larger walks cost no more a socket than the line"));
    }

    @Test
    public void aFractionalSocketCountIsAnEditedLine() {
        ProbeSet edited = new ProbeSet(List.of(walk(0, 1001, 0).put("extra_sockets", 3.7)), List.of());
        String problem = ProbeLines.problem(edited);
        assertTrue(problem, problem.contains("extra_sockets must be a whole number in 0..100,000, got 3.7"));
        assertEquals(null, ProbeLines.problem(new ProbeSet(List.of(walk(16000, 1001, 14)), List.of())));
    }

    @Test
    public void theKneeIsWrittenAsACount() {
        assertEquals("1001", CostFit.hocon(UeventFit.CACHED_SOCKETS, 1001.2));
        assertEquals("14ns", CostFit.hocon(UeventFit.UNCACHED_EXTRA, 14.4));
    }

    @Test
    public void theWalkSizesDoNotDependOnTheDescriptorLimit() {
        assertEquals("0,125,250,500,1000,2000,4000,8000,16000", ProbeSet.walkSizes(false));
        assertEquals("0,250,500,1000,2000,4000,8000", ProbeSet.walkSizes(true));
    }
}
