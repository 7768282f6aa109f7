package org.netnslab.report;

import java.awt.Color;
import java.awt.Rectangle;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.netnslab.metrics.MeasureSummary;

/**
 * report.html's charts, drawn by JFreeChart as inline SVG: each measure's percentile distribution and the
 * throughput over time, one line per design; designs whose lines coincide share one, named so in the legend.
 */
final class HtmlCharts {
    private static final int WIDTH = 760;
    private static final int HEIGHT = 380;

    private HtmlCharts() {}

    /**
     * HdrHistogram percentile distribution, one line per design (from its .hgrm), log x-axis as
     * HdrHistogram's plotter draws it.
     */
    static String percentileChart(String measure, RunRecord r, int index) {
        XYSeriesCollection data = new XYSeriesCollection();
        Map<String, List<String>> lines = new LinkedHashMap<>();
        Map<String, List<double[]>> shapes = new HashMap<>();
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

    static String throughputChart(RunRecord r, int index) {
        XYSeriesCollection data = new XYSeriesCollection();
        String unit = r.designs().get(0).throughputUnit();
        Map<String, List<String>> lines = new LinkedHashMap<>();
        Map<String, List<double[]>> shapes = new HashMap<>();
        for (DesignRecord d : r.designs()) {
            lines.computeIfAbsent(key(d.throughputSeries()), k -> new ArrayList<>())
                    .add(d.name());
            shapes.putIfAbsent(key(d.throughputSeries()), d.throughputSeries());
        }
        addLines(data, lines, shapes);
        return svg(
                ChartFactory.createXYLineChart(
                        "throughput during the counted phase" + (r.repeat() > 1 ? " (replicate 1)" : ""),
                        r.execution() == null
                                ? "seconds since its start"
                                : r.execution().isVirtual()
                                        ? "simulated seconds since its start (virtual time)"
                                        : "seconds since its start (wall clock, live)",
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
            XYSeriesCollection data, Map<String, List<String>> lines, Map<String, List<double[]>> shapes) {
        lines.forEach((k, names) -> {
            XYSeries s = new XYSeries(
                    names.size() == 1 ? names.get(0) : String.join(" = ", names) + " (the same line)", false, true);
            shapes.get(k).forEach(p -> s.add(p[0], p[1]));
            data.addSeries(s);
        });
    }

    /**
     * @return whether some design has a distribution of the measure to draw: more values than replicates (one value a
     *     replicate, such as a listener's CPU over the run, is a point or a few, no distribution; the tables give it)
     */
    static boolean hasPercentiles(RunRecord r, String measure) {
        return r.designs().stream()
                .anyMatch(d -> values(d, measure) > Math.max(1, r.repeat())
                        && d.percentiles().get(measure) != null);
    }

    /** @return whether some design recorded a value of the measure */
    static boolean recorded(RunRecord r, String measure) {
        return r.designs().stream().anyMatch(d -> values(d, measure) > 0);
    }

    /** @return the values a design recorded of a measure, 0 when it has none */
    private static long values(DesignRecord d, String measure) {
        MeasureSummary m = d.measures().get(measure);
        return m == null ? 0 : m.count();
    }

    /** @return whether some design has a throughput curve (two samples or more) to draw */
    static boolean hasThroughputCurve(RunRecord r) {
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

    /** @return every design's measures, in the order they first appear */
    static Set<String> measures(RunRecord r) {
        Set<String> measures = new LinkedHashSet<>();
        r.designs().forEach(d -> measures.addAll(d.measures().keySet()));
        return measures;
    }
}
