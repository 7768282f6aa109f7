package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.MinScale;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The shipped scenarios whose verdict depends on the scale say so below their {@code min-scale}, instead of a
 * DISAGREES or an all-clear, and {@code --check} passes; unshare-loop's minimum is the smallest scale at which its
 * seed figure agrees (virtual runs are exact: a model change that moves it fails here).
 */
public class MinScaleTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private CommandLineFaultsTest.Printed run(String scenario, String scale, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "load-tests/" + scenario + ".conf",
                "--scale",
                scale,
                "--no-progress",
                "--jobs",
                "1",
                "--out",
                tmp.getRoot()
                        .toPath()
                        .resolve(scenario + "-" + scale + "-" + more.length)
                        .toString()));
        args.addAll(List.of(more));
        return CommandLineFaultsTest.cli(args.toArray(String[]::new));
    }

    /** The verdict's line about exit-barrier-4.16, the one with unshare-loop's seed figure. */
    private static String exitBarrier(CommandLineFaultsTest.Printed p) {
        return p.out()
                .lines()
                .filter(l -> l.startsWith("  exit-barrier-4.16 "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(p.out()));
    }

    @Test
    public void unshareLoopBelowItsMinimumScaleSaysTooSmallAndPassesTheCheck() {
        CommandLineFaultsTest.Printed p = run("unshare-loop", "0.01", "--check");
        assertEquals(p.err(), 0, p.status());
        String line = exitBarrier(p);
        assertTrue(
                line,
                line.endsWith("; seed 1.067: too small a scale to compare: run at --scale >= 0.03 (below 3 iterations"
                        + " per loop no exit's cost falls inside a loop)."));
        assertFalse(line, line.contains("DISAGREES"));
    }

    /** 0.03 agrees; 0.02, judged (its minimum lowered to it), disagrees: 0.03 is the smallest that can tell. */
    @Test
    public void unshareLoopsMinimumIsTheSmallestScaleWhereItsSeedFigureAgrees() {
        CommandLineFaultsTest.Printed at = run("unshare-loop", "0.03", "--check");
        assertEquals(at.err(), 0, at.status());
        assertTrue(exitBarrier(at), exitBarrier(at).endsWith("; seed: x1.07 (1.067): AGREES within +-0.05."));

        CommandLineFaultsTest.Printed below = run("unshare-loop", "0.02", "--set", "min-scale.scale=0.02");
        assertEquals(below.err(), 0, below.status());
        assertTrue(exitBarrier(below), exitBarrier(below).contains("model 1.01, seed 1.067: DISAGREES"));
    }

    /**
     * uevent-hazards' point is its broken invariants: below its minimum a run's "all held" never stands alone.
     * Each mode has its own minimum: 1 live, 0.02 virtual (its default), where a virtual run judges both hazards;
     * at 0.01 a virtual run says the scale is too small (per-netns-2018's race showed on 4 of 5 random seeds).
     */
    @Test
    public void ueventHazardsBelowItsLiveMinimumSaysTheScaleIsTooSmallOnlyWhenLive() {
        MinScale min = new MinScale(1, "with fewer sends a live run often misses a reordering race", "live");
        assertTrue(min.appliesTo("live"));
        assertFalse(min.appliesTo("virtual"));
        assertEquals(
                "too small a scale to compare: run at --scale >= 1 (with fewer sends a live run often misses a"
                        + " reordering race)",
                min.tooSmall());

        CommandLineFaultsTest.Printed p = run("uevent-hazards", "0.02", "--check");
        assertEquals(p.err(), 0, p.status());
        String invariants = invariants(p);
        assertFalse(invariants, invariants.contains("too small a scale"));
        assertTrue(invariants, invariants.contains("per-netns-2018 broke seqnum_out_of_order"));
        assertTrue(invariants, invariants.contains("kernel-6.9 broke seqnum_out_of_order"));
        String small = invariants(run("uevent-hazards", "0.01", "--check"));
        assertTrue(
                small,
                small.endsWith("too small a scale for an all-clear: run at --scale >= 0.02 (with fewer sends"
                        + " per-netns-2018's two locks seldom interleave, even in virtual time)."));
    }

    private static String invariants(CommandLineFaultsTest.Printed p) {
        return p.out()
                .lines()
                .filter(l -> l.startsWith("  Invariants: "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(p.out()));
    }
}
