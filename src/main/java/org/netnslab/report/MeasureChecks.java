package org.netnslab.report;

import static org.netnslab.report.JsonFields.at;
import static org.netnslab.report.ResultJsonReader.EDITED;

import org.netnslab.metrics.MeasureSummary;

/** The checks of one saved measure's figures that a run's own figures always pass: what an edit trips. */
final class MeasureChecks {
    private MeasureChecks() {}

    /**
     * @param f the reader, for its messages
     * @param mp the measure's path in result.json
     * @param s its figures, of a measure with values (count above 0)
     * @throws ReportInputException naming the figure that a run never writes
     */
    static void check(JsonFields f, String mp, MeasureSummary s) throws ReportInputException {
        double[] figures = {s.mean(), s.p50(), s.p90(), s.p99(), s.p999()};
        String[] names = {"mean", "p50", "p90", "p99", "p999"};
        for (int i = 0; i < figures.length; i++) {
            if (Double.isNaN(figures[i])) { // null: a figure the run did not have, which a measure with values has
                throw f.wrong(at(mp, names[i]), "null, though the measure has " + s.count() + " values" + EDITED);
            }
        }
        if (s.mean() > s.max() || s.p50() > s.max() || s.p99() > s.max()) { // a run's figures never are
            throw f.wrong(
                    mp,
                    "mean " + s.mean() + ", p50 " + s.p50() + " or p99 " + s.p99() + " above max " + s.max() + EDITED);
        }
        double[] ci = s.ci95();
        if (ci != null && ci.length == 2 && Double.isFinite(ci[0]) != Double.isFinite(ci[1])) { // one end alone
            throw f.wrong(at(mp, "ci95"), "[" + ci[0] + ", " + ci[1] + "]: one end without the other" + EDITED);
        }
        if (s.count() == 1 && ci != null && ci.length == 2 && ci[0] != ci[1] && Double.isFinite(ci[0])) {
            // one value has no interval (null since the rule; [mean, mean] before it)
            throw f.wrong(
                    at(mp, "ci95"), "[" + ci[0] + ", " + ci[1] + "] around a single value, which has none" + EDITED);
        }
        if (ci != null
                && ci.length == 2
                && Double.isFinite(ci[0])
                && Double.isFinite(ci[1])
                && !(ci[0] <= s.mean() && s.mean() <= ci[1])) { // an interval around the mean
            throw f.wrong(at(mp, "ci95"), "[" + ci[0] + ", " + ci[1] + "] does not hold the mean " + s.mean() + EDITED);
        }
        if (!(s.p50() <= s.p90() && s.p90() <= s.p99() && s.p99() <= s.p999())) { // one histogram's percentiles
            throw f.wrong(
                    mp,
                    "p50 " + s.p50() + ", p90 " + s.p90() + ", p99 " + s.p99() + ", p999 " + s.p999() + " do not rise"
                            + EDITED);
        }
    }
}
