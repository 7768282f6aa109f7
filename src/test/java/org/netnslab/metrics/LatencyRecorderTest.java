package org.netnslab.metrics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** A measure's sd is the sample's over n - 1, with its 95% interval: none for a single value. */
public class LatencyRecorderTest extends JUnitSuite {
    @Test
    public void oneValueHasNoSdAndNoInterval() {
        LatencyRecorder r = new LatencyRecorder();
        r.record(2_000);
        MeasureSummary s = r.summary();
        assertEquals(1, s.count());
        assertEquals(2.0, s.mean(), 0);
        assertTrue(Double.isNaN(s.sd()));
        assertTrue(Double.isNaN(s.ci95()[0]) && Double.isNaN(s.ci95()[1]));
    }

    @Test
    public void twoValuesHaveTheSampleSdAndTheStudentInterval() {
        LatencyRecorder r = new LatencyRecorder();
        r.record(1_000);
        r.record(3_000);
        MeasureSummary s = r.summary();
        assertEquals(Math.sqrt(2.0), s.sd(), 1e-12); // ((1 - 2)^2 + (3 - 2)^2) / (2 - 1) us^2
        // t(0.975, 1 df) = 12.706: 2 +- 12.706 * 1.4142 / 1.4142
        assertEquals(2 - 12.706204736, s.ci95()[0], 1e-6);
        assertEquals(2 + 12.706204736, s.ci95()[1], 1e-6);
    }
}
