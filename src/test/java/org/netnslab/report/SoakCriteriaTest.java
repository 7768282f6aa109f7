package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.scalatestplus.junit.JUnitSuite;

/** The soak's pass criteria kept as counters fail the verdict as a broken invariant does; a clean soak passes. */
public class SoakCriteriaTest extends JUnitSuite {
    private static Verdict soak(Map<String, Long> counters) {
        LatencyRecorder tx = new LatencyRecorder();
        tx.record(10_000);
        Map<String, LatencyRecorder> m = new LinkedHashMap<>();
        m.put("soak.transaction", tx);
        DesignResult d = new DesignResult(
                "kernel-6.9",
                Map.of(),
                m,
                100,
                "transactions",
                1,
                new Invariants(0, 0, 0, 0, 0, 0, 0, 0, 0),
                counters,
                List.of());
        return TinyRun.verdict(List.of(d), List.of());
    }

    private static Map<String, Long> counters(long unauthorisedDelivered, long heapNotFlat, long freed) {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("netns_created", 10L);
        c.put("netns_freed", freed);
        c.put("unauthorised_sent", 0L);
        c.put("unauthorised_delivered", unauthorisedDelivered);
        c.put("proc_seq_gaps", 0L);
        c.put("heap_not_flat", heapNotFlat);
        return c;
    }

    @Test
    public void aBrokenCriterionFailsTheVerdict() {
        Verdict v = soak(counters(3, 1, 9));
        assertFalse(v.passes());
        assertEquals(
                "Invariants: kernel-6.9 broke unauthorised_delivered (3): NOT expected: a pass criterion of the soak;"
                        + " kernel-6.9 broke heap_not_flat (1): NOT expected: a pass criterion of the soak; kernel-6.9"
                        + " broke netns_created = netns_freed (10 created, 9 freed): NOT expected: a pass criterion of"
                        + " the soak.",
                v.invariants());
    }

    @Test
    public void aCleanSoakPasses() {
        Verdict v = soak(counters(0, 0, 10));
        assertTrue(v.passes());
        assertEquals("Invariants: all held in every design.", v.invariants());
    }

    @Test
    public void aCriterionNotSavedFailsTheVerdict() {
        Map<String, Long> c = counters(0, 0, 10);
        c.remove("unauthorised_delivered");
        Verdict v = soak(c);
        assertFalse(v.passes());
        assertEquals(
                "Invariants: kernel-6.9 broke unauthorised_delivered (not saved): NOT expected: a pass criterion of the"
                        + " soak.",
                v.invariants());
    }
}
