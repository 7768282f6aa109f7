package org.netnslab.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.RunResult;
import org.netnslab.settings.SavedFile;

/**
 * One HdrHistogram percentile distribution per design and measure, {@code <design>.<measure>.hgrm},
 * values in the measure's unit (us for latencies): HdrHistogram's own text output (plot it with
 * HdrHistogram's plotter or any tool that reads .hgrm), and the source of the report's percentile
 * charts, during a run as when the report is rebuilt.
 *
 * <p>The format, as {@code AbstractHistogram.outputPercentileDistribution} writes it: a header
 * {@code Value Percentile TotalCount 1/(1-Percentile)}, one row per percentile tick (the value at
 * 3 decimals, the percentile as a fraction at 12), a last row at percentile 1 without the fourth
 * column, and {@code #[...]} summary lines.
 */
public final class HgrmFiles {
    /** The {@code #[Max = ..., Total count = N]} summary line's count. */
    private static final java.util.regex.Pattern TOTAL_COUNT =
            java.util.regex.Pattern.compile("Total count\\s*=\\s*(\\d+)");

    /** The {@code #[Max = ..., Total count = N]} summary line's maximum. */
    private static final java.util.regex.Pattern MAX = java.util.regex.Pattern.compile("Max\\s*=\\s*([0-9.eE+-]+)");

    /** How far a figure of the file (printed at 3 decimals) may be from result.json's, in the measure's unit. */
    private static final double PRINTED = 0.0015;

    private HgrmFiles() {}

    /**
     * Checks a {@code .hgrm} file against the measure result.json saves for it: the same total count, the same value
     * at the 50th percentile and the same maximum, as one recorder writes both.
     *
     * @param file the file, for messages
     * @param text its text
     * @param dist its distribution, {@link #parse}d from {@code text}
     * @param summary result.json's figures of its design and measure
     * @throws ReportInputException naming the figure that differs (an edit of one of the two files)
     */
    private static void agrees(
            Path file, String text, PercentileDistribution dist, org.netnslab.metrics.MeasureSummary summary)
            throws ReportInputException {
        java.util.regex.Matcher total = TOTAL_COUNT.matcher(text);
        long count = total.find() ? Long.parseLong(total.group(1)) : -1;
        if (count != summary.count()) {
            throw new ReportInputException(
                    file, "Total count " + count + ", where result.json counts " + summary.count() + EDITED);
        }
        java.util.regex.Matcher max = MAX.matcher(text);
        if (count > 0 && max.find() && !near(Double.parseDouble(max.group(1)), summary.max())) {
            throw new ReportInputException(
                    file, "Max " + max.group(1) + ", where result.json's max is " + summary.max() + EDITED);
        }
        for (PercentileDistribution.Point pt : dist.points()) {
            if (pt.percentile() == 0.5 && !near(pt.value(), summary.p50())) {
                throw new ReportInputException(
                        file, "value " + pt.value() + " at 0.5, where result.json's p50 is " + summary.p50() + EDITED);
            }
        }
    }

    /** Said of a figure the two files disagree on. */
    private static final String EDITED = ": the two files are not one run's (was one edited?)";

    private static boolean near(double printed, double saved) {
        return Math.abs(printed - saved) <= PRINTED + 1e-9 * Math.abs(saved);
    }

    /**
     * @param design a design's name
     * @param measure a measure's name
     * @return the file name of that design's distribution of that measure
     */
    public static String fileName(String design, String measure) {
        return design + "." + measure + ".hgrm";
    }

    /**
     * @param result the run
     * @param dir the output folder
     * @return the files written
     * @throws IOException when a file cannot be written
     */
    public static List<Path> write(RunResult result, Path dir) throws IOException {
        List<Path> written = new ArrayList<>();
        for (DesignResult d : result.designs()) {
            for (Map.Entry<String, LatencyRecorder> e : d.recorders().entrySet()) {
                Path file = dir.resolve(fileName(d.name(), e.getKey()));
                Files.writeString(file, text(e.getValue()), StandardCharsets.UTF_8);
                written.add(file);
            }
        }
        return written;
    }

