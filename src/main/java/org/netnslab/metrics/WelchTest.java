package org.netnslab.metrics;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.descriptive.StatisticalSummaryValues;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Welch's two-sample t-test (unequal variances), as R's {@code t.test(x, y)} computes and prints it:
 * t, Welch-Satterthwaite df, two-sided p, and the 95% CI of mean(x) - mean(y). t and p come from
 * commons-math3's {@link TTest}.
 *
 * <p>A run compares designs over their replicate means ({@link #of(double[], double[])}, n = the
 * number of replicates): the values within one run are closed-loop transaction times, strongly
 * correlated with each other, so a test that took each of them as an independent sample would claim
 * a certainty (p &lt; 2.2e-16) that the next run contradicts.
 *
 * @param t the t statistic
 * @param df the Welch-Satterthwaite degrees of freedom
 * @param p the two-sided p-value (0 when below double precision; printed as R does, "< 2.2e-16")
 * @param ciLow lower bound of the 95% CI of mean(x) - mean(y), in the samples' unit
 * @param ciHigh upper bound
 * @param meanX mean of x
 * @param meanY mean of y
 */
public record WelchTest(double t, double df, double p, double ciLow, double ciHigh, double meanX, double meanY) {

    /**
     * @param x the first sample, e.g. the baseline's replicate means, at least 2 values
     * @param y the second sample, at least 2 values
     * @return the test
     * @throws IllegalArgumentException when a sample has fewer than 2 values or both have no spread
     */
    public static WelchTest of(double[] x, double[] y) {
        if (x.length < 2 || y.length < 2) {
            throw new IllegalArgumentException(
                    "Welch test needs at least 2 values per sample, got " + x.length + " and " + y.length);
        }
        return of(
                StatUtils.mean(x), StatUtils.variance(x), x.length, StatUtils.mean(y), StatUtils.variance(y), y.length);
    }

    /**
     * @param meanX mean of x
     * @param varX sample variance of x
     * @param nX size of x, at least 2
     * @param meanY mean of y
     * @param varY sample variance of y
     * @param nY size of y, at least 2
     * @return the test
     * @throws IllegalArgumentException when a sample has fewer than 2 values or both variances are 0
     */
    public static WelchTest of(double meanX, double varX, long nX, double meanY, double varY, long nY) {
        if (nX < 2 || nY < 2) {
            throw new IllegalArgumentException(
                    "Welch test needs at least 2 values per sample, got " + nX + " and " + nY);
        }
        double seX2 = varX / nX;
        double seY2 = varY / nY;
        double se2 = seX2 + seY2;
        if (se2 <= 0) {
            throw new IllegalArgumentException("Welch test: both samples have zero variance");
        }
        StatisticalSummaryValues x = new StatisticalSummaryValues(meanX, varX, nX, Double.NaN, Double.NaN, meanX * nX);
        StatisticalSummaryValues y = new StatisticalSummaryValues(meanY, varY, nY, Double.NaN, Double.NaN, meanY * nY);
        TTest tTest = new TTest();
        double t = tTest.t(x, y);
        double p = tTest.tTest(x, y);
        double df = se2 * se2 / (seX2 * seX2 / (nX - 1) + seY2 * seY2 / (nY - 1));
        double q = new TDistribution(df).inverseCumulativeProbability(0.975);
        double diff = meanX - meanY;
        double half = q * Math.sqrt(se2);
        return new WelchTest(t, df, p, diff - half, diff + half, meanX, meanY);
    }

    /**
     * @param xName name of sample x (a design)
     * @param yName name of sample y
     * @param unit the unit of means and CI, e.g. "us"
     * @return the test printed in R's layout
     */
    public String formatLikeR(String xName, String yName, String unit) {
        String pText = p < 2.2e-16 ? "p-value < 2.2e-16" : "p-value = " + sig(p, 4);
        return "\n\tWelch Two Sample t-test\n\n"
                + "data:  " + xName + " and " + yName + "\n"
                + "t = " + sig(t, 5) + ", df = " + sig(df, 5) + ", " + pText + "\n"
                + "alternative hypothesis: true difference in means is not equal to 0\n"
                + "95 percent confidence interval:\n"
                + " " + sig(ciLow, 7) + " " + sig(ciHigh, 7) + "\n"
                + "sample estimates (" + unit + "):\n"
                + String.format("%12s %12s%n", "mean of x", "mean of y")
                + String.format("%12s %12s%n", sig(meanX, 7), sig(meanY, 7));
    }

    /** Formats like R's print with {@code digits} significant digits (no trailing zeros, no exponent for df). */
    static String sig(double v, int digits) {
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return v == 0 ? "0" : Double.toString(v);
        }
        java.math.BigDecimal bd = new java.math.BigDecimal(v).round(new java.math.MathContext(digits));
        String s = bd.abs().compareTo(new java.math.BigDecimal("1e-4")) < 0
                ? String.format("%." + (digits - 1) + "e", v)
                : bd.stripTrailingZeros().toPlainString();
        return s;
    }
}
