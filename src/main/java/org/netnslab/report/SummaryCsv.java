package org.netnslab.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.netnslab.metrics.MeasureSummary;

/**
 * {@code summary.csv}: each design's figures of each measure, a row each, for a spreadsheet or a plotting tool (the
 * same figures as result.json's {@code designs[].measures}, in each measure's unit), with the design's throughput.
 * Written by the run; {@code report} writes it again where it differs from result.json or is missing. Stateless.
 */
public final class SummaryCsv {
    /** The file's name in the output folder. */
    public static final String FILE = "summary.csv";

    /** The header: what each column holds, with its unit where it has one. */
    static final String HEADER =
            "design,measure,unit,count,mean,sd,p50,p90,p99,p999,max,throughput_per_s,throughput_unit\n";

    private SummaryCsv() {}

    /**
     * @param record a run's record
     * @return the CSV text: the header, then a row per design and measure in the run's order
     */
    public static String text(RunRecord record) {
        return text(record.designs());
    }

    /**
     * @param designs a run's design records
     * @return the CSV text of their figures
     */
    static String text(java.util.List<DesignRecord> designs) {
        StringBuilder b = new StringBuilder(HEADER);
        for (DesignRecord d : designs) {
            for (Map.Entry<String, MeasureSummary> e : d.measures().entrySet()) {
                MeasureSummary s = e.getValue();
                b.append(String.format(
                        Locale.ROOT,
                        "%s,%s,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s%n",
                        field(d.name()),
                        field(e.getKey()),
                        field(s.unit()),
                        s.count(),
                        num(s.mean()),
                        num(s.sd()),
                        num(s.p50()),
                        num(s.p90()),
                        num(s.p99()),
                        num(s.p999()),
                        num(s.max()),
                        num(d.throughputPerSec()),
                        field(d.throughputUnit() == null ? "" : d.throughputUnit())));
            }
        }
        return b.toString();
    }

    /**
     * @param record a run's record
     * @param file where it goes
     * @throws IOException when it cannot be written
     */
    static void write(RunRecord record, Path file) throws IOException {
        Files.writeString(file, text(record), StandardCharsets.UTF_8);
    }

    /**
     * Compares a saved summary.csv with the figures it should hold, by value: a spreadsheet's re-save (CRLF, a byte
     * order mark, quotes, trailing zeros) is the same file, and so is one whose rows are in another order than
     * result.json's (a result.json re-saved with its keys sorted lists a design's measures in another order).
     *
     * @param saved the file's text
     * @param designs result.json's designs
     * @return the first difference, naming its row and column; null when it holds those figures
     */
    static String differs(String saved, java.util.List<DesignRecord> designs) {
        java.util.List<java.util.List<String>> want = rows(text(designs));
        java.util.List<java.util.List<String>> got = rows(saved.startsWith("\uFEFF") ? saved.substring(1) : saved);
        want = inOrderOf(want, got); // each row keeps its line number in result.json's own order
        String[] columns = HEADER.trim().split(",");
        for (int i = 0; i < Math.max(want.size(), got.size()); i++) {
            if (i >= want.size() || i >= got.size()) {
                return got.isEmpty()
                        ? "empty, where result.json has " + (want.size() - 1) + " design measures"
                        : (got.size() - 1) + " rows, where result.json has " + (want.size() - 1) + " design measures";
            }
            java.util.List<String> w = want.get(i).subList(1, want.get(i).size());
            java.util.List<String> g = got.get(i).subList(1, got.get(i).size());
            String line = "line " + got.get(i).get(0) + ": ";
            // the row result.json has there, numbered in its own order (designs, then measures)
            String row = i == 0
                    ? "header"
                    : "row " + (Integer.parseInt(want.get(i).get(0)) - 1) + " (" + w.get(0) + ", " + w.get(1) + ")";
            if (g.size() != columns.length) {
                return line + g.size() + " columns, where result.json's " + row + " has " + columns.length;
            }
            for (int c = 0; c < columns.length; c++) {
                if (!same(w.get(c), g.get(c))) {
                    return line + columns[c] + " is '" + g.get(c) + "', where result.json's " + row + " has "
                            + (w.get(c).isEmpty() ? "none" : w.get(c));
                }
            }
        }
        return null;
    }

    /**
     * @param want result.json's rows, the header first
     * @param got the saved file's
     * @return {@code want} with its rows in the order of the saved file's rows of the same design and measure, when
     *     both hold the same pairs, each once; else {@code want} as it is (the comparison then names the first row
     *     that differs)
     */
    private static java.util.List<java.util.List<String>> inOrderOf(
            java.util.List<java.util.List<String>> want, java.util.List<java.util.List<String>> got) {
        if (want.size() != got.size() || want.isEmpty()) {
            return want;
        }
        Map<String, java.util.List<String>> byPair = new java.util.HashMap<>();
        for (java.util.List<String> row : want.subList(1, want.size())) {
            if (byPair.put(pair(row), row) != null) {
                return want;
            }
        }
        java.util.List<java.util.List<String>> ordered = new java.util.ArrayList<>();
        ordered.add(want.get(0));
        for (java.util.List<String> row : got.subList(1, got.size())) {
            java.util.List<String> w = byPair.remove(pair(row));
            if (w == null) {
                return want;
            }
            ordered.add(w);
        }
        return ordered;
    }

    /** @return a row's design and measure (its cells after the line number) */
    private static String pair(java.util.List<String> row) {
        return row.size() < 3 ? "" : row.get(1) + "\n" + row.get(2);
    }

    /** @return whether two cells hold one value: equal text, or equal numbers however written */
    private static boolean same(String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        try { // to 12 significant digits (a rounding moves a value by up to 5e-12 of it): a spreadsheet saves 15
            double x = Double.parseDouble(a);
            double y = Double.parseDouble(b);
            return x == y || Math.abs(x - y) <= 1e-11 * Math.max(Math.abs(x), Math.abs(y));
        } catch (NumberFormatException e) { // text that differs
            return false;
        }
    }

    /**
     * @return the CSV's rows, each its line number (1 for the first) then its cells unquoted (RFC 4180), blank lines
     *     left out
     */
    private static java.util.List<java.util.List<String>> rows(String csv) {
        java.util.List<java.util.List<String>> out = new java.util.ArrayList<>();
        String[] lines = csv.replace("\r\n", "\n").split("\n");
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n];
            if (line.isBlank()) {
                continue;
            }
            java.util.List<String> cells = new java.util.ArrayList<>();
            cells.add(String.valueOf(n + 1));
            StringBuilder cell = new StringBuilder();
            boolean quoted = false;
            for (int i = 0; i < line.length(); i++) {
                char ch = line.charAt(i);
                if (quoted && ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = !quoted;
                } else if (ch == ',' && !quoted) {
                    cells.add(cell.toString());
                    cell.setLength(0);
                } else {
                    cell.append(ch);
                }
            }
            cells.add(cell.toString());
            out.add(cells);
        }
        return out;
    }

    /** @return a figure as Java prints a double (no grouping), or empty for NaN (no value) */
    private static String num(double v) {
        return Double.isNaN(v) ? "" : Double.toString(v);
    }

    /** @return a text field, quoted when it holds a comma, a quote or a line break (RFC 4180) */
    private static String field(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
