package org.netnslab.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How often the model's recorded predictions are within band against how often the host predicts itself: over two or
 * more calibration.json of one host, each prediction-set row beside the same row of the other recordings. A row's
 * host figure from another recording, taken as the prediction and judged by this recording's band, says how far a
 * figure repeats between sittings; no model can be within band more often than the host's typical figure is.
 *
 * <p>Rows are matched by load and measure. A /proc scan's size is the host's live processes plus the ladder's, so it
 * differs between sittings: its rows are matched by their rank among the recording's scan sizes and compared per
 * entry (the scan's CPU is a walk of its entries). The model's side is each file's stored predictions, as the code that
 * wrote it made them: re-fit each with {@code calibrate --from} to judge one build. Stateless.
 */
public final class Repeatability {
    private Repeatability() {}

    /**
     * One row over the recordings that hold it.
     *
     * @param load the load, e.g. "tc1 N=3000" ("/proc scan, size 2 of 4" for a scan matched by rank)
     * @param measure what is compared, with its unit
     * @param recordings how many recordings hold the row
     * @param modelWithin in how many of them the recorded prediction is within band
     * @param pairs host-against-host judgements: every other recording's host figure against each one's band
     * @param pairsWithin how many of {@link #pairs} are within
     * @param othersMedianWithin in how many recordings the median of the other recordings' host figures is within band
     * @param largest whether the row is at its kind's largest size in every recording that holds it
     */
    public record Line(
            String load,
            String measure,
            int recordings,
            int modelWithin,
            long pairs,
            long pairsWithin,
            int othersMedianWithin,
            boolean largest) {
        /** @return the share of host-against-host judgements within band, 0..1 */
        public double pairShare() {
            return pairs == 0 ? 0 : (double) pairsWithin / pairs;
        }
    }

    /**
     * @param files the recordings, as named
     * @param lines every row, in the first recording's order
     * @param tallies each recording's counts, in the order of {@code files}
     * @param host the kernel and CPU count the recordings were measured on ("6.18.44 on 2 CPUs"), each build of the
     *     kernel named once
     */
    public record Result(List<Path> files, List<Line> lines, List<Tally> tallies, String host) {}

    /**
     * One recording's rows that other recordings share.
     *
     * @param rows how many
     * @param modelWithin how many the model's recorded prediction is within
     * @param othersMedianWithin how many the median of the other recordings' host figures is within
     * @param largestRows how many are at a largest size
     * @param largestModelWithin of them, the model within
     * @param largestOthersMedianWithin of them, the median of the others within
     */
    public record Tally(
            int rows,
            int modelWithin,
            int othersMedianWithin,
            int largestRows,
            int largestModelWithin,
            int largestOthersMedianWithin) {}

    /**
     * @param files two or more calibration.json of one host (or calibrate output folders holding one)
     * @return each row with the model's and the host's counts within band
     * @throws IOException a file that cannot be read or is not a calibration.json with stored predictions, a row
     *     calibrate would not write ({@link RecordedRows#read}), or recordings that cannot be compared: the same file
     *     or the same measurements twice, other machines, a --quick one beside a full one, other rows
     * @throws IllegalArgumentException fewer than two files
     */
    public static Result of(List<Path> files) throws IOException {
        if (files.size() < 2) {
            throw new IllegalArgumentException("needs two or more calibration.json of one host, got " + files.size());
        }
        List<RecordedRows> recs = new ArrayList<>();
        Map<Path, Path> real = new LinkedHashMap<>();
        for (Path f : files) {
            RecordedRows r = RecordedRows.read(f);
            Path same = real.put(file(f).toRealPath(), f);
            if (same != null) {
                throw new IOException(f + ": is " + same + " again: each recording is compared once");
            }
            for (RecordedRows o : recs) {
                if (o.measurements().equals(r.measurements())) {
                    throw new IOException(f + ": holds the measurements of " + o.file() + " (a calibrate --from re-fit"
                            + " of it?): one sitting would be compared with itself");
                }
            }
            RecordedRows first = recs.isEmpty() ? r : recs.get(0);
            if (!kernel(r.host()).equals(kernel(first.host()))) {
                throw new IOException(f + ": was measured on " + r.host() + ", " + first.file() + " on " + first.host()
                        + ": the host's repeatability needs recordings of one host");
            }
            if (r.quick() != first.quick()) {
                throw new IOException(f + ": is a " + (r.quick() ? "--quick" : "full") + " calibration and "
                        + first.file() + " a " + (first.quick() ? "--quick" : "full") + " one: their loads differ, so"
                        + " compare like with like");
            }
            if (!r.rows().keySet().equals(first.rows().keySet())) {
                String row = r.rows().keySet().stream()
                        .filter(k -> !first.rows().containsKey(k))
                        .findFirst()
                        .map(k -> "has " + k.replace("\n", ", ") + ", which " + first.file() + " has not")
                        .orElseGet(() -> "lacks "
                                + first.rows().keySet().stream()
                                        .filter(k -> !r.rows().containsKey(k))
                                        .findFirst()
                                        .orElseThrow()
                                        .replace("\n", ", ")
                                + ", which " + first.file() + " has");
                throw new IOException(
                        f + ": " + row + ": recordings of other probe sets or ladders; compare like with" + " like");
            }
            recs.add(r);
        }
        List<Line> lines = new ArrayList<>();
        int[][] tally = new int[files.size()][6];
        for (String key : recs.get(0).rows().keySet()) {
            List<RecordedRows.Seen> seen =
                    recs.stream().map(r -> r.rows().get(key)).toList();
            RecordedRows.Seen lead = seen.get(0);
            for (int fi = 1; fi < seen.size(); fi++) {
                if (!lead.measure().endsWith(" / all") && !seen.get(fi).band().equals(lead.band())) {
                    throw new IOException(recs.get(fi).file() + ": " + lead.load() + ", " + lead.measure()
                            + " is judged by "
                            + seen.get(fi).band() + ", in " + recs.get(0).file() + " by " + lead.band()
                            + ": an edited band?");
                }
            }
            int model = 0;
            long pairs = 0;
            long pairsWithin = 0;
            int medianWithin = 0;
            boolean largest = seen.stream().allMatch(RecordedRows.Seen::largest);
            for (int fi = 0; fi < seen.size(); fi++) {
                RecordedRows.Seen s = seen.get(fi);
                model += s.within() ? 1 : 0;
                List<Double> others = new ArrayList<>();
                for (int oi = 0; oi < seen.size(); oi++) {
                    if (oi != fi) {
                        double o = seen.get(oi).measured();
                        others.add(o);
                        pairs++;
                        pairsWithin += holds(s.band(), s.measured(), o) ? 1 : 0;
                    }
                }
                boolean med = holds(
                        s.band(),
                        s.measured(),
                        CostFit.medianOf(
                                others.stream().mapToDouble(Double::doubleValue).toArray()));
                medianWithin += med ? 1 : 0;
                int[] t = tally[fi];
                for (int k = 0; k < (largest ? 2 : 1); k++) {
                    t[3 * k]++;
                    t[3 * k + 1] += s.within() ? 1 : 0;
                    t[3 * k + 2] += med ? 1 : 0;
                }
            }
            lines.add(new Line(
                    lead.load(), lead.measure(), seen.size(), model, pairs, pairsWithin, medianWithin, largest));
        }
        List<Tally> tallies = new ArrayList<>();
        for (int[] t : tally) {
            tallies.add(new Tally(t[0], t[1], t[2], t[3], t[4], t[5]));
        }
        return new Result(
                List.copyOf(files),
                lines,
                tallies,
                String.join(
                        ", ", recs.stream().map(RecordedRows::host).distinct().toList()));
    }

    /**
     * @param host "6.18.44-fc-v1272 on 2 CPUs (HZ 250, preempt none)"
     * @return its kernel version, CPUs, HZ and preemption model ("6.18.44 on 2 CPUs (HZ 250, preempt none)"): two
     *     builds of one kernel on one machine are one host, but for a realtime build (-rt, .rt14, -realtime)
     */
    private static String kernel(String host) {
        return host.replaceFirst(
                "^(\\d+\\.\\d+(?:\\.\\d+)?)(?!\\S*(?i:[-.]rt\\d*\\b|realtime|PREEMPT_RT))\\S*( on .*)$", "$1$2");
    }

    /**
     * @param f a recording as given: a calibration.json, or the calibrate output folder holding one
     * @return the file it is read from: a folder's calibration.json
     */
    public static Path file(Path f) {
        return Files.isDirectory(f) ? f.resolve("calibration.json") : f;
    }

    /**
     * Judges a figure by a band as a recording names it.
     *
     * @param band "+-25%" (relative), "+-0.1" (absolute, older recordings), "2x" or "2x of the host's growth" (a
     *     factor either way)
     * @param measured the host's figure the band is around
     * @param predicted the figure judged
     * @return whether {@code predicted} is within
     * @throws IllegalArgumentException a band not of these forms
     */
    static boolean holds(String band, double measured, double predicted) {
        if (Bands.agree(measured, predicted)) {
            return true; // both 0, or both without a figure: as calibrate judges them
        }
        Matcher rel = Pattern.compile("\\+-(\\d+(?:\\.\\d+)?)(%?)").matcher(band);
        if (rel.matches()) {
            double w = Double.parseDouble(rel.group(1));
            return rel.group(2).isEmpty()
                    ? Math.abs(predicted - measured) <= w
                    : measured != 0 && Math.abs(predicted / measured - 1) <= w / 100;
        }
        Matcher f = Pattern.compile("(\\d+(?:\\.\\d+)?)x(?: .*)?").matcher(band);
        if (f.matches()) {
            double x = Double.parseDouble(f.group(1));
            double r = predicted / measured;
            return measured > 0 && predicted > 0 && r <= x && r >= 1 / x;
        }
        throw new IllegalArgumentException("not a band: " + band);
    }
}
