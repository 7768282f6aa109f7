package org.netnslab.report;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Replicates whose ratio interval holds 1 cannot tell two designs apart: the verdict says so beside the interval, and
 * names no winner.
 */
public class HoldsOneVerdictTest extends JUnitSuite {
    private static String line(long[][] bases) {
        List<RunResult.Replicate> reps = new ArrayList<>();
        for (int i = 0; i < bases.length; i++) {
            reps.add(new RunResult.Replicate(
                    i + 1,
                    List.of("kernel-4.18", "per-netns-2018"),
                    List.of(
                            TinyRun.design("kernel-4.18", bases[i][0], 0, 1_000_000),
                            TinyRun.design("per-netns-2018", bases[i][1], 0, 1_000_000))));
        }
        List<DesignResult> as = reps.stream().map(r -> r.designs().get(0)).toList();
        List<DesignResult> bs = reps.stream().map(r -> r.designs().get(1)).toList();
        RunResult run = new RunResult(
                "tiny",
                "a run",
                "seed",
                0.01,
                Instant.parse("2026-12-06T12:00:00Z"),
                1.0,
                List.of(DesignResult.merge(as), DesignResult.merge(bs)),
                List.of(Comparison.of("uevent.transaction", as, bs)),
                Map.of(),
                List.of(),
                List.of(),
                reps,
                null,
                null,
                null);
        return Verdict.of(RunRecord.of(run, TinyRun.MACHINE)).lines().get(0).text();
    }

    @Test
    public void anIntervalHolding1SaysTheRunCannotTellThemApart() {
        String raised = line(new long[][] {{50_000, 40_000}, {47_000, 70_000}, {53_000, 62_000}});
        assertTrue(
                raised, raised.contains("per-netns-2018's mean uevent.transaction came out 14% above kernel-4.18's"));
        assertFalse(raised, raised.contains("raises"));
        assertTrue(raised, raised.contains("(it holds 1: these replicates cannot tell the two apart)"));
        assertFalse(raised, raised.contains("wins"));
        String clear = line(new long[][] {{50_000, 20_000}, {47_000, 23_000}, {53_000, 19_000}});
        assertTrue(clear, clear.contains("per-netns-2018 cuts the mean uevent.transaction"));
        assertFalse(clear, clear.contains("holds 1"));
        String unbounded = line(new long[][] {{1_000, 50_000}, {100_000, 60_000}, {500, 55_000}});
        assertTrue(unbounded, unbounded.contains("interval unbounded over 3 replicates"));
        assertTrue(unbounded, unbounded.contains("per-netns-2018's mean uevent.transaction came out"));
        assertFalse(unbounded, unbounded.contains("wins"));
        String lost = line(new long[][] {{20_000, 50_000}, {23_000, 47_000}, {19_000, 53_000}});
        assertTrue(lost, lost.contains(": kernel-4.18 wins"));
    }
}
