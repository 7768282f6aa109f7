package org.netnslab.report;

import java.awt.Color;
import java.awt.Rectangle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.MeasureDescriptions;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.WelchTest;

/**
 * Writes report.html: one self-contained page (inline SVG charts drawn by JFreeChart, no network) with
 * the scenario and its designs, a table and a percentile chart per measure (merged over the
 * replicates), throughput over time (the first replicate's), the comparisons over replicate means
 * (each replicate's ratio, the ratio's 95% interval, Welch's test) beside the seed's ratios, each
 * replicate's figures, and the invariant counters (summed over replicates), non-zero ones
 * highlighted. A run of one replicate says that no significance can be claimed from it. The page is well-formed XHTML, so any XML parser can read it.
 *
 * <p>It renders a {@link RunRecord} only, so the page a run writes and the one {@code netns-lab report}
 * rebuilds from the saved results are the same, byte for byte (the SVG ids are numbered, not drawn
 * from the clock). A record read back with notes (files that could not be read) lists them at the
 * top; a design whose {@code .hgrm} was missing has no line in that measure's chart.
 *
 * <p>The page opens with the run's {@link Verdict}; the designs table shows only the keys in which they
 * differ (the rest folded); designs whose chart lines coincide share one line, named so in the legend; a
 * chart with nothing to draw is left out, with a sentence. (Over 300 lines: one page, rendered top to
 * bottom in one place, reads more easily than split across classes by section.)
 */
public final class HtmlReport {
    private static final int WIDTH = 760;
    private static final int HEIGHT = 380;

    private HtmlReport() {}

    /**
     * @param r the run
     * @param file where to write
     * @throws IOException when it cannot be written
     */
    public static void write(RunRecord r, Path file) throws IOException {
        Files.writeString(file, render(r), StandardCharsets.UTF_8);
    }

