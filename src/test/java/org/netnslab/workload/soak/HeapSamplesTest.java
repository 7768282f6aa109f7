package org.netnslab.workload.soak;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** When the soak's heap counts as not flat: growth over the tolerance, from 3 samples over 2 intervals or more. */
public class HeapSamplesTest extends JUnitSuite {
    private static final long MIB = 1 << 20;

    private static HeapSamples growing(double... seconds) {
        HeapSamples h = new HeapSamples(0, 1_000_000_000L); // a sample a second
        for (double s : seconds) {
            h.record(s, (long) (100 * MIB + s * 40 * MIB)); // 40 MiB a second: far over 16 MiB + 10%
        }
        return h;
    }

    @Test
    public void aRunShorterThanTwoIntervalsIsNeverCalledNotFlat() {
        HeapSamples shortRun = growing(0, 1, 1.5); // a 1.5 s soak: start, one interval, the end
        assertEquals(3, shortRun.count());
        assertEquals(60 * MIB, shortRun.growth(), MIB / 100.0);
        assertFalse(shortRun.notFlat());
    }

    @Test
    public void threeSamplesOverTwoIntervalsAreJudged() {
        HeapSamples h = growing(0, 1, 2);
        assertEquals(80 * MIB, h.growth(), MIB / 100.0);
        assertEquals(16 * MIB + 10 * MIB, h.tolerance());
        assertTrue(h.notFlat());
        assertFalse("two samples are not judged", growing(0, 5).notFlat());
    }
}
