package org.netnslab.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a JMH JSON result file ({@code -rf json}) into the README's Markdown table: one row per
 * benchmark and parameter set, with the median of its measurement iterations (each iteration's score
 * in the benchmark's unit), their range, and the iteration count. Medians rather than JMH's mean and
 * 99.9% interval because the benchmarks run on a shared 2-core machine where another process can take
 * a core for a whole iteration.
 *
 * <p>A benchmark class with a {@code bareLoop} method uses it as its anchor: a second table gives each other
 * method's median divided by {@code bareLoop}'s at the same parameters (a plain number; for a throughput, the
 * fraction of the anchor's rate kept).
 *
 * <p>Usage: {@code JmhSummary result.json [summary.md]}; prints the table and, when a second path is
 * given, writes it there too.
 */
public final class JmhSummary {
    /** The method a benchmark class's other methods are compared with, when it has one. */
    static final String ANCHOR = "bareLoop";

    private JmhSummary() {}

    /**
     * @param args the JSON result file, and optionally where to write the table
     * @throws IOException when a file cannot be read or written
     * @throws IllegalArgumentException when the file is not a JMH JSON result (names the file and what
     *     is missing)
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            throw new IllegalArgumentException("usage: JmhSummary <result.json> [summary.md]");
        }
        String table = table(new ObjectMapper().readTree(Path.of(args[0]).toFile()), args[0]);
        System.out.print(table);
        if (args.length == 2) {
            Files.writeString(Path.of(args[1]), table);
        }
    }

    /**
     * @param results the parsed JSON array
     * @param source the file name, for error messages
     * @return the Markdown table, one line per result
     */
    static String table(JsonNode results, String source) {
        if (!results.isArray()) {
            throw new IllegalArgumentException(source + ": not a JMH JSON result (expected an array of results)");
        }
        StringBuilder out = new StringBuilder(
                "| benchmark | params | median | min .. max | unit | iterations |\n|---|---|---:|---:|---|---:|\n");
        Map<String, Double> anchors = new LinkedHashMap<>();
        List<String[]> relative = new ArrayList<>();
        for (JsonNode r : results) {
            JsonNode metric = r.path("primaryMetric");
            JsonNode raw = metric.path("rawData");
            if (!r.hasNonNull("benchmark") || !raw.isArray()) {
                throw new IllegalArgumentException(
                        source + ": a result without benchmark or primaryMetric.rawData: " + r);
            }
            List<Double> scores = new ArrayList<>();
            raw.forEach(fork -> fork.forEach(it -> scores.add(it.asDouble())));
            scores.sort(null);
            String name = r.get("benchmark").asText().replace("org.netnslab.jmh.", "");
            out.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s .. %s | %s | %d |%n",
                    name,
                    params(r.path("params")),
                    fmt(median(scores)),
                    fmt(scores.get(0)),
                    fmt(scores.get(scores.size() - 1)),
                    metric.path("scoreUnit").asText(),
                    scores.size()));
            int dot = name.lastIndexOf('.');
            String key = name.substring(0, dot + 1) + " " + params(r.path("params"));
            if (name.endsWith("." + ANCHOR)) {
                anchors.put(key, median(scores));
            } else {
                relative.add(new String[] {name, key, params(r.path("params")), Double.toString(median(scores))});
            }
        }
        StringBuilder ratios = new StringBuilder();
        for (String[] r : relative) {
            Double anchor = anchors.get(r[1]);
            if (anchor != null && anchor > 0) {
                ratios.append(String.format(
                        Locale.ROOT, "| %s | %s | %s |%n", r[0], r[2], fmt(Double.parseDouble(r[3]) / anchor)));
            }
        }
        if (ratios.length() > 0) {
            out.append("\n| benchmark | params | median / " + ANCHOR + "'s |\n|---|---|---:|\n")
                    .append(ratios);
        }
        return out.toString();
    }

    private static String params(JsonNode params) {
        List<String> kv = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = params.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            kv.add(e.getKey() + "=" + e.getValue().asText());
        }
        return String.join(", ", kv);
    }

    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Three significant digits, at least one decimal below 10. */
    private static String fmt(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
