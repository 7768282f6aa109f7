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
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netnslab.settings.SavedFile;

/**
 * One recording's prediction rows as {@link Repeatability} compares them, each checked as calibrate writes it: a band
 * of its own ({@link Bands}), a verdict that follows from its figures, no row twice. A folder is read as its
 * calibration.json.
 *
 * @param file the recording as named
 * @param host its kernel, CPU count, HZ and preemption model, e.g. "6.18.44 on 2 CPUs (HZ 250, preempt none)"
 * @param quick whether it is a {@code --quick} calibration
 * @param measurements its probe lines ({@code fit_set}, {@code prediction_set}): two recordings holding the same
 *     are one sitting
 * @param rows its rows by key (load, a scan's by rank, and measure), in its order
 */
record RecordedRows(Path file, String host, boolean quick, JsonNode measurements, Map<String, Seen> rows) {
    private static final ObjectMapper JSON = SavedFile.mapper();

    /** The reorder growth row's band. */
    static final String GROWTH = "2x of the host's growth";

    /** The bands calibrate writes; {@code +-0.1} in recordings from before the shares' bands were relative. */
    static final Set<String> BANDS = Set.of("+-25%", "2x", GROWTH, "+-0.1");

    /** A whole number not part of a name: "tc1 N=3000" has 3000 (not the 1 of tc1); "M=2..16" is a range. */
    private static final Pattern SIZE = Pattern.compile("(?<![A-Za-z\\d])(\\d+)");

    /** A /proc scan's load: its size is the host's live processes plus the ladder's, so it moves between sittings. */
    private static final Pattern ENTRIES = Pattern.compile("(\\d+) entries");

    /**
     * A row of one recording.
     *
     * @param load the load as the table names it ("/proc scan, size 2 of 4" for a scan)
     * @param measure what is compared
     * @param measured the host's figure (per entry for a scan)
     * @param band the row's band
     * @param within the recorded verdict
     * @param largest whether the load is its kind's largest size in the recording
     */
    record Seen(String load, String measure, double measured, String band, boolean within, boolean largest) {}

