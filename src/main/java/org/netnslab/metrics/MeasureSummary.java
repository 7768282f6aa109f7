package org.netnslab.metrics;

/**
 * One measure's statistics for one design, as result.json schema 1 lists them. Values in {@code unit}.
 *
 * @param unit "us" for latencies
 * @param count values recorded
 * @param mean exact mean
 * @param sd exact sample standard deviation
 * @param p50 median (HdrHistogram, 3 significant digits)
 * @param p90 90th percentile
 * @param p99 99th percentile
 * @param p999 99.9th percentile
 * @param max largest value
 * @param ci95 95% confidence interval of the mean, {lo, hi}
 */
public record MeasureSummary(
        String unit,
        long count,
        double mean,
        double sd,
        double p50,
        double p90,
        double p99,
        double p999,
        double max,
        double[] ci95) {}
