package org.netnslab.report;

import java.text.DecimalFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.RunResult;

/**
 * The CPU-sweep part of report.html: throughput (operations per simulated second) and the compared
 * measure's mean against the simulated CPU count, one line per design, log2 x axis, so the count where a
 * global lock stops a design scaling shows as the point its throughput line goes flat.
 */
final class SweepCharts {
    private SweepCharts() {}

    /**
     * @param r a sweep's record ({@link RunRecord#isSweep()})
     * @param measure the measure whose mean to chart (the comparisons' measure)
     * @param firstIndex the first chart's number in the page
     * @return the section: a heading, a sentence and two charts
     */
    static String section(RunRecord r, String measure, int firstIndex) {
        Map<String, XYSeries> throughput = new LinkedHashMap<>();
        Map<String, XYSeries> means = new LinkedHashMap<>();
        String unit = "";
        String opUnit = null;
        for (DesignRecord d : r.designs()) {
            // a sweep's result key, <design>@<n>cpu (RunResult.ExecutionInfo#key)
            int cpus = RunResult.ExecutionInfo.cpusOf(d.name());
            if (cpus < 0) {
                continue;
            }
            String design = RunResult.ExecutionInfo.designOf(d.name());
            if (Double.isFinite(d.throughputPerSec())) {
                throughput
                        .computeIfAbsent(design, k -> new XYSeries(k, true, false))
                        .add(cpus, d.throughputPerSec());
            }
            MeasureSummary s = measure == null ? null : d.measures().get(measure);
            if (s != null && Double.isFinite(s.mean()) && s.count() > 0) {
                unit = s.unit();
                means.computeIfAbsent(design, k -> new XYSeries(k, true, false)).add(cpus, s.mean());
            }
            opUnit = opUnit == null ? d.throughputUnit() : opUnit;
        }
        StringBuilder h = new StringBuilder("<h2>CPU sweep</h2>\n<p>Every design ran at each simulated CPU count ")
                .append(r.execution().cpus())
                .append(" (rows above are <code>design@Ncpu</code>; comparisons are against the")
                .append(
                        " baseline at the same count). Where a design's throughput line goes flat, adding CPUs no longer")
                .append(" helps it: a lock or a single owner serialises its work.</p>\n");
        h.append("<div class=\"chart\">")
                .append(chart(
                        "throughput against simulated CPUs",
                        (opUnit == null ? "operations" : opUnit) + " per simulated second",
                        throughput.values(),
                        firstIndex))
                .append("</div>\n");
        h.append("<div class=\"chart\">")
                .append(chart(
                        (measure == null ? "mean" : measure + ": mean") + " against simulated CPUs",
                        unit,
                        means.values(),
                        firstIndex + 1))
                .append("</div>\n");
        return h.toString();
    }

    /** @return the number of charts {@link #section} draws */
    static int charts() {
        return 2;
    }

    private static String chart(String title, String yLabel, java.util.Collection<XYSeries> lines, int index) {
        XYSeriesCollection data = new XYSeriesCollection();
        // designs whose lines coincide share one, named so in the legend (one drawn over another would hide it)
        Map<java.util.List<Object>, java.util.List<XYSeries>> same = new LinkedHashMap<>();
        for (XYSeries s : lines) {
            java.util.List<Object> points = new java.util.ArrayList<>();
            for (int i = 0; i < s.getItemCount(); i++) {
                points.add(s.getX(i).doubleValue());
                points.add(s.getY(i).doubleValue());
            }
            same.computeIfAbsent(points, k -> new java.util.ArrayList<>()).add(s);
        }
        for (java.util.List<XYSeries> group : same.values()) {
            XYSeries first = group.get(0);
            if (group.size() > 1) {
                try {
                    first = (XYSeries) first.clone();
                } catch (CloneNotSupportedException e) {
                    throw new IllegalStateException(e);
                }
                first.setKey(String.join(
                                " = ",
                                group.stream().map(x -> x.getKey().toString()).toList()) + " (the same line)");
            }
            data.addSeries(first);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title, "", yLabel, data);
        LogAxis x = new LogAxis("simulated CPUs (log2)");
        x.setBase(2);
        x.setTickUnit(new NumberTickUnit(1.0)); // one tick per power of two
        x.setNumberFormatOverride(new DecimalFormat("#,##0"));
        x.setSmallestValue(0.5);
        chart.getXYPlot().setDomainAxis(x);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        chart.getXYPlot().setRenderer(renderer);
        return HtmlCharts.svg(chart, index);
    }

    /** @return the designs' names in a sweep's keys, in order of first appearance (for tests) */
    static Set<String> designs(RunRecord r) {
        Set<String> out = new java.util.LinkedHashSet<>();
        r.designs().forEach(d -> {
            if (RunResult.ExecutionInfo.cpusOf(d.name()) >= 0) {
                out.add(RunResult.ExecutionInfo.designOf(d.name()));
            }
        });
        return out;
    }
}
