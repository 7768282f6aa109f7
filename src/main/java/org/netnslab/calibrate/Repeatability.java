package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * entry (the scan's CPU is a walk of its entries). Stateless.
 */
public final class Repeatability {
    private Repeatability() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A whole number not part of a name: a load's size is its first ("tc1 N=3000": 3000, "100 x 100 unshare -n": 100);
     * a range ("M=2..16") is no size.
     */
    private static final Pattern SIZE = Pattern.compile("(?<![A-Za-z\\d])(\\d+)");

    /** A /proc scan's load: its size follows the host's live processes. */
    private static final Pattern ENTRIES = Pattern.compile("(\\d+) entries");

    /**
     * One row over the recordings that hold it.
     *
     * @param load the load, e.g. "tc1 N=3000" ("/proc scan, #2 of 4" for a scan matched by rank)
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
     * @param lines the rows that at least two recordings hold, in the first recording's order
     * @param rowsOnce rows that only one recording holds, left out
     * @param tallies each recording's counts, in the order of {@code files}
     * @param hosts the kernels and CPU counts the recordings were measured on ("6.18.44 on 2 CPUs"), each once
     */
    public record Result(List<Path> files, List<Line> lines, int rowsOnce, List<Tally> tallies, List<String> hosts) {}

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

    /** A row of one recording: its host figure (per entry for a scan), band and verdict. */
    private record Seen(double measured, String band, boolean within, boolean largest, int file) {}

    /**
     * @param files two or more calibration.json of one host
     * @return each row the recordings share, with the model's and the host's counts within band
     * @throws IOException a file that cannot be read or is not a calibration.json with a predictions array, or a row
     *     whose band is not one calibrate writes, named by file and row
     * @throws IllegalArgumentException fewer than two files
     */
    public static Result of(List<Path> files) throws IOException {
        if (files.size() < 2) {
            throw new IllegalArgumentException("needs two or more calibration.json of one host, got " + files.size());
        }
        Map<String, List<Seen>> rows = new LinkedHashMap<>();
        boolean firstQuick = false;
        java.util.Set<String> hosts = new java.util.LinkedHashSet<>();
        for (int fi = 0; fi < files.size(); fi++) {
            Path f = files.get(fi);
            JsonNode root = read(f);
            JsonNode preds = root.path("predictions");
            boolean quick = root.path("quick").asBoolean(false);
            if (fi > 0 && quick != firstQuick) {
                throw new IOException(f + ": is a " + (quick ? "--quick" : "full") + " calibration and " + files.get(0)
                        + " a " + (firstQuick ? "--quick" : "full") + " one: their loads differ, so compare like with"
                        + " like");
            }
            firstQuick = quick;
            hosts.add(root.path("host").path("release").asText("an unknown kernel") + " on "
                    + root.path("host").path("cpus").asText("?") + " CPUs");
            Map<String, List<Long>> sizes = sizes(preds);
            for (int i = 0; i < preds.size(); i++) {
                JsonNode p = preds.get(i);
                String at = f + ": predictions[" + i + "]";
                String load = text(p, "load", at);
                String measure = text(p, "measure", at);
                double measured = number(p, "measured", at);
                String band = text(p, "band", at);
                if (holds(band, 1, 1) == null) {
                    throw new IOException(at + ".band: '" + band + "' is not a band calibrate writes (+-25%, 2x)");
                }
                String kind = SIZE.matcher(load).replaceAll("#");
                long size = size(load);
                boolean largest = size >= 0
                        && !load.contains("..")
                        && size == sizes.get(kind).get(sizes.get(kind).size() - 1);
                Matcher entries = ENTRIES.matcher(load);
                String key = load;
                if (entries.find()) { // a scan: by rank, per entry
                    long n = Long.parseLong(entries.group(1));
                    key = load.substring(0, entries.start()) + "#"
                            + (sizes.get(kind).indexOf(n) + 1) + " of "
                            + sizes.get(kind).size();
                    measured /= n;
                }
                if (!p.path("within_band").isBoolean()) {
                    throw new IOException(at + ".within_band must be true or false, got " + shown(p, "within_band"));
                }
                rows.computeIfAbsent(key + "\n" + measure, k -> new ArrayList<>())
                        .add(new Seen(measured, band, p.path("within_band").asBoolean(), largest, fi));
            }
        }
        List<Line> lines = new ArrayList<>();
        int[][] tally = new int[files.size()][6];
        int once = 0;
        for (Map.Entry<String, List<Seen>> e : rows.entrySet()) {
            List<Seen> seen = e.getValue();
            if (seen.size() < 2) {
                once++;
                continue;
            }
            int model = 0;
            long pairs = 0;
            long pairsWithin = 0;
            int medianWithin = 0;
            boolean largest = seen.stream().allMatch(Seen::largest);
            for (Seen s : seen) {
                model += s.within() ? 1 : 0;
                List<Double> others = new ArrayList<>();
                for (Seen o : seen) {
                    if (o != s) {
                        others.add(o.measured());
                        pairs++;
                        pairsWithin += Boolean.TRUE.equals(holds(s.band(), s.measured(), o.measured())) ? 1 : 0;
                    }
                }
                boolean med = Boolean.TRUE.equals(holds(s.band(), s.measured(), median(others)));
                medianWithin += med ? 1 : 0;
                int[] t = tally[s.file()];
                for (int k = 0; k < (largest ? 2 : 1); k++) {
                    t[3 * k]++;
                    t[3 * k + 1] += s.within() ? 1 : 0;
                    t[3 * k + 2] += med ? 1 : 0;
                }
            }
            String[] km = e.getKey().split("\n", 2);
            lines.add(new Line(km[0], km[1], seen.size(), model, pairs, pairsWithin, medianWithin, largest));
        }
        List<Tally> tallies = new ArrayList<>();
        for (int[] t : tally) {
            tallies.add(new Tally(t[0], t[1], t[2], t[3], t[4], t[5]));
        }
        return new Result(List.copyOf(files), lines, once, tallies, List.copyOf(hosts));
    }

    /**
     * Judges a figure by a band as a recording names it.
     *
     * @param band "+-25%" (relative), "+-0.1" (absolute, older recordings), "2x" or "2x of the host's growth" (a
     *     factor either way)
     * @param measured the host's figure the band is around
     * @param predicted the figure judged
     * @return whether {@code predicted} is within; null for a band not of these forms
     */
    static Boolean holds(String band, double measured, double predicted) {
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
        return null;
    }

    /** @return the recording's root; a folder is read as its calibration.json, as calibrate writes it */
    private static JsonNode read(Path f) throws IOException {
        Path file = f;
        if (Files.isDirectory(f)) {
            file = f.resolve("calibration.json");
            if (!Files.isRegularFile(file)) {
                throw new IOException(f + ": is a folder without a calibration.json (name a calibrate output folder or"
                        + " the file)");
            }
        }
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(f + ": not JSON, so not a calibration.json: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IOException(f + ": cannot be read: " + e.getMessage(), e);
        }
        if (root == null || !root.path("predictions").isArray()) {
            throw new IOException(f + ": no predictions array, so not a calibration.json (the JSON calibrate writes)");
        }
        if (root.path("predictions").isEmpty()) {
            throw new IOException(f + ": predictions is empty: nothing to compare");
        }
        return root;
    }

    /** @return per kind of load (its numbers as #), its sizes ascending */
    private static Map<String, List<Long>> sizes(JsonNode preds) {
        Map<String, List<Long>> out = new LinkedHashMap<>();
        for (JsonNode p : preds) {
            String load = p.path("load").asText();
            long size = size(load);
            List<Long> s = out.computeIfAbsent(SIZE.matcher(load).replaceAll("#"), k -> new ArrayList<>());
            if (size >= 0 && !s.contains(size)) {
                s.add(size);
            }
        }
        out.values().forEach(java.util.Collections::sort);
        return out;
    }

    /** @return the load's size: its first whole number (the one before "entries" for a scan), -1 for none */
    private static long size(String load) {
        Matcher e = ENTRIES.matcher(load);
        if (e.find()) {
            return Long.parseLong(e.group(1));
        }
        Matcher m = SIZE.matcher(load);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static String text(JsonNode p, String field, String at) throws IOException {
        if (!p.path(field).isTextual()) {
            throw new IOException(at + "." + field + " must be text, got " + shown(p, field));
        }
        return p.path(field).asText();
    }

    private static double number(JsonNode p, String field, String at) throws IOException {
        double v = p.path(field).asDouble(Double.NaN);
        if (!p.path(field).isNumber() || !Double.isFinite(v)) {
            throw new IOException(at + "." + field + " must be a finite number, got " + shown(p, field));
        }
        return v;
    }

    /** @return a field's JSON, or "none" when it is absent */
    private static String shown(JsonNode p, String field) {
        return p.has(field) ? p.get(field).toString() : "none";
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        java.util.Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
