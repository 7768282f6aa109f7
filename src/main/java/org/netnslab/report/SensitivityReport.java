package org.netnslab.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.netnslab.metrics.SensitivityResult;

/**
 * A sensitivity study in the three places a run's results go: result.json's {@code sensitivity} object
 * (beside the base run's keys, which it leaves as they are), a section of the console report, and a
 * section of report.html: per comparison, a tornado of the costs' rank correlations with the ratio (bars
 * drawn in HTML) and a scatter chart of the ratio against the three costs that move it most.
 */
public final class SensitivityReport {
    /** Samples below which the console says a study says little: a share is coarse, Spearman's rho noise or undefined. */
    static final int FEW = 10;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private SensitivityReport() {}

    /**
     * @param s the study
     * @return its JSON object
     */
    public static ObjectNode toJson(SensitivityResult s) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("samples", s.samples());
        n.put("spread", s.spread());
        n.put("seed_band", s.seedBand());
        n.put("random_seed", s.randomSeed());
        n.put("design", "latin-hypercube");
        ArrayNode keys = n.putArray("keys");
        s.keys().forEach(keys::add);
        ArrayNode factors = n.putArray("factors");
        s.factors().forEach(row -> {
            ArrayNode a = factors.addArray();
            row.forEach(a::add);
        });
        ArrayNode cmps = n.putArray("comparisons");
        for (SensitivityResult.Entry e : s.comparisons()) {
            ObjectNode c = cmps.addObject();
            c.put("measure", e.measure());
            c.put("a", e.a());
            c.put("b", e.b());
            number(c, "base_ratio", e.baseRatio());
            if (e.seedRatio() != null) {
                c.put("seed_ratio", e.seedRatio());
            } else {
                c.putNull("seed_ratio");
            }
            ArrayNode r = c.putArray("ratios");
            e.ratios().forEach(v -> {
                if (Double.isFinite(v)) {
                    r.add(v);
                } else {
                    r.addNull();
                }
            });
            c.put("conclusion", e.conclusion());
            number(c, "holds_share", e.holdsShare());
            number(c, "seed_band_share", e.seedBandShare());
            ObjectNode rho = c.putObject("spearman");
            e.spearman().forEach((k, v) -> number(rho, k, v));
        }
        return n;
    }

    private static void number(ObjectNode o, String key, double v) {
        if (Double.isFinite(v)) {
            o.put(key, v);
        } else {
            o.putNull(key);
        }
    }

    /**
     * Adds the study to a result.json already written.
     *
     * @param resultJson the file
     * @param s the study
     * @throws IOException when it cannot be read or written
     */
    public static void addTo(Path resultJson, SensitivityResult s) throws IOException {
        ObjectNode root = (ObjectNode) MAPPER.readTree(resultJson.toFile());
        root.set("sensitivity", toJson(s));
        MAPPER.writeValue(resultJson.toFile(), root);
    }

    /**
     * Reads a study back from a result.json (for {@code netns-lab report DIR}).
     *
     * @param resultJson the file
     * @return the study, or null when the run had none or the file cannot be read
     */
    public static SensitivityResult read(Path resultJson) {
        try {
            JsonNode n = MAPPER.readTree(resultJson.toFile()).get("sensitivity");
            if (n == null || !n.isObject()) {
                return null;
            }
            List<String> keys = new ArrayList<>();
            n.get("keys").forEach(k -> keys.add(k.asText()));
            List<List<Double>> factors = new ArrayList<>();
            n.get("factors").forEach(row -> {
                List<Double> r = new ArrayList<>();
                row.forEach(v -> r.add(v.asDouble()));
                factors.add(r);
            });
            List<SensitivityResult.Entry> entries = new ArrayList<>();
            for (JsonNode c : n.get("comparisons")) {
                List<Double> ratios = new ArrayList<>();
                c.get("ratios").forEach(v -> ratios.add(v.isNull() ? Double.NaN : v.asDouble()));
                Map<String, Double> rho = new LinkedHashMap<>();
                c.get("spearman").fields().forEachRemaining(f -> rho.put(f.getKey(), num(f.getValue())));
                entries.add(new SensitivityResult.Entry(
                        c.get("measure").asText(),
                        c.get("a").asText(),
                        c.get("b").asText(),
                        num(c.get("base_ratio")),
                        c.get("seed_ratio").isNull()
                                ? null
                                : c.get("seed_ratio").asDouble(),
                        ratios,
                        c.get("conclusion").asText(),
                        num(c.get("holds_share")),
                        num(c.get("seed_band_share")),
                        rho));
            }
            return new SensitivityResult(
                    n.get("samples").asInt(),
                    n.get("spread").asDouble(),
                    n.get("seed_band").asDouble(),
                    n.get("random_seed").asLong(),
                    keys,
                    factors,
                    entries);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static double num(JsonNode v) {
        return v == null || v.isNull() ? Double.NaN : v.asDouble();
    }

    /**
     * @param s the study
     * @return its section of the console report
     */
    public static String console(SensitivityResult s) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                Locale.ROOT,
                "sensitivity: %d samples of the cost block, each cost x [%.2f, %.2f] (Latin"
                        + " hypercube, random-seed %d); varied: %s%n",
                s.samples(),
                1 - s.spread(),
                1 + s.spread(),
                s.randomSeed(),
                String.join(", ", s.keys())));
        if (s.samples() < FEW) {
            b.append(String.format(
                    Locale.ROOT,
                    "  only %d sample%s: the 'holds in' shares, the spread and the rank"
                            + " correlations below say little before %d or more (--sensitivity N)%n",
                    s.samples(),
                    s.samples() == 1 ? "" : "s",
                    FEW));
        }
        for (SensitivityResult.Entry e : s.comparisons()) {
            double[] r = e.ratios().stream()
                    .mapToDouble(Double::doubleValue)
                    .filter(Double::isFinite)
                    .sorted()
                    .toArray();
            b.append(String.format(
                    Locale.ROOT,
                    "%s: %s / %s = %.3f in the base run (%s)%n",
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
            if (r.length > 0) {
                b.append(String.format(
                        Locale.ROOT,
                        "  ratio over the samples: min %.3f, median %.3f, max %.3f%n",
                        r[0],
                        r.length % 2 == 1 ? r[r.length / 2] : (r[r.length / 2 - 1] + r[r.length / 2]) / 2,
                        r[r.length - 1]));
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

    private static String share(double share, int samples) {
        return Double.isFinite(share)
                ? String.format(Locale.ROOT, "%d/%d (%.0f%%)", Math.round(share * samples), samples, 100 * share)
                : "n/a";
    }

    /**
     * @param s the study
     * @param firstChart the number of the section's first chart in the page (keeps SVG ids apart)
     * @return its section of report.html
     */
    public static String html(SensitivityResult s, int firstChart) {
        StringBuilder h = new StringBuilder("<h2>Sensitivity to the costs</h2>\n<p>");
        h.append(esc(console(s).lines().findFirst().orElse(""))).append("</p>\n");
        int chart = firstChart;
        for (SensitivityResult.Entry e : s.comparisons()) {
            h.append("<h3>")
                    .append(esc(e.measure() + ": " + e.b() + " / " + e.a()))
                    .append("</h3>\n<p>")
                    .append(esc(String.format(
                            Locale.ROOT,
                            "base ratio %.3f (%s); holds in %s of the samples",
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
        return HtmlReport.svg(chart, index);
    }

    /**
     * Adds the study's section to a report.html already written, before its end.
     *
     * @param reportHtml the file
     * @param s the study
     * @param firstChart the number of the section's first chart in the page
     * @throws IOException when it cannot be read or written
     */
    public static void appendTo(Path reportHtml, SensitivityResult s, int firstChart) throws IOException {
        String page = Files.readString(reportHtml, StandardCharsets.UTF_8);
        int end = page.lastIndexOf("</body>");
        String section = html(s, firstChart);
        Files.writeString(
                reportHtml,
                end < 0 ? page + section : page.substring(0, end) + section + page.substring(end),
                StandardCharsets.UTF_8);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