    /**
     * @param r the run
     * @return the page
     */
    public static String render(RunRecord r) {
        StringBuilder h = new StringBuilder();
        h.append(
                        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>")
                .append("<title>netns-lab: ")
                .append(esc(r.scenario()))
                .append("</title><style>")
                .append("body{font-family:sans-serif;margin:2em;color:#222}")
                .append(
                        "table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{border:1px solid #bbb;padding:3px 8px;")
                .append("text-align:right}th{background:#eee}td.l,th.l{text-align:left}td.nonzero{background:#f8c8c8;")
                .append("font-weight:bold}.chart{margin:0.5em 0 2em}code{background:#f4f4f4}")
                .append(".verdict{border-left:4px solid #4a7;padding:0.2em 1em;background:#f4faf6}")
                .append(".verdict li{margin:0.3em 0}li.disagrees{color:#a00;font-weight:bold}</style></head><body>\n");
        h.append("<h1>")
                .append(esc(r.scenario()))
                .append("</h1>\n<p>")
                .append(esc(r.description()))
                .append("</p>\n");
        Verdict verdict = Verdict.of(r); // the answer first: everything below is its evidence
        h.append("<div class=\"verdict\"><h2>Verdict</h2>\n<ul>");
        for (Verdict.Line l : verdict.lines()) {
            h.append(Boolean.FALSE.equals(l.agrees()) ? "<li class=\"disagrees\">" : "<li>")
                    .append(esc(l.text()))
                    .append("</li>\n");
        }
        h.append("<li>").append(esc(verdict.invariants())).append("</li></ul></div>\n");
        RunResult.ExecutionInfo ex = r.execution();
        h.append("<p>Seed: ")
                .append(esc(ConsoleReport.seed(r)))
                .append("<br/>Scale ")
                .append(r.scale())
                .append(", started ")
                .append(esc(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
                        .withZone(java.time.ZoneOffset.UTC)
                        .format(r.started())))
                .append(", wall ")
                .append(fmt(r.wallSeconds()))
                .append(" s<br/>Host (where the JVM ran): ")
                .append(r.machine().cpus())
                .append(" CPUs, Java ")
                .append(esc(r.machine().java()))
                .append(", Akka ")
                .append(esc(r.machine().akka()))
                .append("<br/>")
                .append(
                        ex == null
                                ? ""
                                : ex.isVirtual()
                                        ? "Simulated machine (what the figures are of): "
                                                + (ex.sweep()
                                                        ? "CPUs swept over " + ex.cpus()
                                                        : ex.cpus().get(0) + " CPUs")
                                                + ", jitter " + ex.jitter()
                                                + ", random-seed " + ex.randomSeed() + "<br/>"
                                        : "Live execution: the figures are of the host<br/>")
                .append(esc(ConsoleReport.clocks(r)))
                .append("</p>\n");
        if (!r.notes().isEmpty()) {
            h.append("<p><b>Rebuilt from saved results, some of which could not be read:</b></p>\n<ul>");
            r.notes().forEach(n -> h.append("<li>").append(esc(n)).append("</li>"));
            h.append("</ul>\n");
        }
        if (!r.overrides().isEmpty()) {
            h.append("<p>Overrides (the description above does not include them): <code>")
                    .append(esc(String.join(" ", r.overrides())))
                    .append("</code></p>\n");
        }
        if (!(r.execution() != null && r.execution().isVirtual()) // virtual time has no noise to warn of
                && r.designs().stream().anyMatch(d -> d.wallSeconds() < 2)) {
            h.append("<p><b>Note:</b> a counted phase took under 2 s; at this scale JIT warm-up and scheduling noise")
                    .append(
                            " dominate, so its rates (and any ratio between designs) can change from run to run. Raise --scale until every counted phase lasts a few seconds, and use --repeat 5 for intervals.</p>\n");
        }
        h.append("<p>The page's wall time is the whole run (netns creation, warm-up, every design); a design's")
                .append(" counted phase is the part its throughput and percentiles cover.</p>\n");

        int charts = 0; // a sweep's charts first: where each design stops scaling is the run's headline
        if (r.isSweep()) {
            h.append(SweepCharts.section(r, comparedMeasure(r), charts + 1));
            charts += SweepCharts.charts();
        }
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
        java.util.Map<String, String> shared = DesignKeys.shared(r.designs());
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

        h.append("<h2>Measures</h2>\n");
        for (String m : measures(r)) {
            h.append("<h3>").append(esc(m)).append("</h3>\n");
            MeasureDescriptions.of(m)
                    .ifPresent(text -> h.append("<p>").append(esc(text)).append("</p>\n"));
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
            if (hasPercentiles(r, m)) {
                h.append("<div class=\"chart\">")
                        .append(percentileChart(m, r, ++charts))
                        .append("</div>\n");
            } else {
                h.append("<p>No chart: no design recorded a value of ")
                        .append(esc(m))
                        .append(" in its counted phase.</p>\n");
            }
        }

        h.append("<h2>Throughput over time</h2>\n");
        if (r.designs().stream().anyMatch(d -> d.throughputUnit() == null)) {
            h.append("<p>The throughput series was not saved with these results (see the list at the top).</p>\n");
        } else if (r.designs().stream().allMatch(d -> d.throughputSeries().size() < 2)) {
            h.append("<p>Each counted phase was shorter than two samples (one per netns-lab.run.progress-interval),")
                    .append(" so there is no curve to draw; run at a larger --scale.</p>\n");
        }
        if (hasThroughputCurve(r)) {
            h.append("<div class=\"chart\">")
                    .append(throughputChart(r, ++charts))
                    .append("</div>\n");
        }

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
        if (r.repeat() > 1) {
            replicates(r, h);
        }

        if (!r.ratios().isEmpty()) {
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
        if (r.designs().stream().anyMatch(d -> !d.counters().isEmpty())) {
            h.append("<h2>Counters</h2>\n<table><tr><th class=\"l\">design</th>");
            Set<String> names = new LinkedHashSet<>();
            r.designs().forEach(d -> names.addAll(d.counters().keySet()));
            names.forEach(k -> h.append("<th>").append(esc(k)).append("</th>"));
            h.append("</tr>\n");
            for (DesignRecord d : r.designs()) {
                h.append("<tr><td class=\"l\">").append(esc(d.name())).append("</td>");
                names.forEach(k -> h.append("<td>")
                        .append(d.counters().getOrDefault(k, 0L))
                        .append("</td>"));
                h.append("</tr>\n");
            }
            h.append("</table>\n");
        }
        h.append(
                r.execution() != null && r.execution().isVirtual()
                        ? "<p>Virtual execution: every measure, throughput and counted phase is in simulated time on the simulated"
                                + " machine; only the run's wall time is real.</p>\n</body></html>\n"
                        : "<p>Live execution on this machine: compare designs by ratio within one run, not by absolute"
                                + " values.</p>\n</body></html>\n");
        return h.toString();
    }

    /** Each replicate's order, and each design's throughput and measure means in it. */
    private static void replicates(RunRecord r, StringBuilder h) {
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

    private static String list(java.util.List<Double> values) {
        return String.join(", ", values.stream().map(HtmlReport::fmt).toList());
    }

    /**
     * HdrHistogram percentile distribution, one line per design (from its .hgrm), log x-axis as
     * HdrHistogram's plotter draws it.
     */
    private static String percentileChart(String measure, RunRecord r, int index) {
        XYSeriesCollection data = new XYSeriesCollection();
        java.util.Map<String, List<String>> lines = new java.util.LinkedHashMap<>();
        java.util.Map<String, List<double[]>> shapes = new java.util.HashMap<>();
        String unit = "";
        for (DesignRecord d : r.designs()) {
            MeasureSummary summary = d.measures().get(measure);
            PercentileDistribution dist = d.percentiles().get(measure);
            if (summary == null || summary.count() == 0 || dist == null) {
                continue;
            }
            unit = summary.unit();
            List<double[]> points = new ArrayList<>();
            dist.points().forEach(p -> points.add(new double[] {1.0 / (1.0 - p.percentile()), p.value()}));
            lines.computeIfAbsent(key(points), k -> new ArrayList<>()).add(d.name());
            shapes.putIfAbsent(key(points), points);
        }
        addLines(data, lines, shapes);
        JFreeChart chart = ChartFactory.createXYLineChart(measure + ": percentile distribution", "", unit, data);
        LogAxis x = new LogAxis("percentile, as 1/(1-p): 10 = p90, 100 = p99, 1000 = p99.9");
        x.setBase(10);
        x.setTickUnit(new NumberTickUnit(1.0)); // one tick per power of ten: 10, 100, 1000 ...
        x.setNumberFormatOverride(new DecimalFormat("#,##0"));
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(x);
        return svg(chart, index);
    }

    private static String throughputChart(RunRecord r, int index) {
        XYSeriesCollection data = new XYSeriesCollection();
        String unit = r.designs().get(0).throughputUnit();
        java.util.Map<String, List<String>> lines = new java.util.LinkedHashMap<>();
        java.util.Map<String, List<double[]>> shapes = new java.util.HashMap<>();
        for (DesignRecord d : r.designs()) {
            lines.computeIfAbsent(key(d.throughputSeries()), k -> new ArrayList<>())
                    .add(d.name());
            shapes.putIfAbsent(key(d.throughputSeries()), d.throughputSeries());
        }
        addLines(data, lines, shapes);
        return svg(
                ChartFactory.createXYLineChart(
                        "throughput during the counted phase" + (r.repeat() > 1 ? " (replicate 1)" : ""),
                        "seconds since its start",
                        (unit == null ? "operations" : unit) + " per second",
                        data),
                index);
    }

    /** @return the points as text: two designs with the same text draw the same line */
    private static String key(List<double[]> points) {
        StringBuilder b = new StringBuilder();
        points.forEach(p -> b.append(p[0]).append(',').append(p[1]).append(';'));
        return b.toString();
    }

    /**
     * One series per distinct line; designs whose lines coincide share one, and its legend says so (a line
     * drawn over another would hide it).
     */
    private static void addLines(
            XYSeriesCollection data,
            java.util.Map<String, List<String>> lines,
            java.util.Map<String, List<double[]>> shapes) {
        lines.forEach((k, names) -> {
            XYSeries s = new XYSeries(
                    names.size() == 1 ? names.get(0) : String.join(" = ", names) + " (the same line)", false, true);
            shapes.get(k).forEach(p -> s.add(p[0], p[1]));
            data.addSeries(s);
        });
    }

    /** @return whether some design has a distribution of the measure to draw */
    private static boolean hasPercentiles(RunRecord r, String measure) {
        return r.designs().stream()
                .anyMatch(d -> d.measures().get(measure) != null
                        && d.measures().get(measure).count() > 0
                        && d.percentiles().get(measure) != null);
    }

    /** @return whether some design has a throughput curve (two samples or more) to draw */
    private static boolean hasThroughputCurve(RunRecord r) {
        return r.designs().stream().allMatch(d -> d.throughputUnit() != null)
                && r.designs().stream().anyMatch(d -> d.throughputSeries().size() >= 2);
    }

    /** @param index the chart's number in the page, which keeps its SVG ids apart from the other charts' */
    static String svg(JFreeChart chart, int index) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getXYPlot().setBackgroundPaint(new Color(250, 250, 250));
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
        g.setDefsKeyPrefix("chart" + index + "-");
        chart.draw(g, new Rectangle(0, 0, WIDTH, HEIGHT));
        return g.getSVGElement();
    }

    private static String fmt(double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        return Math.abs(v) >= 100 ? String.format("%,.1f", v) : String.format("%.4g", v);
    }

    private static String esc(String s) {
        return s == null
                ? ""
                : s.replace("&", "&amp;")
                        .replace("<", "&lt;")
                        .replace(">", "&gt;")
                        .replace("\"", "&quot;");
    }

    /** @return the number of charts a report of {@code r} holds: one per measure plus throughput */
    public static int chartCount(RunRecord r) {
        return (int) measures(r).stream().filter(m -> hasPercentiles(r, m)).count()
                + (hasThroughputCurve(r) ? 1 : 0)
                + (r.isSweep() ? SweepCharts.charts() : 0);
    }

    /** @return the measure the comparisons compare (a sweep's mean chart shows it), else the first measure */
    private static String comparedMeasure(RunRecord r) {
        return !r.comparisons().isEmpty()
                ? r.comparisons().get(0).measure()
                : measures(r).stream().findFirst().orElse(null);
    }

    /** @return every design's measures, in the order they first appear */
    private static Set<String> measures(RunRecord r) {
        Set<String> measures = new LinkedHashSet<>();
        r.designs().forEach(d -> measures.addAll(d.measures().keySet()));
        return measures;
    }
}