    /**
     * @param recorder a measure's merged recorder
     * @return its {@code .hgrm} text, values in the recorder's unit
     */
    public static String text(LatencyRecorder recorder) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8)) {
            recorder.histogram().outputPercentileDistribution(out, recorder.perUnit());
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * Reads a {@code .hgrm} file back, and checks it against result.json's figures of its measure.
     *
     * @param file the file
     * @param summary result.json's figures of its design and measure
     * @return its distribution
     * @throws ReportInputException when the file is missing, unreadable or not in the format above, or its count,
     *     median or maximum is not {@code summary}'s
     */
    public static PercentileDistribution read(Path file, org.netnslab.metrics.MeasureSummary summary)
            throws ReportInputException {
        String text;
        try {
            text = SavedFile.utf8(SavedFile.read(file));
        } catch (SavedFile.Problem e) {
            throw new ReportInputException(
                    file,
                    e.getMessage() + (e.notText() ? ", so not the percentile table a netns-lab run writes" : ""),
                    e);
        }
        PercentileDistribution dist = parse(text, file);
        agrees(file, text, dist, summary);
        return dist;
    }

    /**
     * Parses the Value and Percentile columns of a {@code .hgrm} text.
     *
     * @param text the text
     * @param file where it came from, for messages
     * @return the distribution, the 100% row left out
     * @throws ReportInputException naming the line when the header is missing or a row is not numbers; when the
     *     closing summary line is missing
     */
    public static PercentileDistribution parse(String text, Path file) throws ReportInputException {
        List<PercentileDistribution.Point> points = new ArrayList<>();
        long lastCount = 0;
        String[] lines = text.split("\n", -1);
        boolean header = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] cols = line.split("\\s+");
            if (!header) {
                if (cols.length < 2 || !cols[0].equals("Value") || !cols[1].equals("Percentile")) {
                    throw new ReportInputException(
                            file,
                            "line " + (i + 1) + ": expected HdrHistogram's header"
                                    + " \"Value Percentile TotalCount 1/(1-Percentile)\", found \"" + line + "\"");
                }
                header = true;
                continue;
            }
            double value;
            double percentile;
            try {
                if (cols.length < 3 || cols.length > 4) {
                    throw new NumberFormatException(cols.length + " columns");
                }
                value = Double.parseDouble(cols[0]);
                percentile = Double.parseDouble(cols[1]);
                lastCount = (long) Double.parseDouble(cols[2]);
            } catch (NumberFormatException e) {
                throw new ReportInputException(
                        file,
                        "line " + (i + 1) + ": expected a row \"value percentile count"
                                + " [1/(1-percentile)]\" of numbers, found \"" + line + "\"",
                        e);
            }
            if (!(percentile >= 0 && percentile <= 1)) {
                throw new ReportInputException(
                        file,
                        "line " + (i + 1) + ": percentile " + cols[1] + " is not a fraction" + " between 0 and 1");
            }
            if (percentile < 1) {
                points.add(new PercentileDistribution.Point(percentile, value));
            }
        }
        if (!header) {
            throw new ReportInputException(
                    file,
                    "empty, or not an HdrHistogram percentile distribution (no" + " \"Value Percentile\" header)");
        }
        java.util.regex.Matcher total = TOTAL_COUNT.matcher(text);
        long totalCount = total.find() ? Long.parseLong(total.group(1)) : 0;
        if (totalCount > 0 && lastCount != totalCount) {
            throw new ReportInputException(
                    file,
                    "its last row's count (" + lastCount + ") is not its Total count (" + totalCount
                            + "): rows are missing at its end");
        }
        if (!text.contains("\n#[Buckets")) { // the last summary line: a file cut at a row's end still parses
            throw new ReportInputException(
                    file,
                    "ends before HdrHistogram's closing \"#[Buckets = ...]\" line (cut short?): its percentiles may be"
                            + " a part only");
        }
        return new PercentileDistribution(points);
    }
}
