package org.netnslab.report;

import static org.netnslab.report.Html.esc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.netnslab.metrics.SensitivityResult;

/**
 * A sensitivity study's sections of the console report and of report.html: per comparison, its conclusion's share
 * of the samples, a tornado of the costs' rank correlations with the ratio (bars drawn in HTML) and a scatter chart
 * of the ratio against the three costs that move it most.
 */
public final class SensitivityReport {
    /** Samples below which the console says a study says little: a share is coarse, Spearman's rho noise or undefined. */
    static final int FEW = 10;

    private SensitivityReport() {}

    /**
     * @param s the study
     * @return its section of the console report
     */
    public static String console(SensitivityResult s) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                Locale.ROOT,
                "sensitivity: %d sample%s of the cost block, each cost x [%.2f, %.2f] (Latin"
                        + " hypercube, random-seed %d); varied: %s%n",
                s.samples(),
                s.samples() == 1 ? "" : "s",
                1 - s.spread(),
                1 + s.spread(),
                s.randomSeed(),
                String.join(", ", s.keys())));
        String few = few(s);
        if (few != null) {
            b.append("  ").append(few).append(String.format("%n"));
        }
        for (SensitivityResult.Entry e : s.comparisons()) {
            b.append(String.format(
                    Locale.ROOT,
                    "%s: %s / %s = %.3f in the base run's first replicate, which each sample reproduces (%s)%n",
                    e.measure(),
                    e.b(),
                    e.a(),
                    e.baseRatio(),
                    e.conclusion()));
            b.append(String.format(Locale.ROOT, "  holds in %s of the samples", share(e.holdsShare(), s.samples())));
            if (e.seedRatio() != null) {
                b.append(String.format(
                        Locale.ROOT,
                        "; inside the seed's band %.3f +- %.0f%%: %s",
                        e.seedRatio(),
                        100 * s.seedBand(),
                        share(e.seedBandShare(), s.samples())));
            }
            b.append(String.format("%n"));
            String range = range(e);
            if (range != null) {
                b.append("  ").append(range).append(String.format("%n"));
            }
            if (s.samples() < 3) { // a rank correlation over fewer than 3 points is undefined or +-1 by construction
                b.append(String.format("  costs that move it most: Spearman's rho needs 3 samples or more%n"));
                continue;
            }
            List<String> top = new ArrayList<>();
            e.spearman().entrySet().stream()
                    .limit(5)
                    .forEach(x -> top.add(x.getKey() + " "
                            + (Double.isFinite(x.getValue())
                                    ? String.format(Locale.ROOT, "%+.2f", x.getValue())
                                    : "n/a")));
            b.append("  costs that move it most (Spearman's rho with the ratio): ")
                    .append(String.join(", ", top))
                    .append(String.format("%n"));
        }
        return b.toString();
    }

    /** @return the caveat of a study of fewer than {@link #FEW} samples, or null */
    private static String few(SensitivityResult s) {
        return s.samples() >= FEW
                ? null
                : String.format(
                        Locale.ROOT,
                        "only %d sample%s: the 'holds in' shares, the spread and the rank correlations below say little"
                                + " before %d or more (--sensitivity N)",
                        s.samples(),
                        s.samples() == 1 ? "" : "s",
                        FEW);
    }

    /** @return the ratio's min, median and max over the samples, or null when no sample gave one */
    private static String range(SensitivityResult.Entry e) {
        double[] r = e.ratios().stream()
                .mapToDouble(Double::doubleValue)
                .filter(Double::isFinite)
                .sorted()
                .toArray();
        if (r.length > 1 && r[0] == r[r.length - 1]) { // rank correlations are then undefined: say why
            return String.format(
                    Locale.ROOT, "ratio over the samples: %.3f in every one: none of the varied costs moves it", r[0]);
        }
        return r.length == 0
                ? null
                : String.format(
                        Locale.ROOT,
                        "ratio over the samples: min %.3f, median %.3f, max %.3f",
                        r[0],
                        r.length % 2 == 1 ? r[r.length / 2] : (r[r.length / 2 - 1] + r[r.length / 2]) / 2,
                        r[r.length - 1]);
    }

    private static String share(double share, int samples) {
        return Double.isFinite(share)
                ? String.format(Locale.ROOT, "%d/%d (%.0f%%)", Math.round(share * samples), samples, 100 * share)
                : "n/a";
    }

    /**
     * @param s the study
     * @param firstChart the number of the section's first chart in the page
     * @return its section of report.html
     */
    static String html(SensitivityResult s, int firstChart) {
        StringBuilder h = new StringBuilder("<h2>Sensitivity to the costs</h2>\n<p>");
        h.append(esc(console(s).lines().findFirst().orElse(""))).append("</p>\n");
        String few = few(s);
        if (few != null) {
            h.append("<p>").append(esc(few)).append("</p>\n");
        }
        int chart = firstChart;
        for (SensitivityResult.Entry e : s.comparisons()) {
            h.append("<h3>")
                    .append(esc(e.measure() + ": " + e.b() + " / " + e.a()))
                    .append("</h3>\n<p>")
                    .append(esc(String.format(
                            Locale.ROOT,
                            "base ratio %.3f (the base run's first replicate, which each sample reproduces; %s);"
                                    + " holds in %s of the samples",
                            e.baseRatio(),
                            e.conclusion(),
                            share(e.holdsShare(), s.samples()))));
            if (e.seedRatio() != null) {
                h.append(esc(String.format(
                        Locale.ROOT,
                        "; inside the seed's band %.3f +- %.0f%%: %s",
                        e.seedRatio(),
                        100 * s.seedBand(),
                        share(e.seedBandShare(), s.samples()))));
            }
            String range = range(e);
            if (range != null) {
                h.append("; ").append(esc(range));
            }
            h.append(
                    "</p>\n<table><tr><th class=\"l\">cost</th><th>Spearman's rho</th><th class=\"l\">tornado</th></tr>\n");
            for (Map.Entry<String, Double> x : e.spearman().entrySet()) {
                double v = x.getValue();
                int w = Double.isFinite(v) ? (int) Math.round(Math.abs(v) * 150) : 0;
                String bar = "<div style=\"display:flex;width:300px\"><div style=\"width:150px;display:flex;"
                        + "justify-content:flex-end\">"
                        + (v < 0 ? "<div style=\"width:" + w + "px;background:#4a7ebb\">&#160;</div>" : "")
                        + "</div><div style=\"width:150px\">"
                        + (v > 0 ? "<div style=\"width:" + w + "px;background:#c0504d\">&#160;</div>" : "")
                        + "</div></div>";
                h.append("<tr><td class=\"l\"><code>")
                        .append(esc(x.getKey()))
                        .append("</code></td><td>")
                        .append(Double.isFinite(v) ? String.format(Locale.ROOT, "%+.3f", v) : "n/a")
                        .append("</td><td class=\"l\">")
                        .append(bar)
                        .append("</td></tr>\n");
            }
            h.append("</table>\n<div class=\"chart\">")
                    .append(scatter(s, e, chart++))
                    .append("</div>\n");
        }
        return h.toString();
    }

    /** The ratio against the factors of the three costs that move it most. */
    private static String scatter(SensitivityResult s, SensitivityResult.Entry e, int index) {
        XYSeriesCollection data = new XYSeriesCollection();
        e.spearman().keySet().stream().limit(3).forEach(k -> {
            int j = s.keys().indexOf(k);
            XYSeries series = new XYSeries(k, false, true);
            for (int i = 0; i < e.ratios().size(); i++) {
                series.add(s.factors().get(i).get(j), e.ratios().get(i));
            }
            data.addSeries(series);
        });
        JFreeChart chart = ChartFactory.createScatterPlot(
                e.b() + " / " + e.a() + " against each cost's factor",
                "cost factor (1 = the scenario's cost)",
                "ratio b / a",
                data);
        return HtmlCharts.svg(chart, index);
    }
}
