package org.netnslab.metrics;

import org.HdrHistogram.Histogram;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Records one measure (latencies in ns by default): an HdrHistogram (3 significant digits, auto-resizing) for
 * percentiles, plus exact count, mean and variance (Welford) for the Welch test, which percentiles
 * rounded to 3 digits would blur.
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
  private double mean;
  private double m2;

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
    double delta = v - mean;
    mean += delta / count;
    m2 += delta * (v - mean);
  }

  /** Merges {@code other} into this one (Chan et al. parallel variance). */
  public void add(LatencyRecorder other) {
    if (other.count == 0) {
      return;
    }
    histogram.add(other.histogram);
    long n = count + other.count;
    double delta = other.mean - mean;
    m2 += other.m2 + delta * delta * ((double) count * other.count / n);
    mean += delta * other.count / n;
    count = n;
  }

  /** @return values recorded */
  public long count() {
    return count;
  }

  /** @return the exact mean in ns, 0 when empty */
  public double meanNanos() {
    return mean;
  }

  /** @return the exact sample variance in ns^2, 0 with fewer than 2 values */
  public double varianceNanos2() {
    return count < 2 ? 0 : m2 / (count - 1);
  }

  /** @return the histogram, in ns; do not modify */
  public Histogram histogram() {
    return histogram;
  }

  /**
   * @return the summary in {@link #unit()}: count, mean, sd, p50/p90/p99/p99.9, max, and the 95% CI of the mean
   *     (Student t with n-1 df)
   */
  public MeasureSummary summary() {
    double us = perUnit;
    double sd = Math.sqrt(varianceNanos2());
    double half = 0;
    if (count > 1) {
      half = new TDistribution(count - 1).inverseCumulativeProbability(0.975) * sd / Math.sqrt(count);
    }
    return new MeasureSummary(unit, count, mean / us, sd / us,
        histogram.getValueAtPercentile(50) / us, histogram.getValueAtPercentile(90) / us,
        histogram.getValueAtPercentile(99) / us, histogram.getValueAtPercentile(99.9) / us,
        histogram.getMaxValue() / us, new double[] {(mean - half) / us, (mean + half) / us});
  }
}
