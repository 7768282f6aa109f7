package org.netnslab.metrics;

import org.HdrHistogram.Histogram;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Records one measure (latencies in ns by default): an HdrHistogram (3 significant digits, auto-resizing) for
 * percentiles, plus exact count, mean and variance for the Welch test, which percentiles rounded to 3
 * digits would blur. The mean and variance come from exact integer sums (a long sum, a 128-bit sum of
 * squares), so they do not depend on the order values were recorded or merged in: a virtual run gives the
 * same figures to the last bit whatever order same-instant events are recorded in.
 *
 * <p>Single writer: each recording actor owns one; they are merged with {@link #add} after the
 * writers are done (the merge must happen-after their last record, e.g. through a future or a
 * message).
 */
public final class LatencyRecorder {
    private final Histogram histogram = new Histogram(3);
    private final String unit;
    private final double perUnit;
    private long count;
    private long sum;
    private long squaresHigh;
    private long squaresLow;

    /** A latency recorder: values in ns, reported in us. */
    public LatencyRecorder() {
        this("us", 1000.0);
    }

    /**
     * @param unit the unit values are reported in, e.g. "us" or "netns"
     * @param perUnit recorded values per reported unit (1000 for ns recorded, us reported; 1 for counts)
     */
    public LatencyRecorder(String unit, double perUnit) {
        this.unit = unit;
        this.perUnit = perUnit;
    }

    /**
     * A recorder holding exactly what another held (a design run's result sent between cluster nodes).
     *
     * @param unit as {@link #unit()}
     * @param perUnit as {@link #perUnit()}
     * @param histogram the values' histogram, ns (taken, not copied)
     * @param count values recorded
     * @param sum their exact sum, ns ({@link #sumNanos()})
     * @param squares their exact sum of squares, ns^2, as {high, low} 64-bit words ({@link #sumOfSquares()})
     * @return the recorder
     */
    public static LatencyRecorder restored(
            String unit, double perUnit, Histogram histogram, long count, long sum, long[] squares) {
        LatencyRecorder r = new LatencyRecorder(unit, perUnit);
        r.histogram.add(histogram);
        r.count = count;
        r.sum = sum;
        r.squaresHigh = squares[0];
        r.squaresLow = squares[1];
        return r;
    }

    /** @return the exact sum of squares of every value recorded, ns^2, as {high, low} unsigned 64-bit words */
    public long[] sumOfSquares() {
        return new long[] {squaresHigh, squaresLow};
    }

    /** @return the unit summaries and .hgrm files use */
    public String unit() {
        return unit;
    }

    /** @return recorded values per reported unit */
    public double perUnit() {
        return perUnit;
    }

    /**
     * @param nanos one latency in ns; negative values are recorded as 0
     */
    public void record(long nanos) {
        long v = Math.max(0, nanos);
        histogram.recordValue(v);
        count++;
        sum += v;
        addSquares(Math.multiplyHigh(v, v), v * v);
    }

    private void addSquares(long high, long low) {
        long lo = squaresLow + low;
        squaresHigh += high + (Long.compareUnsigned(lo, squaresLow) < 0 ? 1 : 0);
        squaresLow = lo;
    }

    /** Merges {@code other} into this one (exact: the sums add). */
    public void add(LatencyRecorder other) {
        if (other.count == 0) {
            return;
        }
        histogram.add(other.histogram);
        count += other.count;
        sum += other.sum;
        addSquares(other.squaresHigh, other.squaresLow);
    }

    /** @return values recorded */
    public long count() {
        return count;
    }

    /** @return the exact sum of every value recorded, ns */
    public long sumNanos() {
        return sum;
    }

    /** @return the exact mean in ns, NaN when empty (nothing recorded has no mean) */
    public double meanNanos() {
        return count == 0 ? Double.NaN : (double) sum / count;
    }

    /** @return the exact sample variance in ns^2, 0 with fewer than 2 values */
    public double varianceNanos2() {
        if (count < 2) {
            return 0;
        }
        java.math.BigInteger squares = java.math.BigInteger.valueOf(squaresHigh)
                .shiftLeft(64)
                .add(new java.math.BigInteger(Long.toUnsignedString(squaresLow)));
        java.math.BigInteger n = java.math.BigInteger.valueOf(count);
        java.math.BigInteger s = java.math.BigInteger.valueOf(sum);
        // (n * sum(x^2) - sum(x)^2) / (n (n - 1)), exact until the one division
        return new java.math.BigDecimal(squares.multiply(n).subtract(s.multiply(s)))
                .divide(
                        new java.math.BigDecimal(n.multiply(n.subtract(java.math.BigInteger.ONE))),
                        java.math.MathContext.DECIMAL128)
                .doubleValue();
    }

    /** @return the histogram, in ns; do not modify */
    public Histogram histogram() {
        return histogram;
    }

    /**
     * @return the summary in {@link #unit()}: count, mean, sd, p50/p90/p99/p99.9, max, and the 95% CI of the mean
     *     (Student t with n-1 df); sd and the CI NaN for a single value, every figure NaN for none
     */
    public MeasureSummary summary() {
        if (count == 0) { // nothing recorded has no mean or percentiles: null in result.json, never a real 0
            double none = Double.NaN;
            return new MeasureSummary(unit, 0, none, none, none, none, none, none, none, new double[] {none, none});
        }
        double us = perUnit;
        double mean = meanNanos();
        // one value has no spread to estimate: sd over n - 1 and its interval are undefined (null in result.json)
        double sd = count == 1 ? Double.NaN : Math.sqrt(varianceNanos2());
        double half = count == 1 ? Double.NaN : 0;
        if (count > 1) {
            half = new TDistribution(count - 1).inverseCumulativeProbability(0.975) * sd / Math.sqrt(count);
        }
        return new MeasureSummary(
                unit,
                count,
                mean / us,
                sd / us,
                histogram.getValueAtPercentile(50) / us,
                histogram.getValueAtPercentile(90) / us,
                histogram.getValueAtPercentile(99) / us,
                histogram.getValueAtPercentile(99.9) / us,
                histogram.getMaxValue() / us,
                new double[] {(mean - half) / us, (mean + half) / us});
    }
}
