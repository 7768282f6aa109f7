package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** A fitted cost is shown as calibrated.conf writes it (whole ns), with the fit's figure where rounding moved it. */
public class FittedValueTextTest extends JUnitSuite {
    @Test
    public void aCostIsShownAsWrittenAndTheFitWhereRoundingMovedIt() {
        assertEquals("7 ns", CalibrationReport.ns(6.7));
        assertEquals(
                "  (the fit gave 6.7 ns; the model charges whole ns)",
                CalibrationReport.rounded("costs.uevent.broadcast-per-socket", 6.7));
        assertEquals("49 ns", CalibrationReport.ns(48.5)); // Math.round: half up, as the file writes it
        assertEquals("", CalibrationReport.rounded("costs.uevent.table-waiter", 48.7)); // 0.3 ns of 49: under 1%
        assertEquals("826 ns", CalibrationReport.ns(825.6));
        assertEquals("", CalibrationReport.rounded("costs.uevent.send-outside", 825.6));
        assertEquals("1.072 us", CalibrationReport.ns(1071.6));
        assertEquals("21.231 ms", CalibrationReport.ns(21_231_000.4));
        assertEquals("", CalibrationReport.rounded("costs.uevent.broadcast-cached-sockets", 1440.4)); // a count
        assertEquals("", CalibrationReport.rounded("machine.jitter", 0.205)); // dimensionless
    }
}