    /**
     * @param f a calibration.json, or a calibrate output folder holding one
     * @return its rows
     * @throws IOException unreadable, not a calibration.json, no stored predictions, or a row calibrate would not
     *     write: the message names the file, and the row and field at fault
     */
    static RecordedRows read(Path f) throws IOException {
        JsonNode root = root(f);
        JsonNode preds = root.path("predictions");
        JsonNode host = root.path("host");
        if (!host.path("release").isTextual()) {
            throw new IOException(
                    f + ": host.release must be text (the kernel it was measured on), got " + shown(host, "release"));
        }
        JsonNode cpus = host.path("cpus");
        if (!cpus.isIntegralNumber() || !cpus.canConvertToInt() || cpus.asInt() < 1) {
            throw new IOException(f + ": host.cpus must be a whole number, 1 or more, got " + shown(host, "cpus"));
        }
        if (host.has("hz")
                && !(host.path("hz").isIntegralNumber() && host.path("hz").canConvertToInt())) {
            throw new IOException(f + ": host.hz must be a whole number, got " + shown(host, "hz"));
        }
        if (root.has("quick") && !root.path("quick").isBoolean()) {
            throw new IOException(f + ": quick must be true or false, got " + root.path("quick"));
        }
        if (root.has("schema")
                && !(root.path("schema").isIntegralNumber()
                        && root.path("schema").asLong() == 1)) {
            throw new IOException(f + ": schema " + root.path("schema") + " is not one this version reads (1)");
        }
        Map<String, List<Long>> sizes = sizes(preds);
        Map<String, Seen> rows = new LinkedHashMap<>();
        for (int i = 0; i < preds.size(); i++) {
            JsonNode p = preds.get(i);
            String at = f + ": predictions[" + i + "]";
            String load = text(p, "load", at);
            String measure = text(p, "measure", at);
            String band = text(p, "band", at);
            // a growth has no figure where its smallest M's share is 0: calibrate writes null
            boolean growth = band.equals(GROWTH);
            double measured = growth && p.path("measured").isNull() ? Double.NaN : number(p, "measured", at);
            double predicted = growth && p.path("predicted").isNull() ? Double.NaN : number(p, "predicted", at);
            if (!BANDS.contains(band)) {
                throw new IOException(at + ".band: '" + band + "' is not a band calibrate writes (+-25%, 2x, 2x of the"
                        + " host's growth; +-0.1 in older recordings)");
            }
            if (measure.endsWith(" / all") && !band.equals("+-0.1")) {
                String share = measured < Bands.SMALL_SHARE ? "2x" : "+-25%";
                if (!band.equals(share)) {
                    throw new IOException(
                            at + ".band: a share of " + measured + " is judged by " + share + ", not " + band);
                }
            }
            if (!p.path("within_band").isBoolean()) {
                throw new IOException(at + ".within_band must be true or false, got " + shown(p, "within_band"));
            }
            boolean within = p.path("within_band").asBoolean();
            // a recording made before two zeros agreed holds them as a miss: kept as recorded
            boolean zerosMissed = !within && Bands.agree(measured, predicted);
            if (Repeatability.holds(band, measured, predicted) != within && !zerosMissed) {
                throw new IOException(at + ".within_band is " + within + ", but " + predicted + " is "
                        + (within ? "outside" : "inside") + " " + band + " of " + measured + ": an edited figure?");
            }
            String kind = SIZE.matcher(load).replaceAll("#");
            long size = size(load);
            List<Long> kindSizes = sizes.get(kind);
            boolean largest = size >= 0 && !load.contains("..") && size == kindSizes.get(kindSizes.size() - 1);
            Matcher entries = ENTRIES.matcher(load);
            String name = load;
            if (entries.find()) { // by rank, per entry
                name = load.substring(0, entries.start()) + "size " + (kindSizes.indexOf(size) + 1) + " of "
                        + kindSizes.size();
                measured /= size;
            }
            String key = name + "\n" + measure;
            if (rows.put(key, new Seen(name, measure, measured, band, within, largest)) != null) {
                throw new IOException(at + " repeats " + load + ", " + measure + ": a row is recorded once");
            }
        }
        JsonNode measurements = JSON.createObjectNode()
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("fit_set", root.path("fit_set"))
                .set("prediction_set", root.path("prediction_set"));
        return new RecordedRows(
                f,
                host.path("release").asText() + " on " + host.path("cpus").asInt() + " CPUs (HZ "
                        + host.path("hz").asText("?") + ", preempt "
                        + host.path("preempt").asText("?") + ")",
                root.path("quick").asBoolean(false),
                measurements,
                rows);
    }

    /** @return the file's JSON: a calibration.json with stored predictions */
    private static JsonNode root(Path f) throws IOException {
        Path file = f;
        if (Files.isDirectory(f)) {
            file = f.resolve("calibration.json");
            if (!Files.isRegularFile(file)) {
                throw new IOException(
                        f + ": is a folder without a calibration.json (name a calibrate output folder or the file)");
            }
        }
        JsonNode root = CalibrationJson.readJson(file, f);
        if (!root.path("predictions").isArray()) {
            throw new IOException(
                    root.path("prediction_set").isArray()
                            ? f + ": holds measurements but no stored predictions (recorded before calibrate stored"
                                    + " them): re-fit it with calibrate --from " + f + " --out DIR and compare DIR"
                            : f + ": no predictions array, so not a calibration.json (the JSON calibrate writes)");
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

    /** @return a figure calibrate writes: a finite number, 0 or more */
    private static double number(JsonNode p, String field, String at) throws IOException {
        double v = p.path(field).asDouble(Double.NaN);
        if (!p.path(field).isNumber() || !Double.isFinite(v) || v < 0) {
            throw new IOException(at + "." + field + " must be a finite number, 0 or more, got " + shown(p, field));
        }
        return v;
    }

    /** @return a field's JSON, or "none" when it is absent */
    private static String shown(JsonNode p, String field) {
        return p.has(field) ? p.get(field).toString() : "none";
    }
}
