package org.netnslab.report;

import static org.netnslab.report.Html.esc;
import static org.netnslab.report.Html.fmt;
import static org.netnslab.report.Html.list;

import java.util.LinkedHashSet;
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
            h.append("<tr><td class=\"l\">").append(esc(d.name())).append("</td><td class=\"l\">");
            DesignKeys.differing(r.designs(), d)
                    .forEach((k, v) -> h.append("<code>")
                            .append(esc(k))
                            .append(" = ")
                            .append(esc(v))
                            .append("</code> "));
            h.append("</td><td>")
                    .append(String.format("%,.0f %s/s", d.throughputPerSec(), esc(d.throughputUnit())))
                    .append(DesignsAlike.arrivalBound(r) != null ? " (arrival-bound)" : "")
                    .append("</td><td>")
                    .append(fmt(d.wallSeconds()))
                    .append("</td></tr>\n");
        }
        h.append("</table>\n");
        Map<String, String> shared = DesignKeys.shared(r.designs());
        if (r.designs().size() > 1 && !shared.isEmpty()) {
            h.append("<details><summary>")
                    .append(shared.size())
                    .append(" more key")
                    .append(shared.size() == 1 ? "" : "s")
                    .append(" the same in every design</summary><p>");
            shared.forEach((k, v) -> h.append("<code>")
                    .append(esc(k))
                    .append(" = ")
                    .append(esc(v))
                    .append("</code> "));
            h.append("</p></details>\n");
        }
        String arrival = DesignsAlike.arrivalBound(r);
        if (arrival != null) {
            h.append("<p>").append(esc(arrival)).append("</p>\n");
        }
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
            h.append("<tr><td class=\"l\">")
                    .append(esc(d.name()))
                    .append("</td><td>")
                    .append(esc(s.unit()))
                    .append("</td><td>")
                    .append(s.count())
                    .append("</td>");
            for (double v : new double[] {s.mean(), s.sd(), s.p50(), s.p90(), s.p99(), s.p999(), s.max()}) {
                h.append("<td>").append(fmt(v)).append("</td>");
            }
            h.append("</tr>\n");
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
            WelchTest w = c.welch();
            h.append("<tr><td class=\"l\">")
                    .append(esc(c.measure()))
                    .append("</td><td class=\"l\">")
                    .append(esc(c.a()))
                    .append("</td><td class=\"l\">")
                    .append(esc(c.b()))
                    .append("</td><td>")
                    .append(fmt(c.meanA()))
                    .append("</td><td>")
                    .append(fmt(c.meanB()))
                    .append("</td><td>")
                    .append(fmt(c.ratioBOverA()))
                    .append("</td><td>")
                    .append(seed == null ? "" : fmt(seed))
                    .append("</td><td class=\"l\">")
                    .append(
                            c.replicates() < 2
                                    ? "one run"
                                    : esc(list(c.replicateRatios()) + "; " + ConsoleReport.spread(c.replicateRatios())))
                    .append("</td><td>")
                    .append(esc(ConsoleReport.interval(c.ratioCi())))
                    .append("</td>");
            if (w == null) {
                h.append("<td colspan=\"4\">")
                        .append(c.replicates() < 2 ? "no test from one run" : "no spread")
                        .append("</td>");
            } else {
                h.append("<td>")
                        .append(fmt(w.t()))
                        .append("</td><td>")
                        .append(fmt(w.df()))
                        .append("</td><td>")
                        .append(w.p() < 2.2e-16 ? "&lt; 2.2e-16" : String.format("%.3g", w.p()))
                        .append("</td><td>")
                        .append(fmt(w.ciLow()))
                        .append(" .. ")
                        .append(fmt(w.ciHigh()))
                        .append("</td>");
            }
            h.append("</tr>\n");
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

    /** Each replicate's order, and each design's throughput and measure means in it. */
    static void replicates(RunRecord r, StringBuilder h) {
        h.append(
                        "<h2>Replicates</h2>\n<table><tr><th>replicate</th><th class=\"l\">order</th><th class=\"l\">design</th>")
                .append("<th>throughput</th><th>counted phase (s)</th><th class=\"l\">means</th></tr>\n");
        for (ReplicateRecord rep : r.replicates()) {
            for (ReplicateRecord.Design d : rep.designs()) {
                h.append("<tr><td>")
                        .append(rep.index())
                        .append("</td><td class=\"l\">")
                        .append(esc(String.join(", ", rep.order())))
                        .append("</td><td class=\"l\">")
                        .append(esc(d.name()))
                        .append("</td><td>")
                        .append(String.format("%,.0f/s", d.throughputPerSec()))
                        .append("</td><td>")
                        .append(fmt(d.wallSeconds()))
                        .append("</td><td class=\"l\">");
                d.means()
                        .forEach((k, v) ->
                                h.append(esc(k)).append(' ').append(fmt(v)).append("; "));
                h.append("</td></tr>\n");
            }
        }
        h.append("</table>\n");
    }

    /** The seed's ratios across measures, beside the model's. */
    static void seedRatios(RunRecord r, StringBuilder h) {
        h.append("<h2>The seed's ratios</h2>\n<table><tr><th class=\"l\">ratio</th><th>model</th>")
                .append("<th>95% interval</th><th class=\"l\">per replicate</th><th>seed</th></tr>\n");
        for (var ratio : r.ratios()) {
            h.append("<tr><td class=\"l\">")
                    .append(esc(ratio.name()))
                    .append("</td><td>")
                    .append(fmt(ratio.model()))
                    .append("</td><td>")
                    .append(
                            ratio.replicates().size() < 2
                                    ? "one run"
                                    : fmt(ratio.ciLow()) + " .. " + fmt(ratio.ciHigh()))
                    .append("</td><td class=\"l\">")
                    .append(esc(list(ratio.replicates())))
                    .append("</td><td>")
                    .append(fmt(ratio.seed()))
                    .append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    /** The invariant counters, non-zero ones highlighted. */
    static void invariants(RunRecord r, StringBuilder h) {
        h.append("<h2>Invariants</h2>\n<p>Counts")
                .append(r.repeat() > 1 ? ", summed over the replicates" : "")
                .append("; anything non-zero is highlighted (out-of-order deliveries are")
                .append(
                        " expected under the lockless design, use-after-free under <code>exit-unsafe</code>).</p>\n<table><tr>")
                .append("<th class=\"l\">design</th>");
        r.designs()
                .get(0)
                .invariants()
                .keySet()
                .forEach(k -> h.append("<th>").append(esc(k)).append("</th>"));
        h.append("</tr>\n");
        for (DesignRecord d : r.designs()) {
            h.append("<tr><td class=\"l\">").append(esc(d.name())).append("</td>");
            for (long v : d.invariants().values()) {
                h.append(v == 0 ? "<td>" : "<td class=\"nonzero\">").append(v).append("</td>");
            }
            h.append("</tr>\n");
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
            h.append("<tr><td class=\"l\">").append(esc(d.name())).append("</td>");
            names.forEach(k ->
                    h.append("<td>").append(d.counters().getOrDefault(k, 0L)).append("</td>"));
            h.append("</tr>\n");
        }
        h.append("</table>\n");
    }
}
