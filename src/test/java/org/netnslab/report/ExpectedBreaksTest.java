package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.RatioInterval;
import org.netnslab.metrics.RunResult;
import org.scalatestplus.junit.JUnitSuite;

/**
 * What the verdict judges beyond a ratio's distance from the seed's: which designs break which invariant by
 * design, so that {@code --check} passes a scenario that shows a known hazard (uevent-hazards: the 2018 patch as
 * posted reorders; its fix and kernel-4.18 must not), and an interval too wide to tell anything.
 */
public class ExpectedBreaksTest extends JUnitSuite {
    private static DesignRecord design(String serialization, String free) {
        return new DesignRecord(
                "d",
                Map.of(
                        "uevent.serialization",
                        serialization,
                        "uevent.seqnum-scope",
                        "per-netns",
                        "sock-inuse.free",
                        free),
                Map.of(),
                1,
                "transactions",
                1,
                Map.of(),
                Map.of(),
                List.of(),
                Map.of());
    }

    @Test
    public void theHazardsEachDesignIsKnownForAreExpectedAndNoOthers() {
        DesignRecord posted = design("per-netns-owner", "net-free");
        assertNotNull(Verdict.expected(posted, "seqnum_out_of_order"));
        assertNotNull(Verdict.expected(posted, "seqnum_duplicates"));
        assertNull(Verdict.expected(posted, "cross_netns_deliveries"));
        DesignRecord fixed = design("per-netns-owner-fixed", "net-free");
        assertNull(Verdict.expected(fixed, "seqnum_out_of_order"));
        assertNull(Verdict.expected(fixed, "seqnum_duplicates"));
        DesignRecord lockless = design("lockless", "net-free");
        assertNotNull(Verdict.expected(lockless, "seqnum_out_of_order"));
        assertNull("an atomic counter never hands out a SEQNUM twice", Verdict.expected(lockless, "seqnum_duplicates"));
        assertNull(Verdict.expected(design("global-owner", "net-free"), "seqnum_out_of_order"));
        DesignRecord postedGlobal = new DesignRecord(
                "d",
                Map.of(
                        "uevent.serialization",
                        "per-netns-owner",
                        "uevent.seqnum-scope",
                        "global",
                        "sock-inuse.free",
                        "net-free"),
                Map.of(),
                1,
                "transactions",
                1,
                Map.of(),
                Map.of(),
                List.of(),
                Map.of());
        assertNull("one atomic global counter: no two-lock race", Verdict.expected(postedGlobal, "seqnum_duplicates"));
        assertNotNull(
                "per-netns locks around one global counter: two netns's senders reorder",
                Verdict.expected(postedGlobal, "seqnum_out_of_order"));
        assertNotNull(Verdict.expected(design("global-owner", "exit-unsafe"), "use_after_free"));
    }

    /**
     * A derived ratio (tolerance 0.1) over two replicates whose interval holds the seed only by being 2 wide gives no
     * verdict; a narrow one that holds it agrees; a wide one that misses it by more than the tolerance disagrees.
     */
    @Test
    public void anIntervalWiderThanTwiceTheToleranceGivesNoVerdict() {
        RunResult r = TinyRun.seeded(
                List.of(),
                Map.of(),
                List.of(
                        new RunResult.DerivedRatio("wide", 1.126, 0.5, List.of(0.6, 1.652), 0.147, 2.105),
                        new RunResult.DerivedRatio("narrow", 0.35, 0.36, List.of(0.34, 0.36), 0.29, 0.41),
                        new RunResult.DerivedRatio("wide, far", 1.126, 3.0, List.of(0.6, 1.652), 0.147, 2.105)),
                null);
        List<Verdict.Line> lines = Verdict.of(RunRecord.of(r, new RunRecord.Machine(2, "17", "2.6.21")))
                .checked();
        assertNull(lines.get(0).text(), lines.get(0).agrees());
        assertTrue(
                lines.get(0).text(),
                lines.get(0)
                        .text()
                        .endsWith("seed 0.50: no verdict (the interval is wider than the"
                                + " +-0.10 the seed is checked within: run more replicates, or virtual execution)."));
        assertEquals(lines.get(1).text(), Boolean.TRUE, lines.get(1).agrees());
        assertEquals(lines.get(2).text(), Boolean.FALSE, lines.get(2).agrees());
        assertFalse(Verdict.of(RunRecord.of(r, new RunRecord.Machine(2, "17", "2.6.21")))
                .passes());
    }

