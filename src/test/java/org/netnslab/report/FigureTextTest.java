package org.netnslab.report;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.netnslab.metrics.RatioInterval;
import org.scalatestplus.junit.JUnitSuite;

/** Figures echoed in a verdict are written with the digits a user gave or reads elsewhere in the report. */
public class FigureTextTest extends JUnitSuite {
    @Test
    public void aSeedKeepsItsThirdDecimalAndAtLeastTwo() {
        assertEquals("1.067", Verdict.seed(1.067)); // the unshare loop's seed, printed 1.067 by its ratio line too
        assertEquals("0.82", Verdict.seed(0.82));
        assertEquals("0.80", Verdict.seed(0.8));
        assertEquals("1.00", Verdict.seed(1));
        assertEquals("0.124", Verdict.seed(0.12449)); // three decimals at most, rounded half up
        assertEquals("NaN", Verdict.seed(Double.NaN));
    }

    @Test
    public void anIntervalBelowZeroSaysWhyAndHowToReadIt() {
        assertEquals(
                "-0.214 .. 0.873 (Fieller, Welch-Satterthwaite df 2.10); below 0: the compared design's mean is not"
                        + " clearly above 0 over these replicates (read it as 0 .. 0.873)",
                ConsoleReport.interval(new RatioInterval(0.4, -0.2138, 0.8731, 2.1)));
        assertEquals(
                "0.206 .. 0.567 (Fieller, Welch-Satterthwaite df 4.41)",
                ConsoleReport.interval(new RatioInterval(0.4, 0.2061, 0.5669, 4.41)));
        // replicates with no spread: no finite df, as result.json's null says
        assertEquals(
                "1.000 .. 1.000 (Fieller, no spread over the replicates)",
                ConsoleReport.interval(new RatioInterval(1, 1, 1, Double.POSITIVE_INFINITY)));
    }

    /** A throughput is whole from 100 a second; below, three significant digits keep a 6% gap from reading as 12%. */
    @Test
    public void aThroughputBelowAHundredKeepsThreeSignificantDigits() {
        assertEquals("545,449", ConsoleReport.rate(545_449.4));
        assertEquals("100", ConsoleReport.rate(99.96));
        assertEquals("99.9", ConsoleReport.rate(99.94));
        assertEquals("7.38", ConsoleReport.rate(7.3775));
        assertEquals("7.80", ConsoleReport.rate(7.8));
        assertEquals("0.00123", ConsoleReport.rate(0.0012345));
        assertEquals("0", ConsoleReport.rate(0));
        assertEquals("-", ConsoleReport.rate(Double.NaN));
    }
}
