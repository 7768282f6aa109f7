package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.junit.Test;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.SensitivityResult;
import org.scalatestplus.junit.JUnitSuite;

public class SensitivityConclusionTest extends JUnitSuite {
    private static SensitivityResult.Entry study(long baseB, long... sampleB) {
        return result(baseB, sampleB).comparisons().get(0);
    }

    private static SensitivityResult result(long baseB, long... sampleB) {
        DesignResult a = TinyRun.design("kernel-4.18", 50_000, 0, 1_000);
        Comparison base = Comparison.of("uevent.transaction", a, TinyRun.design("per-netns-2018", baseB, 0, 1_000));
        List<List<Comparison>> samples = java.util.Arrays.stream(sampleB)
                .mapToObj(b ->
                        List.of(Comparison.of("uevent.transaction", a, TinyRun.design("per-netns-2018", b, 0, 1_000))))
                .toList();
        double[][] factors = new double[sampleB.length][];
        for (int i = 0; i < factors.length; i++) {
            factors[i] = new double[] {1 + i * 0.1};
        }
        return SensitivityResult.of(
                List.of(base), c -> null, samples, List.of("uevent.send-inside"), factors, 0.5, 0.1, 1);
    }

    /** Two designs alike: ratio exactly 1, "no difference", holding in every sample that is alike too. */
    @Test
    public void designsAlikeConcludeNoDifferenceAndItHoldsInTheSamplesAlike() {
        SensitivityResult.Entry e = study(50_000, 50_000, 50_000, 40_000);
        assertEquals(1.0, e.baseRatio(), 0);
        assertEquals("no difference", e.conclusion());
        assertEquals(2.0 / 3, e.holdsShare(), 1e-12);
    }

    @Test
    public void aSmallerRatioIsFasterAndALargerSlower() {
        SensitivityResult.Entry faster = study(40_000, 40_000, 60_000);
        assertEquals("b faster than a", faster.conclusion());
        assertEquals(0.5, faster.holdsShare(), 1e-12);
        SensitivityResult.Entry slower = study(60_000, 60_000, 60_000);
        assertEquals("b slower than a", slower.conclusion());
        assertEquals(1.0, slower.holdsShare(), 1e-12);
    }

    /** A ratio the varied costs never move is said so, where the rank correlations can only print n/a. */
    @Test
    public void aRatioNoVariedCostMovesIsSaidSo() {
        String moved = SensitivityReport.console(result(40_000, 40_000, 60_000, 50_000));
        assertTrue(moved, moved.contains("ratio over the samples: min "));
        String still = SensitivityReport.console(result(40_000, 40_000, 40_000, 40_000));
        assertTrue(still, still.contains("ratio over the samples: 0."));
        assertTrue(still, still.contains(" in every one: none of the varied costs moves it"));
    }
}
