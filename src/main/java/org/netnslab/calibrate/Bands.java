package org.netnslab.calibrate;

import org.netnslab.calibrate.Predictions.Row;

/**
 * The bands a prediction is judged against: a relative band ({@code +-25%}: throughput, means, CPU per message, loop
 * wall), a factor ({@code 2x}: p50 and p99, the out-of-order share and its growth, batch size, put-to-free) or an
 * absolute one ({@code +-0.1}: a share of the proc listeners' CPU).
 */
final class Bands {
    private Bands() {}

    /**
     * @param rel the band's half-width, relative to the host's figure
     * @param miss said when the prediction falls outside
     * @return the row: predicted within {@code +-rel} of the host's median
     */
    static Row within(
            String load, String measure, HostFigure measured, double predicted, double rel, MissReasons.Miss miss) {
        boolean ok = Math.abs(predicted / measured.median() - 1) <= rel;
        return row(load, measure, measured, predicted, "+-" + Math.round(rel * 100) + "%", ok, miss);
    }

    /**
     * @param f the factor, &gt; 1
     * @param miss said when the prediction falls outside
     * @return the row: both figures above 0, predicted within a factor {@code f} of the host's median either way
     */
    static Row factor(
            String load, String measure, HostFigure measured, double predicted, double f, MissReasons.Miss miss) {
        double r = predicted / measured.median();
        boolean ok = measured.median() > 0 && predicted > 0 && r <= f && r >= 1 / f;
        return row(load, measure, measured, predicted, Math.round(f) + "x", ok, miss);
    }

    /** @return {@link #factor} of a figure the host measured once */
    static Row factor(String load, String measure, double measured, double predicted, double f, MissReasons.Miss miss) {
        return factor(load, measure, HostFigure.once(measured), predicted, f, miss);
    }

    /**
     * @param abs the band's half-width, in the figure's unit
     * @param miss said when the prediction falls outside
     * @return the row of a figure the host measured once: predicted within {@code +-abs} of it
     */
    static Row absolute(
            String load, String measure, double measured, double predicted, double abs, MissReasons.Miss miss) {
        boolean ok = Math.abs(predicted - measured) <= abs;
        return row(load, measure, HostFigure.once(measured), predicted, "+-" + abs, ok, miss);
    }

    private static Row row(
            String load,
            String measure,
            HostFigure measured,
            double predicted,
            String band,
            boolean within,
            MissReasons.Miss miss) {
        return new Row(
                load,
                measure,
                measured.median(),
                predicted,
                band,
                within,
                within ? "" : miss.code(),
                within ? "" : miss.text(),
                measured.runs(),
                measured.low(),
                measured.high());
    }
}
