package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.netnslab.calibrate.Predictions.Row;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Every band is relative to the host's figure: a share below 0.2 within a factor 2 either way, a larger one within
 * +-25% (an absolute +-0.1 passed anything from 0 to 0.14 around a share of 0.04).
 */
public class BandsTest extends JUnitSuite {
    private static Row share(double measured, double predicted) {
        return Bands.share(
                "proc listeners, 8000 processes",
                "listener CPU exit / all",
                RunsFigure.once(measured),
                RunsFigure.once(predicted),
                MissReasons.WAKEUP);
    }

    @Test
    public void aSmallShareIsJudgedByAFactorOfTwo() {
        Row far = share(0.04, 0.13);
        assertFalse(far.toString(), far.within());
        assertEquals("2x", far.band());
        assertEquals("WAKR", far.reason());
        Row near = share(0.04, 0.06);
        assertTrue(near.toString(), near.within());
        assertEquals("2x", near.band());
        assertFalse(share(0.04, 0.019).within());
        assertTrue(share(0.04, 0.021).within());
    }

    /** The reorder growth's miss says which way it went; a host share of 0 at the smallest M leaves no figure. */
    @Test
    public void theReorderGrowthsMissFollowsItsDirection() {
        Row high = UeventRows.reorderGrowth(new double[] {2, 0.01, 0.01}, new double[] {16, 0.01, 0.05});
        assertFalse(high.within());
        assertEquals("ORDH", high.reason());
        Row low = UeventRows.reorderGrowth(new double[] {2, 0.01, 0.01}, new double[] {16, 0.05, 0.01});
        assertEquals("ORDR", low.reason());
        Row none = UeventRows.reorderGrowth(new double[] {2, 0, 0.01}, new double[] {16, 0.03, 0.02});
        assertTrue(Double.isNaN(none.measured()));
        assertFalse(none.within());
        assertEquals("ORDH", none.reason());
        assertTrue(UeventRows.reorderGrowth(new double[] {2, 0.01, 0.01}, new double[] {16, 0.02, 0.03})
                .within());
    }

    /**
     * A ratio that two decimals would put on its own band's edge shows up to four (1.2502 beside "+-25%" and MISS is
     * 1.2502x; 0.7469 beside "2x" stays 0.75x), and a growth row's host cell says it is a ratio of two sizes.
     */
    @Test
    public void figuresShownOnABandsEdgeCarryMoreDecimals() {
        assertEquals("1.2502x", CalibrationConsole.ratio(share(0.4, 0.4 * 1.2502)));
        assertEquals("1.250x", CalibrationConsole.ratio(share(0.4, 0.5)));
        assertEquals("0.7482x", CalibrationConsole.ratio(share(0.4, 0.4 * 0.7482)));
        assertEquals("1.26x", CalibrationConsole.ratio(share(0.4, 0.4 * 1.2591)));
        assertEquals("0.75x", CalibrationConsole.ratio(share(0.1, 0.1 * 0.7469))); // a 2x band: no edge at 0.75
        assertEquals("0.4972x", CalibrationConsole.ratio(share(0.1, 0.1 * 0.4972)));
        assertEquals("1.2502", CalibrationConsole.ratioFigure(share(0.4, 0.4 * 1.2502)));
        Row growth = UeventRows.reorderGrowth(new double[] {2, 0.01, 0.01}, new double[] {16, 0.02, 0.03});
        assertEquals("two sizes' ratio", CalibrationReport.oneRun(growth));
        assertEquals("1 run", CalibrationReport.oneRun(share(0.4, 0.45)));
    }

    @Test
    public void aLargerShareIsJudgedWithinAQuarter() {
        Row near = share(0.4, 0.45);
        assertTrue(near.toString(), near.within());
        assertEquals("+-25%", near.band());
        Row far = share(0.4, 0.55);
        assertFalse(far.toString(), far.within());
        assertEquals("+-25%", far.band());
        assertTrue(share(0.2, 0.16).within()); // 0.2 is no longer small: -20%
        assertFalse(share(0.2, 0.14).within()); // -30%, which 2x would pass
    }

    @Test
    public void theHostsSpreadStaysBesideTheBand() {
        Row r = Bands.share(
                "l", "m", new RunsFigure(0.3, 0.2, 0.5, 3), new RunsFigure(0.33, 0.31, 0.36, 5), MissReasons.WAKEUP);
        assertTrue(r.within());
        assertEquals(3, r.runs());
        assertEquals(0.2, r.low(), 0);
        assertEquals(0.5, r.high(), 0);
        assertEquals(0.33, r.predicted(), 0);
        assertEquals(0.31, r.predictedLow(), 0);
        assertEquals(0.36, r.predictedHigh(), 0);
    }

    /**
     * Two zeros agree where no ratio can say so (a host and a model that both reordered nothing), and so do two
     * growths neither side has; a zero beside a figure does not.
     */
    @Test
    public void zeroBesideZeroIsWithin() {
        assertTrue(Bands.factor("reorder M=2", "out-of-order share", 0, 0, 2, MissReasons.REORDER)
                .within());
        assertTrue(Bands.factor("reorder M=2..4", "growth", Double.NaN, Double.NaN, 2, MissReasons.REORDER)
                .within());
        assertTrue(!Bands.factor("reorder M=2", "out-of-order share", 0, 0.01, 2, MissReasons.REORDER)
                .within());
        assertTrue(Bands.within("l", "m", RunsFigure.once(0), RunsFigure.once(0), 0.25, MissReasons.WAKEUP)
                .within());
        assertTrue(Repeatability.holds("2x", 0, 0));
        assertTrue(Repeatability.holds("+-25%", 0, 0));
        assertTrue(!Repeatability.holds("2x", 0, 0.01));
    }
}
