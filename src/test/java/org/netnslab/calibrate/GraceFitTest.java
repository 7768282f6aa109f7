package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** {@link GraceFit}'s search for the grace period on a given off-CPU curve. */
public class GraceFitTest extends JUnitSuite {
    private static final double MS = 1e6;

    /**
     * An off-CPU time that grows as 1.7 grace periods plus 0.3 ms (the model's serial runs in one calibration of
     * 2026-12-02 waited about that): from the one-grace-period guess (38.1 ms) the proportional step lands at 22.37
     * ms, 38.32 ms off a CPU, within 2% of the 38.2 measured: two runs.
     */
    @Test
    public void theProportionalStepFindsAnAffineCurve() {
        List<Double> tried = new ArrayList<>();
        GraceFit.Found f = GraceFit.solve(38.2 * MS, 38.1 * MS, g -> {
            tried.add(g);
            return 1.7 * g + 0.3 * MS;
        });
        assertEquals(2, tried.size());
        assertEquals(38.1 * MS, tried.get(0), 0);
        assertEquals(22.37 * MS, tried.get(1), 0.01 * MS); // 38.1 x 38.2 / 65.07
        assertEquals(2, f.runs());
        assertEquals(38.32 * MS, f.offCpu(), 0.01 * MS);
    }

    /**
     * Where the proportional step is not close enough (2.5 g - 15 ms: 60 ms at 30, 35 at 20), the secant through the
     * two points lands on the root, 22 ms: three runs.
     */
    @Test
    public void theSecantTakesOverFromTheProportionalStep() {
        GraceFit.Found f = GraceFit.solve(40 * MS, 30 * MS, g -> 2.5 * g - 15 * MS);
        assertEquals(3, f.runs());
        assertEquals(22 * MS, f.grace(), 1);
        assertEquals(40 * MS, f.offCpu(), 1);
    }

    /**
     * A curve in steps (batches form in whole netns): from 10 ms (14 ms off a CPU) the search tries 21.4 ms (32), then
     * points that give 32 again and 26; it keeps the first that came closest, not the last tried.
     */
    @Test
    public void aSteppedCurveEndsAtTheClosestPointTried() {
        List<Double> tried = new ArrayList<>();
        GraceFit.Found f = GraceFit.solve(30 * MS, 10 * MS, g -> {
            tried.add(g);
            return Math.floor(g / (4 * MS)) * 6 * MS + 2 * MS;
        });
        assertEquals(GraceFit.MAX_RUNS, f.runs());
        assertEquals(10 * MS * 30 / 14, f.grace(), 1);
        assertEquals(32 * MS, f.offCpu(), 0);
        assertTrue("the last tried is not the one kept: " + tried, tried.get(tried.size() - 1) != f.grace());
    }

    /** From a start of 0 (a direct reading at or below 0) the search doubles from 1 ms instead of staying at 0. */
    @Test
    public void aStartAtZeroStillSearches() {
        GraceFit.Found f = GraceFit.solve(40 * MS, 0, g -> 10 * MS + 1.7 * g);
        assertEquals(3, f.runs());
        assertEquals(30 * MS / 1.7, f.grace(), 1);
    }

    /** Waits longer than the host's even without a grace period: 0, the closest the key allows. */
    @Test
    public void aTargetBelowTheCurveGivesZero() {
        GraceFit.Found f = GraceFit.solve(1 * MS, 20 * MS, g -> 5 * MS + g);
        assertEquals(0, f.grace(), 0);
        assertEquals(5 * MS, f.offCpu(), 0);
    }

    /** A model run with no cleanup_net run (NaN) is never kept: the search tries a longer grace period. */
    @Test
    public void aRunWithoutCleanupIsNotKept() {
        GraceFit.Found f = GraceFit.solve(20 * MS, 10 * MS, g -> g < 15 * MS ? Double.NaN : g);
        assertEquals(20 * MS, f.grace(), 0);
        assertEquals(20 * MS, f.offCpu(), 0);
        assertEquals(2, f.runs());
    }
}
