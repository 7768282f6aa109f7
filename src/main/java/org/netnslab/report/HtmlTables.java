package org.netnslab.report;

import static org.netnslab.report.Html.esc;
import static org.netnslab.report.Html.fmt;
import static org.netnslab.report.Html.list;
import static org.netnslab.report.Html.row;
import static org.netnslab.report.Html.td;
import static org.netnslab.report.Html.tdLeft;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.WelchTest;

/** report.html's tables: the designs, a measure's figures, the comparisons, replicates, seed ratios and counts. */
final class HtmlTables {
    private HtmlTables() {}

    /** The designs, by the keys in which they differ (the shared ones folded), and the arrival-bound note. */
    static void designs(RunRecord r, StringBuilder h) {
        h.append("<h2>Designs</h2>\n<table><tr><th class=\"l\">design</th><th class=\"l\">")
                .append(r.designs().size() > 1 ? "where it differs" : "strategies")
                .append("</th><th>throughput</th><th>counted phase (s)</th></tr>\n");
        for (DesignRecord d : r.designs()) {
            h.append(row(
                    tdLeft(esc(d.name())),
                    tdLeft(keys(DesignKeys.differing(r.designs(), d))),
                    td(String.format("%s %s/s", ConsoleReport.rate(d.throughputPerSec()), esc(d.throughputUnit()))
                            + (DesignsAlike.arrivalBound(r) != null ? " (arrival-bound)" : "")),
                    td(fmt(d.wallSeconds()))));
        }
        h.append("</table>\n");
        Map<String, String> shared = DesignKeys.shared(r.designs());
        if (r.designs().size() > 1 && !shared.isEmpty()) {
            h.append("<details><summary>")
                    .append(shared.size())
                    .append(" more key")
                    .append(shared.size() == 1 ? "" : "s")
                    .append(" the same in every design</summary><p>")
                    .append(keys(shared))
                    .append("</p></details>\n");
        }
        String arrival = DesignsAlike.arrivalBound(r);
        if (arrival != null) {
            h.append("<p>").append(esc(arrival)).append("</p>\n");
        }
    }

    /** @return each key and its value as {@code <code>key = value</code>}, a space after each */
    private static String keys(Map<String, String> keys) {
        StringBuilder b = new StringBuilder();
        keys.forEach((k, v) ->
                b.append("<code>").append(esc(k)).append(" = ").append(esc(v)).append("</code> "));
        return b.toString();
    }

    /** One measure's figures, a row per design that has it. */
    static void measure(RunRecord r, String m, StringBuilder h) {
        h.append("<table><tr><th class=\"l\">design</th><th>unit</th><th>count</th>")
                .append(
                        "<th>mean</th><th>sd</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th></tr>\n");
        for (DesignRecord d : r.designs()) {
            MeasureSummary s = d.measures().get(m);
            if (s == null) {
                continue;
            }
            StringBuilder figures = new StringBuilder();
            for (double v : new double[] {s.mean(), s.sd(), s.p50(), s.p90(), s.p99(), s.p999(), s.max()}) {
                figures.append(td(fmt(v)));
            }
            h.append(row(tdLeft(esc(d.name())), td(esc(s.unit())), td(String.valueOf(s.count())), figures.toString()));
        }
        h.append("</table>\n");
    }

