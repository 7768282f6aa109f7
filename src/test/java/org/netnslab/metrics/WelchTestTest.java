package org.netnslab.metrics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class WelchTestTest extends JUnitSuite {

    @Test
    public void matchesRsTTestOnSmallSamples() {
        // R: t.test(c(1,2,3,4,5), c(2,4,6,8,10)): t = -1.8974, df = 5.8824, p-value = 0.1075;
        // CI = -3 -/+ qt(0.975, 5.882353) * sqrt(2.5/5 + 10/5), qt = 2.458824 (scipy t.ppf agrees)
        WelchTest w = WelchTest.of(3, 2.5, 5, 6, 10, 5);
        assertEquals(-1.8974, w.t(), 1e-4);
        assertEquals(5.8824, w.df(), 1e-4);
        assertEquals(0.1075, w.p(), 1e-4);
        assertEquals(-6.887742, w.ciLow(), 1e-5);
        assertEquals(0.887742, w.ciHigh(), 1e-5);
    }

    @Test
    public void overReplicateMeansMatchesScipy() {
        // scipy 1.17.1: stats.ttest_ind([52.1, 49.8, 55.3, 50.6, 53.0], [41.2, 47.9, 39.5, 44.8, 43.1],
        // equal_var=False): t = 5.07855235737, p = 0.00146797686836; Welch-Satterthwaite df = 6.9447745081;
        // 95% CI of the difference 8.86 -/+ t.ppf(0.975, df) * se = 4.7280368446 .. 12.9919631554
        WelchTest w = WelchTest.of(RatioIntervalTest.A, RatioIntervalTest.B);
        assertEquals(5.07855235737, w.t(), 1e-9);
        assertEquals(6.9447745081, w.df(), 1e-8);
        assertEquals(0.00146797686836, w.p(), 1e-11);
        assertEquals(4.7280368446, w.ciLow(), 1e-8);
        assertEquals(12.9919631554, w.ciHigh(), 1e-8);
    }

    @Test
    public void printsLikeRIncludingTheTinyPValue() {
        WelchTest w = WelchTest.of(68.49, 30.0 * 30.0, 10_000_000, 56.28, 30.0 * 30.0, 10_000_000);
        String out = w.formatLikeR("kernel-4.18", "per-netns-2018", "us");
        assertTrue(out, out.contains("\tWelch Two Sample t-test\n"));
        assertTrue(out, out.contains("data:  kernel-4.18 and per-netns-2018\n"));
        assertTrue(out, out.contains("p-value < 2.2e-16"));
        // diff 12.21, se sqrt(2 * 900 / 1e7) = 0.0134164, half-width 1.959964 * se = 0.0262957
        assertTrue(out, out.contains("t = 910.08, df = 20000000, p-value < 2.2e-16\n"));
        assertTrue(out, out.contains("95 percent confidence interval:\n 12.1837 12.2363\n"));
    }

    @Test(expected = IllegalArgumentException.class)
    public void refusesASampleOfOne() {
        WelchTest.of(1, 1, 1, 2, 1, 10);
    }

    @Test
    public void mergedRecordersGiveTheSameMomentsAsOne() {
        LatencyRecorder all = new LatencyRecorder();
        LatencyRecorder a = new LatencyRecorder();
        LatencyRecorder b = new LatencyRecorder();
        for (int i = 1; i <= 1000; i++) {
            long v = (i * 7919L) % 10007;
            all.record(v);
            (i % 3 == 0 ? a : b).record(v);
        }
        LatencyRecorder merged = new LatencyRecorder();
        merged.add(a);
        merged.add(b);
        assertEquals(all.count(), merged.count());
        assertEquals(all.meanNanos(), merged.meanNanos(), 1e-9);
        assertEquals(all.varianceNanos2(), merged.varianceNanos2(), 1e-6 * all.varianceNanos2());
        assertEquals(all.histogram().getTotalCount(), merged.histogram().getTotalCount());
        MeasureSummary s = merged.summary();
        assertEquals("us", s.unit());
        assertEquals(1000, s.count());
        assertEquals(all.meanNanos() / 1000, s.mean(), 1e-12);
    }
}
