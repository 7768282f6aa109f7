package org.netnslab.metrics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class RatioIntervalTest extends JUnitSuite {
    /** Five replicate means of a baseline and of another design (us). */
    static final double[] A = {52.1, 49.8, 55.3, 50.6, 53.0};

    static final double[] B = {41.2, 47.9, 39.5, 44.8, 43.1};

    @Test
    public void fiellerIntervalOfAFixedDataSet() {
        // Expected from scipy 1.17.1, not from this formula: df = Welch-Satterthwaite of mean(B) - R mean(A) at
        // R = mean(B)/mean(A); t = scipy.stats.t.ppf(0.975, df); the bounds are the roots of
        // (mean(B) - R mean(A))^2 - t^2 (var(B)/5 + R^2 var(A)/5), found by scipy.optimize.brentq.
        // R's mratios::ttestratio(B, A, var.equal = FALSE) defines the same interval (Tamhane and Logan 2004).
        RatioInterval ci = RatioInterval.fieller(A, B);
        assertEquals(0.83013803681, ci.estimate(), 1e-10);
        assertEquals(6.2175172427, ci.df(), 1e-8);
        assertEquals(0.754505400813, ci.low(), 1e-9);
        assertEquals(0.909113392683, ci.high(), 1e-9);
        assertTrue(ci.bounded());
    }

    @Test
    public void aDenominatorNotClearlyNonZeroGivesNoBoundedInterval() {
        // mean 0.1, one-sample t-test against 0: p = 0.73 (scipy), so ratios of any size fit the data
        RatioInterval ci =
                RatioInterval.fieller(new double[] {0.5, -0.4, 0.6, -0.3}, new double[] {1.0, 1.2, 0.9, 1.1});
        assertFalse(ci.bounded());
        assertTrue(Double.isNaN(ci.low()));
        assertEquals(10.5, ci.estimate(), 1e-9);
    }

    @Test
    public void noSpreadGivesTheRatioItself() {
        RatioInterval ci = RatioInterval.fieller(new double[] {2, 2, 2}, new double[] {3, 3, 3});
        assertEquals(1.5, ci.low(), 0);
        assertEquals(1.5, ci.high(), 0);
    }

    @Test(expected = IllegalArgumentException.class)
    public void needsTwoReplicates() {
        RatioInterval.fieller(new double[] {1}, new double[] {2, 3});
    }

    private static List<DesignResult> replicates(String name, double[] meansUs) {
        List<DesignResult> out = new ArrayList<>();
        for (double m : meansUs) {
            LatencyRecorder r = new LatencyRecorder();
            r.record(Math.round(m * 1000) - 500); // two values around the replicate's mean, in ns
            r.record(Math.round(m * 1000) + 500);
            Map<String, LatencyRecorder> rec = new LinkedHashMap<>();
            rec.put("x", r);
            out.add(new DesignResult(name, Map.of(), rec, 1, "ops", 1, Invariants.NONE, Map.of(), List.of()));
        }
        return out;
    }

    @Test
    public void aComparisonTestsTheReplicateMeansNotTheSamples() {
        Comparison c = Comparison.of("x", replicates("a", A), replicates("b", B));
        assertEquals(5, c.replicates());
        assertEquals(List.of(52.1, 49.8, 55.3, 50.6, 53.0), c.replicateMeansA());
        // scipy.stats.ttest_ind(A, B, equal_var=False): t = 5.07855235737, df = 6.9447745081, p = 0.00146797686836
        assertEquals(5.07855235737, c.welch().t(), 1e-9);
        assertEquals(6.9447745081, c.welch().df(), 1e-8);
        assertEquals(0.00146797686836, c.welch().p(), 1e-11);
        assertEquals(0.754505400813, c.ratioCi().low(), 1e-9);
        assertEquals(0.83013803681, c.ratioBOverA(), 1e-10);
        assertEquals(41.2 / 52.1, c.replicateRatios().get(0), 1e-12);
    }

    @Test
    public void aComparisonOfOneRunHasNoTestAndNoInterval() {
        Comparison c = Comparison.of("x", replicates("a", new double[] {50}), replicates("b", new double[] {40}));
        assertNull(c.welch());
        assertNull(c.ratioCi());
        assertEquals(0.8, c.ratioBOverA(), 1e-12);
    }

    @Test
    public void aDerivedRatioIsSummarisedOverItsReplicateValues() {
        // mean 0.4, sd 0.1 over 4 values; half-width qt(0.975, 3) * 0.1 / 2 with qt = 3.182446305 (scipy t.ppf)
        RunResult.DerivedRatio r = RunResult.DerivedRatio.over("n / d", 0.35, List.of(0.3, 0.5, 0.3, 0.5));
        assertEquals(0.4, r.model(), 1e-12);
        double sd = Math.sqrt(4 * 0.01 / 3);
        assertEquals(0.4 - 3.182446305 * sd / 2, r.ciLow(), 1e-9);
        assertEquals(0.4 + 3.182446305 * sd / 2, r.ciHigh(), 1e-9);
        assertTrue(Double.isNaN(
                RunResult.DerivedRatio.over("n / d", 0.35, List.of(0.3)).ciLow()));
    }
}
