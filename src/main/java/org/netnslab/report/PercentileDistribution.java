package org.netnslab.report;

import java.util.List;

/**
 * One design's percentile distribution of one measure, as its {@code .hgrm} file lists it: what the
 * report's percentile chart draws. A run and a rebuild both take it from the {@code .hgrm} text (see
 * {@link HgrmFiles#parse}), so the chart drawn during a run and the one rebuilt later are the same.
 *
 * @param points the distribution's rows in file order, the 100% row left out (it cannot be drawn on a
 *     1/(1-p) axis); empty for a measure that recorded nothing
 */
public record PercentileDistribution(List<Point> points) {

    /**
     * One row of a {@code .hgrm} file.
     *
     * @param percentile the percentile as a fraction, 0 &lt;= p &lt; 1 (the file's Percentile column)
     * @param value the value at that percentile, in the measure's unit (the file's Value column)
     */
    public record Point(double percentile, double value) {}

    /** Copies the list. */
    public PercentileDistribution {
        points = List.copyOf(points);
    }
}