    /** Two designs with the same figures are said to be so with the reason their differing keys allow. */
    @Test
    public void identicalDesignsGetTheReasonTheirKeysAllow() {
        Map<String, org.netnslab.metrics.MeasureSummary> m = Map.of(
                "uevent.transaction",
                new org.netnslab.metrics.MeasureSummary("us", 10, 52.0, 1, 52, 53, 54, 55, 56, new double[] {51, 53}));
        java.util.function.BiFunction<String, Map<String, String>, DesignRecord> d = (n, keys) -> new DesignRecord(
                n, keys, m, 100, "transactions", 1, Map.of("enobufs", 0L), Map.of(), List.of(), Map.of());
        Map<String, String> base = Map.of(
                "uevent.serialization",
                "global-owner",
                "uevent.seqnum-scope",
                "global",
                "uevent.listener-rcvbuf",
                "1048576");
        DesignRecord a = d.apply("a", base);
        DesignRecord locks = d.apply(
                "b",
                Map.of(
                        "uevent.serialization",
                        "per-netns-owner",
                        "uevent.seqnum-scope",
                        "per-netns",
                        "uevent.listener-rcvbuf",
                        "1048576"));
        DesignRecord queues = d.apply(
                "c",
                Map.of(
                        "uevent.serialization",
                        "global-owner",
                        "uevent.seqnum-scope",
                        "global",
                        "uevent.listener-rcvbuf",
                        "4096"));
        RunRecord r = RunRecord.of(
                new RunResult(
                        "tiny",
                        "x",
                        "seed",
                        0.01,
                        Instant.parse("2026-12-02T12:00:00Z"),
                        2.0,
                        List.of(),
                        List.of(),
                        Map.of(),
                        List.of(),
                        List.of(),
                        TinyRun.oneReplicate(List.of()),
                        null,
                        null,
                        null),
                new RunRecord.Machine(2, "17", "2.6.21"));
        RunRecord two = new RunRecord(
                r.scenario(),
                r.description(),
                r.seed(),
                r.scale(),
                r.machine(),
                r.started(),
                r.wallSeconds(),
                r.overrides(),
                List.of(a, locks),
                r.ratios(),
                r.comparisons(),
                r.seedRatios(),
                r.notes(),
                r.replicates(),
                r.execution(),
                r.sensitivity(),
                r.shape(),
                r.minScale());
        assertTrue(DesignsAlike.identicalPairs(two)
                .get(0)
                .text()
                .endsWith("(with one injector per netns neither takes a"
                        + " contended lock: only the global one is shared)."));
        RunRecord rcvbuf = new RunRecord(
                r.scenario(),
                r.description(),
                r.seed(),
                r.scale(),
                r.machine(),
                r.started(),
                r.wallSeconds(),
                r.overrides(),
                List.of(a, queues),
                r.ratios(),
                r.comparisons(),
                r.seedRatios(),
                r.notes(),
                r.replicates(),
                r.execution(),
                r.sensitivity(),
                r.shape(),
                r.minScale());
        assertTrue(DesignsAlike.identicalPairs(rcvbuf)
                .get(0)
                .text()
                .endsWith("(no listener's receive queue filled in either:" + " no ENOBUFS)."));
    }

    /** A CPU sweep whose counts agree where they decide says which gave no verdict, not "at every count". */
    @Test
    public void aSweepNamesTheCountsWithoutAVerdict() {
        List<Comparison> cs = new java.util.ArrayList<>();
        double[][] cis = {{0.80, 0.86}, {-0.45, 2.91}};
        for (int n = 1; n <= 2; n++) {
            double[] ci = cis[n - 1];
            cs.add(new Comparison(
                    "uevent.transaction",
                    "kernel-4.18@" + n + "cpu",
                    "per-netns-2018@" + n + "cpu",
                    60,
                    49.8,
                    0.83,
                    List.of(59.0, 61.0),
                    List.of(49.0, 50.6),
                    null,
                    new RatioInterval(0.83, ci[0], ci[1], 1),
                    null));
        }
        RunResult r = new RunResult(
                "tiny",
                "a sweep",
                "seed",
                0.01,
                Instant.parse("2026-12-02T12:00:00Z"),
                2.0,
                List.of(),
                cs,
                Map.of("per-netns-2018", 0.82),
                List.of(),
                List.of(),
                List.of(new RunResult.Replicate(1, List.of(), List.of())),
                new RunResult.ExecutionInfo("virtual", List.of(1, 2), true, 0.1, 1, null),
                null,
                null);
        Verdict v = Verdict.of(RunRecord.of(r, new RunRecord.Machine(2, "17", "2.6.21")));
        String line = v.lines().get(0).text();
        assertTrue(
                line,
                line.endsWith("Seed 0.82: AGREES within +-0.05 where it decides; no verdict at 2 CPUs (the"
                        + " interval unbounded or too wide)."));
        assertTrue(v.passes());
    }

    /** The same for a design comparison (tolerance 0.05): TC1's two live replicates on 2 cores, then narrow ones. */
    @Test
    public void aComparisonsIntervalWiderThanTwiceTheToleranceGivesNoVerdict() {
        for (double[] ci : new double[][] {{-0.450, 2.912}, {0.80, 0.86}, {0.90, 1.02}}) {
            RunResult r = TinyRun.seededComparison(ci[0], ci[1], List.of(), null);
            Verdict.Line line = Verdict.of(RunRecord.of(r, new RunRecord.Machine(2, "17", "2.6.21")))
                    .checked()
                    .get(0);
            Boolean expected = ci[0] < 0 ? null : ci[0] < 0.85 ? Boolean.TRUE : Boolean.FALSE; // 0.82 +- 0.05 vs 0.90
            assertEquals(line.text(), expected, line.agrees());
            if (expected == null) {
                assertTrue(
                        line.text(),
                        line.text()
                                .endsWith("; seed 0.82: no verdict (the interval is wider than the +-0.05"
                                        + " the seed is checked within: run more replicates, or virtual execution)."));
            }
        }
    }
}
