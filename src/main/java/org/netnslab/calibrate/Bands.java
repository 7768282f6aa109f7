package org.netnslab.calibrate;

import org.netnslab.calibrate.Predictions.Row;

/**
 * The bands a prediction is judged against, every one relative to the host's figure: {@code +-25%} (throughput,
 * means, CPU per message, loop wall), a factor {@code 2x} (p50 and p99, the out-of-order share and its growth, batch
 * size, put-to-free), and for a share of the proc listeners' CPU one of the two by the share's size ({@link #share}).
 */
final class Bands {
    private Bands() {}

    /** A share below this (a fraction of 1) is judged by a factor {@link #SMALL_SHARE_FACTOR}, else within +-25%. */
    static final double SMALL_SHARE = 0.2;

    /** The factor a small share is judged by: an absolute band would pass anything from 0 to 0.14 around 0.04. */
    static final double SMALL_SHARE_FACTOR = 2;

    /**
     * @param rel the band's half-width, relative to the host's figure
     * @param miss said when the prediction falls outside
     * @return the row: the model's median within {@code +-rel} of the host's median
     */
    static Row within(
            String load, String measure, RunsFigure measured, RunsFigure predicted, double rel, MissReasons.Miss miss) {
        boolean ok = agree(measured.median(), predicted.median())
                || Math.abs(predicted.median() / measured.median() - 1) <= rel;
        return row(load, measure, measured, predicted, "+-" + Math.round(rel * 100) + "%", ok, miss);
    }

    /**
     * @param f the factor, &gt; 1
     * @param miss said when the prediction falls outside
     * @return the row: both figures above 0, predicted within a factor {@code f} of the host's median either way
     */
    static Row factor(
            String load, String measure, RunsFigure measured, RunsFigure predicted, double f, MissReasons.Miss miss) {
        double r = predicted.median() / measured.median();
        boolean ok = agree(measured.median(), predicted.median())
                || measured.median() > 0 && predicted.median() > 0 && r <= f && r >= 1 / f;
        return row(load, measure, measured, predicted, Math.round(f) + "x", ok, miss);
    }

    /** @return {@link #factor} of a figure the host measured once */
    static Row factor(String load, String measure, double measured, double predicted, double f, MissReasons.Miss miss) {
        return factor(load, measure, RunsFigure.once(measured), RunsFigure.once(predicted), f, miss);
    }

    /**
     * A share (a fraction of 1, e.g. one listener's CPU over another's): below {@link #SMALL_SHARE} (the host's
     * median) within a factor {@link #SMALL_SHARE_FACTOR} either way, else within +-25%.
     *
     * @param measured the host's share
     * @param predicted the model's share over its runs
     * @param miss said when the prediction falls outside
     * @return the row
     */
    static Row share(String load, String measure, RunsFigure measured, RunsFigure predicted, MissReasons.Miss miss) {
        return measured.median() < SMALL_SHARE
                ? factor(load, measure, measured, predicted, SMALL_SHARE_FACTOR, miss)
                : within(load, measure, measured, predicted, 0.25, miss);
    }

    /**
     * @return whether two figures agree where no ratio can say so: both 0 (neither reordered, say), or both NaN (a
     *     growth neither side has, each having reordered nothing at the smallest M)
     */
    static boolean agree(double measured, double predicted) {
        return measured == 0 && predicted == 0 || Double.isNaN(measured) && Double.isNaN(predicted);
    }

    private static Row row(
            String load,
            String measure,
            RunsFigure measured,
            RunsFigure predicted,
            String band,
            boolean within,
            MissReasons.Miss miss) {
        return new Row(
                load,
                measure,
                measured.median(),
                predicted.median(),
                band,
                within,
                within ? "" : miss.code(),
                within ? "" : miss.text(),
                measured.runs(),
                measured.low(),
                measured.high(),
                predicted.runs() > 1 ? predicted.low() : Double.NaN,
                predicted.runs() > 1 ? predicted.high() : Double.NaN);
    }
}
