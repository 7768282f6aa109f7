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
 * Written once by the run; {@code report} leaves it as it is. Stateless.
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

    /** @return a figure as Java prints a double (no grouping), or empty for NaN (no value) */
    private static String num(double v) {
        return Double.isNaN(v) ? "" : Double.toString(v);
    }

    /** @return a text field, quoted when it holds a comma, a quote or a line break (RFC 4180) */
    private static String field(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
