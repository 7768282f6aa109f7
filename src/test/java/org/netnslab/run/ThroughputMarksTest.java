package org.netnslab.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** A virtual phase's series has between MAX / 2 and MAX points whatever its length, each the rate since the last. */
public class ThroughputMarksTest extends JUnitSuite {
    /** A phase of {@code seconds} at 1000 operations a second, checked every 0.1 ms. */
    private static List<double[]> steady(double seconds) {
        long start = 7_000_000_000L;
        ThroughputMarks m = new ThroughputMarks(start);
        long end = start + (long) (seconds * 1e9);
        for (long t = start; t <= end; t += 100_000) {
            m.at(t, (t - start) / 1_000_000);
        }
        List<double[]> out = new ArrayList<>();
        m.series(end, (end - start) / 1_000_000, out);
        return out;
    }

    @Test
    public void aLongAndAShortPhaseGetAsManyPointsAtTheSteadyRate() {
        for (double seconds : new double[] {5, 500}) {
            List<double[]> s = steady(seconds);
            assertTrue(
                    seconds + " s: " + s.size(),
                    s.size() > ThroughputMarks.MAX / 2 && s.size() <= ThroughputMarks.MAX + 1);
            for (double[] p : s) {
                assertEquals(seconds + " s at " + p[0], 1000, p[1], 1000 * 0.02); // a mark may fall 0.1 ms late
            }
            assertEquals(seconds, s.get(s.size() - 1)[0], 1e-9);
        }
    }

    @Test
    public void aPhaseShorterThanTheFirstIntervalHasItsEndAlone() {
        List<double[]> s = steady(0.0005);
        assertEquals(1, s.size());
        assertEquals(0.0005, s.get(0)[0], 1e-12);
    }
}
