package org.netnslab.run;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** A series from completion times: equal intervals over the span asked for, about four completions a point. */
public class CompletionTimesTest extends JUnitSuite {
    /** @return times recorded at each of {@code nanos}, relative to a clock at 5 s */
    private static CompletionTimes at(long... nanos) {
        long[] now = {0};
        CompletionTimes c = new CompletionTimes(() -> now[0]);
        for (long t : nanos) {
            now[0] = 5_000_000_000L + t;
            c.completed();
        }
        return c;
    }

    @Test
    public void twelveCompletionsOverThreeSecondsMakeThreePointsAtTheirRates() {
        // 12 completions: 3 points of 1 s; 6 in the first second, none in the second, 6 in the third (the last at
        // the span's very end, counted in the last interval)
        long s = 1_000_000_000L;
        CompletionTimes c =
                at(0, s / 10, s / 5, s / 2, s - 1, s / 3, 2 * s, 2 * s + 1, 5 * s / 2, 5 * s / 2, 3 * s - 1, 3 * s);
        List<double[]> series = c.series(5 * s, 8 * s);
        assertEquals(3, series.size());
        assertArrayEquals(new double[] {1, 6}, series.get(0), 1e-9);
        assertArrayEquals(new double[] {2, 0}, series.get(1), 1e-9);
        assertArrayEquals(new double[] {3, 6}, series.get(2), 1e-9);
    }

    @Test
    public void fewCompletionsStillGiveTwoPointsAndOnesOutsideTheSpanAreLeftOut() {
        long s = 1_000_000_000L;
        List<double[]> series = at(-1, s / 2, 3 * s / 2, 2 * s + 1).series(5 * s, 7 * s);
        assertEquals(2, series.size());
        assertArrayEquals(new double[] {1, 1}, series.get(0), 1e-9);
        assertArrayEquals(new double[] {2, 1}, series.get(1), 1e-9);
        assertEquals(0, at(0).series(5 * s, 5 * s).size());
    }

    @Test
    public void manyCompletionsAreCappedAtHalfTheMarksPoints() {
        long[] times = new long[10_000];
        for (int i = 0; i < times.length; i++) {
            times[i] = i * 1_000_000L; // 1000 a second for 10 s
        }
        List<double[]> series = at(times).series(5_000_000_000L, 15_000_000_000L);
        assertEquals(ThroughputMarks.MAX / 2, series.size());
        for (double[] p : series) {
            assertEquals("at " + p[0], 1000, p[1], 1000 * 0.02); // an interval of 78.125 ms holds 78 or 79
        }
        assertEquals(10, series.get(series.size() - 1)[0], 1e-9);
    }
}