    /** The comparisons over replicate means, beside the seed's ratios, and a warning for each of the same model. */
    static void comparisons(RunRecord r, StringBuilder h) {
        h.append("<h2>Comparisons</h2>\n");
        if (r.repeat() == 1) {
            h.append("<p><b>").append(esc(ConsoleReport.oneRun())).append("</b></p>\n");
        } else {
            h.append("<p>Over ")
                    .append(r.repeat())
                    .append(" replicates, each design on a fresh model, design order")
                    .append(
                            " rotated. Means are the means of the replicate means; Welch's test compares the replicate means")
                    .append(" (n = ")
                    .append(r.repeat())
                    .append(" per design); the ratio's 95% interval is Fieller's,")
                    .append(
                            " with Welch-Satterthwaite degrees of freedom. An interval that holds 1 says the run cannot tell")
                    .append(" the two designs apart.</p>\n");
        }
        h.append("<table><tr><th>measure</th><th class=\"l\">a</th><th class=\"l\">b</th>")
                .append("<th>mean a</th><th>mean b</th><th>b / a</th><th>seed b / a</th><th>b / a per replicate</th>")
                .append(
                        "<th>95% interval of b / a</th><th>Welch t</th><th>df</th><th>p</th><th>95% CI of a - b</th></tr>\n");
        for (Comparison c : r.comparisons()) {
            Double seed = r.seedRatio(c.b());
            String unit = unit(r, c.measure());
            String means = tdLeft(esc(c.measure())) // the cells every row has, with figures or not
                    + tdLeft(esc(c.a()))
                    + tdLeft(esc(c.b()))
                    + td(figure(c.meanA(), unit))
                    + td(figure(c.meanB(), unit));
            if (!Double.isFinite(c.meanA()) || !Double.isFinite(c.meanB())) { // a design recorded nothing of it
                h.append(row(means, "<td colspan=\"8\">no figure: a design recorded none of this measure</td>"));
                continue;
            }
            String noRatio = noRatio(c.replicateRatios());
            if (noRatio != null) { // means of 0: no ratio to give
                h.append(row(means, "<td colspan=\"8\">" + esc(noRatio) + "</td>"));
                continue;
            }
            h.append(row(
                    means,
                    td(fmt(c.ratioBOverA())),
                    td(seed == null ? "" : fmt(seed)),
                    tdLeft(
                            c.replicates() < 2
                                    ? "one run"
                                    : esc(list(c.replicateRatios()) + "; "
                                            + ConsoleReport.spread(c.replicateRatios()))),
                    td(esc(ConsoleReport.interval(c.ratioCi()))),
                    welch(c, unit)));
        }
        h.append("</table>\n");
        for (Comparison c : r.comparisons()) {
            if (!c.designsDifferInUsedKeys()) {
                h.append("<p class=\"warning\"><b>Warning:</b> ")
                        .append(esc(c.sameModelNote()))
                        .append("</p>\n");
            }
        }
    }

    /** @return Welch's test's four cells: t, df, p and the interval of a - b; one cell saying why there is none */
    private static String welch(Comparison c, String unit) {
        WelchTest w = c.welch();
        if (w == null) {
            return "<td colspan=\"4\">" + (c.replicates() < 2 ? "no test from one run" : "no spread") + "</td>";
        }
        return td(fmt(w.t()))
                + td(fmt(w.df()))
                + td(w.p() < 2.2e-16 ? "&lt; 2.2e-16" : String.format("%.3g", w.p()))
                + td(fmt(w.ciLow()) + " .. " + fmt(w.ciHigh()) + unit);
    }

    /**
     * @return what the design's throughput counts, e.g. {@code " transactions"}; "" when result-extra.json is lost
     */
    private static String counted(RunRecord r, String design) {
        return r.designs().stream()
                .filter(d -> d.name().equals(design) && d.throughputUnit() != null)
                .map(d -> " " + esc(d.throughputUnit()))
                .findFirst()
                .orElse("");
    }

    /** @return a mean with its unit ({@code "52.01 us"}), or "-" for one that recorded nothing */
    private static String figure(double v, String unit) {
        return Double.isFinite(v) ? fmt(v) + unit : "-";
    }

    /** @return {@code " us"}: the measure's unit as the run's first design that has it records it, else "" */
    private static String unit(RunRecord r, String measure) {
        return r.designs().stream()
                .filter(d -> d.measures().containsKey(measure))
                .map(d -> " " + esc(d.measures().get(measure).unit()))
                .findFirst()
                .orElse("");
    }

