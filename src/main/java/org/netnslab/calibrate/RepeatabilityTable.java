package org.netnslab.calibrate;

import java.util.List;
import org.netnslab.calibrate.Repeatability.Line;
import org.netnslab.calibrate.Repeatability.Result;
import org.netnslab.calibrate.Repeatability.Tally;

/** {@link Repeatability}'s table as text for the console and as CSV to plot. Stateless. */
public final class RepeatabilityTable {
    private RepeatabilityTable() {}

    /**
     * @param r a comparison
     * @return the table, a row a line, and the counts over every row and over the rows at the largest sizes
     */
    public static String text(Result r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                "Each prediction-set row over %d recordings of %s: the model's predictions as each file stored them"
                        + " within band, and the host's figure of the other recordings taken as the prediction%n",
                r.files().size(), r.host()));
        b.append(String.format("  %-36s %-44s %8s %8s %8s%n", "load", "measure", "model", "host", "median"));
        for (Line l : r.lines()) {
            b.append(String.format(
                    "  %-36s %-44s %8s %7.0f%% %8s%n",
                    l.load() + (l.largest() ? " *" : ""),
                    l.measure(),
                    l.modelWithin() + "/" + l.recordings(),
                    100 * l.pairShare(),
                    l.othersMedianWithin() + "/" + l.recordings()));
        }
        b.append(
                "  model: recordings whose prediction is within; host: another recording's host figure within, over every"
                        + " pair; median: recordings within of the median of the others' host figures; *: a largest size\n");
        b.append(summary("all rows", r.lines()));
        b.append(summary(
                "largest sizes", r.lines().stream().filter(Line::largest).toList()));
        b.append(String.format(
                "a recording, median over the %d: the model within on %s of %s rows (%s of %s at the largest sizes);"
                        + " the median of the other recordings' host figures on %s (%s)%n",
                r.files().size(),
                median(r.tallies(), Tally::modelWithin),
                median(r.tallies(), Tally::rows),
                median(r.tallies(), Tally::largestModelWithin),
                median(r.tallies(), Tally::largestRows),
                median(r.tallies(), Tally::othersMedianWithin),
                median(r.tallies(), Tally::largestOthersMedianWithin)));
        return b.toString();
    }

    /**
     * @param r a comparison
     * @return the lines as CSV with a header: load, measure, recordings, model_within, host_pair_share,
     *     others_median_within, largest
     */
    public static String csv(Result r) {
        StringBuilder b = new StringBuilder(
                "load,measure,recordings,model_within,host_pair_share,others_median_within,largest\n");
        for (Line l : r.lines()) {
            b.append(String.format(
                    java.util.Locale.ROOT,
                    "\"%s\",\"%s\",%d,%d,%.4f,%d,%b%n",
                    l.load(),
                    l.measure(),
                    l.recordings(),
                    l.modelWithin(),
                    l.pairShare(),
                    l.othersMedianWithin(),
                    l.largest()));
        }
        return b.toString();
    }

    private static String summary(String what, List<Line> lines) {
        long n = lines.stream().mapToLong(Line::recordings).sum();
        if (n == 0) {
            return "";
        }
        long model = lines.stream().mapToLong(Line::modelWithin).sum();
        double pairs =
                lines.stream().mapToDouble(l -> l.pairShare() * l.recordings()).sum();
        long median = lines.stream().mapToLong(Line::othersMedianWithin).sum();
        return String.format(
                "%s: the model within on %d of %d (%.0f%%); another recording's host figure on %.0f%%; the median of"
                        + " the others on %d (%.0f%%)%n",
                what, model, n, 100.0 * model / n, 100 * pairs / n, median, 100.0 * median / n);
    }

    /** @return the median of one count over the recordings, as a whole number or a half */
    private static String median(List<Tally> ts, java.util.function.ToIntFunction<Tally> count) {
        double m = CostFit.medianOf(ts.stream().mapToDouble(count::applyAsInt).toArray());
        return m == Math.rint(m) ? String.valueOf((long) m) : String.valueOf(m);
    }
}