    /** Each replicate's order, and each design's throughput and measure means in it. */
    static void replicates(RunRecord r, StringBuilder h) {
        h.append(
                        "<h2>Replicates</h2>\n<table><tr><th>replicate</th><th class=\"l\">order</th><th class=\"l\">design</th>")
                .append("<th>throughput</th><th>counted phase (s)</th><th class=\"l\">means</th></tr>\n");
        for (ReplicateRecord rep : r.replicates()) {
            for (ReplicateRecord.Design d : rep.designs()) {
                StringBuilder means = new StringBuilder();
                d.means()
                        .forEach((k, v) -> means.append(esc(k))
                                .append(' ')
                                .append(figure(v, unit(r, k)))
                                .append("; "));
                h.append(row(
                        td(String.valueOf(rep.index())),
                        tdLeft(esc(String.join(", ", rep.order()))),
                        tdLeft(esc(d.name())),
                        td(String.format("%s%s/s", ConsoleReport.rate(d.throughputPerSec()), counted(r, d.name()))),
                        td(fmt(d.wallSeconds())),
                        tdLeft(means.toString())));
            }
        }
        h.append("</table>\n");
    }

    /** The seed's ratios across measures, beside the model's. */
    static void seedRatios(RunRecord r, StringBuilder h) {
        h.append("<h2>The seed's ratios</h2>\n<table><tr><th class=\"l\">ratio</th><th>model</th>")
                .append("<th>95% interval</th><th class=\"l\">per replicate</th><th>seed</th></tr>\n");
        for (var ratio : r.ratios()) {
            h.append(row(
                    tdLeft(esc(ratio.name())),
                    td(fmt(ratio.model())),
                    td(ratio.replicates().size() < 2 ? "one run" : fmt(ratio.ciLow()) + " .. " + fmt(ratio.ciHigh())),
                    tdLeft(esc(list(ratio.replicates()))),
                    td(fmt(ratio.seed()))));
        }
        h.append("</table>\n");
    }

    /** The invariant counters, non-zero ones highlighted. */
    static void invariants(RunRecord r, StringBuilder h) {
        h.append("<h2>Invariants</h2>\n<p>Counts")
                .append(r.repeat() > 1 ? ", summed over the replicates" : "")
                .append("; anything non-zero is highlighted (out-of-order deliveries are expected under the lockless")
                .append(" design, out-of-order and duplicate SEQNUMs under <code>per-netns-2018</code> as posted,")
                .append(" use-after-free under <code>exit-unsafe</code>).</p>\n<table><tr>")
                .append("<th class=\"l\">design</th>");
        r.designs()
                .get(0)
                .invariants()
                .keySet()
                .forEach(k -> h.append("<th>").append(esc(k)).append("</th>"));
        h.append("</tr>\n");
        for (DesignRecord d : r.designs()) {
            StringBuilder counts = new StringBuilder();
            for (long v : d.invariants().values()) {
                counts.append(v == 0 ? "<td>" : "<td class=\"nonzero\">")
                        .append(v)
                        .append("</td>");
            }
            h.append(row(tdLeft(esc(d.name())), counts.toString()));
        }
        h.append("</table>\n");
    }

    /** Each design's event counts. */
    static void counters(RunRecord r, StringBuilder h) {
        h.append("<h2>Counters</h2>\n<table><tr><th class=\"l\">design</th>");
        Set<String> names = new LinkedHashSet<>();
        r.designs().forEach(d -> names.addAll(d.counters().keySet()));
        names.forEach(k -> h.append("<th>").append(esc(k)).append("</th>"));
        h.append("</tr>\n");
        for (DesignRecord d : r.designs()) {
            StringBuilder counts = new StringBuilder();
            // a counter the design does not keep (a pidfd monitor has no events_generated) is not a 0
            names.forEach(k -> counts.append(
                    td(d.counters().containsKey(k) ? String.valueOf(d.counters().get(k)) : "-")));
            h.append(row(tdLeft(esc(d.name())), counts.toString()));
        }
        h.append("</table>\n");
    }

    /**
     * @param replicateRatios a comparison's ratio in each replicate
     * @return why there is no ratio to give, naming the first replicate's kind of zero (0 / 0, or a denominator of 0),
     *     or null when every replicate has one
     */
    static String noRatio(List<Double> replicateRatios) {
        for (double v : replicateRatios) {
            if (!Double.isFinite(v)) {
                return "no ratio: " + ConsoleReport.ratioOrNone(v) + " in a replicate (a baseline's mean of 0)";
            }
        }
        return null;
    }
}
