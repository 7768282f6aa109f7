package org.netnslab.calibrate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.netnslab.settings.SavedFile;

/**
 * {@code calibration.json} (schema 1): {@code host}, the sets of probe lines kept apart ({@code fit_set},
 * {@code prediction_set}: the ladder, {@code unseen_set}: the unseen shapes), the {@code fit} made from the fit set
 * alone, the {@code predictions} (measured vs predicted rows of the ladder), {@code ladder} (the host limits read and
 * the steps they lowered), {@code unseen} (the draw's seed and the shapes' rows) and {@code beyond} (designs this
 * kernel lacks, on the calibrated machine: predictions only). A recording without {@code unseen_set} and
 * {@code ladder} (made before them) still reads.
 */
public final class CalibrationJson {
    private static final ObjectMapper JSON = SavedFile.mapper();

    private CalibrationJson() {}

    /**
     * @param file where to write
     * @param tool the tool's version line
     * @param quick whether {@code --quick} ran
     * @param host the host's facts
     * @param set the probe lines
     * @param fit the fit
     * @param rows the ladder's predictions (may be empty)
     * @param beyond the other designs' figures (may be empty)
     * @param ladder the ladder's limits and lowered steps ({@link #ladder}), or null (a recording without them)
     * @param unseen the unseen shapes' seed and rows
     * @throws IOException the file cannot be written
     */
    public static void write(
            Path file,
            String tool,
            boolean quick,
            HostFacts host,
            ProbeSet set,
            CostFit fit,
            List<Predictions.Row> rows,
            List<Beyond.Figure> beyond,
            JsonNode ladder,
            Calibration.Unseen unseen)
            throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", 1);
        root.put("tool", tool);
        root.put("quick", quick);
        root.set("host", JSON.valueToTree(host));
        root.set("fit_set", JSON.valueToTree(set.fit()));
        root.set("prediction_set", JSON.valueToTree(set.prediction()));
        root.set("unseen_set", JSON.valueToTree(set.unseen()));
        ObjectNode f = root.putObject("fit");
        f.set("costs", fitted(fit.costs()));
        f.set("extras", fitted(fit.extras()));
        f.set("unfitted", JSON.valueToTree(fit.unfitted()));
        rows(root.putArray("predictions"), rows);
        if (ladder != null) {
            root.set("ladder", ladder);
        }
        ObjectNode u = root.putObject("unseen");
        if (unseen.seed() == null) {
            u.putNull("seed");
        } else {
            u.put("seed", unseen.seed());
        }
        u.put("shapes", unseen.shapes());
        u.put("host_runs_each", 1);
        rows(u.putArray("predictions"), unseen.rows());
        root.set("beyond", JSON.valueToTree(beyond));
        JSON.writeValue(file.toFile(), root);
    }

    private static void rows(ArrayNode p, List<Predictions.Row> rows) {
        for (Predictions.Row r : rows) {
            ObjectNode o = p.addObject();
            o.put("load", r.load());
            o.put("measure", r.measure());
            number(o, "measured", r.measured());
            number(o, "predicted", r.predicted());
            number(o, "ratio", r.ratio());
            o.put("band", r.band());
            o.put("within_band", r.within());
            o.put("reason", r.reason());
            o.put("why_missed", r.whyMissed());
            o.put("measured_runs", r.runs());
            number(o, "measured_low", r.low());
            number(o, "measured_high", r.high());
            if (!Double.isNaN(r.predictedLow())) { // the model's spread over its seeds
                number(o, "predicted_low", r.predictedLow());
                number(o, "predicted_high", r.predictedHigh());
            }
        }
    }

    /**
     * @param plan the ladder planned on this host
     * @return its {@code ladder} object: each limit's value and room, the sizes run, each step a limit lowered
     */
    static ObjectNode ladder(Ladder.Plan plan) {
        ObjectNode o = JSON.createObjectNode();
        ObjectNode limits = o.putObject("limits");
        for (HostLimits.Limit l : plan.limits().limits()) {
            ObjectNode x = limits.putObject(l.name());
            count(x, "value", l.value());
            count(x, "room", l.room());
        }
        o.put("tasks_in_use", plan.limits().tasksInUse());
        o.put("root", plan.limits().root());
        ObjectNode sizes = o.putObject("sizes");
        plan.sizes().forEach((k, v) -> sizes.set(k.load, JSON.valueToTree(v)));
        ArrayNode lowered = o.putArray("lowered");
        for (Ladder.Lowered l : plan.lowered()) {
            lowered.addObject()
                    .put("load", l.kind().load)
                    .put("requested", l.requested())
                    .put("planned", l.planned())
                    .put("limit", l.limit())
                    .put("limit_value", l.limitValue())
                    .put("text", l.text());
        }
        return o;
    }

    /** A count, or the text "unlimited" for {@link HostLimits#UNLIMITED}. */
    private static void count(ObjectNode o, String key, long v) {
        if (v == HostLimits.UNLIMITED) {
            o.put(key, "unlimited");
        } else {
            o.put(key, v);
        }
    }

    /** A finite value, or null: NaN and infinity are not JSON numbers (a ratio over a measured 0). */
    private static void number(ObjectNode o, String key, double v) {
        if (Double.isFinite(v)) {
            o.put(key, v);
        } else {
            o.putNull(key);
        }
    }

    private static ObjectNode fitted(Map<String, CostFit.Fitted> m) {
        ObjectNode o = JSON.createObjectNode();
        for (Map.Entry<String, CostFit.Fitted> e : m.entrySet()) {
            ObjectNode c = o.putObject(e.getKey());
            c.put(
                    CostFit.dimensionless(e.getKey()) ? "value" : "value_ns",
                    e.getValue().value());
            c.put("source", e.getValue().source());
            c.put("points", e.getValue().points());
            if (!Double.isNaN(e.getValue().residual())) {
                c.put("residual", e.getValue().residual());
            }
        }
        return o;
    }

    /**
     * @param file a calibration.json
     * @return its fit set and prediction set
     * @throws IOException unreadable, or not a calibration.json (the message names the file and what is missing)
     */
    public static ProbeSet readSets(Path file) throws IOException {
        return readRecorded(file).set();
    }

    /**
     * What a saved calibration.json holds for {@code calibrate --from}.
     *
     * @param host the host it was measured on
     * @param set its measurements
     * @param ladder its {@code ladder} object (the host limits and lowered steps), or null when it has none
     * @param unseenSeed the seed its unseen shapes were drawn with, or null when it has none
     * @param quick whether it was a {@code --quick} calibration (false when the file does not say)
     */
    public record Recorded(HostFacts host, ProbeSet set, JsonNode ladder, Long unseenSeed, boolean quick) {
        /**
         * @param host the host it was measured on
         * @param set its measurements
         */
        public Recorded(HostFacts host, ProbeSet set) {
            this(host, set, null, null, false);
        }
    }

    /**
     * @param file a calibration.json
     * @return the host and both sets
     * @throws IOException unreadable, not JSON, or not a calibration.json: the message names the file and what
     *     is wrong (where in the file, for a syntax error)
     */
    public static Recorded readRecorded(Path file) throws IOException {
        JsonNode root = readJson(file, file);
        if (!root.isObject()) {
            throw new IOException(file + ": holds " + kind(root)
                    + ", not a calibration.json (an object with fit_set and prediction_set arrays)");
        }
        for (String set : List.of("fit_set", "prediction_set")) {
            if (!root.path(set).isArray()) {
                throw new IOException(file + ": not a calibration.json: "
                        + (root.has(set)
                                ? set + " must be an array of probe lines, got " + kind(root.path(set))
                                : "no " + set + " array"));
            }
        }
        if (root.has("unseen_set") && !root.path("unseen_set").isArray()) {
            throw new IOException(
                    file + ": unseen_set must be an array of probe lines, got " + kind(root.path("unseen_set")));
        }
        for (String set : List.of("fit_set", "prediction_set", "unseen_set")) {
            for (int i = 0; i < root.path(set).size(); i++) {
                JsonNode n = root.path(set).get(i);
                if (!(n instanceof ObjectNode)) {
                    throw new IOException(
                            file + ": " + set + "[" + i + "] is " + kind(n) + ", not a probe line (an object)");
                }
            }
        }
        if (!root.path("host").isObject()) {
            throw new IOException(file + ": no host object (the machine it was measured on)");
        }
        HostFacts host;
        try {
            host = JSON.treeToValue(root.path("host"), HostFacts.class);
        } catch (com.fasterxml.jackson.databind.JsonMappingException e) {
            // name the field at fault (e.g. host.taskGroup), not only Jackson's message about a Java type
            StringBuilder at = new StringBuilder("host");
            for (var ref : e.getPath()) {
                at.append(ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]");
            }
            String why = e instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException u
                    ? "not a key of a calibration's host (its keys: "
                            + String.join(
                                    ", ",
                                    u.getKnownPropertyIds().stream()
                                            .map(String::valueOf)
                                            .sorted()
                                            .toList())
                            + ")"
                    : e.getCause() instanceof com.fasterxml.jackson.core.exc.InputCoercionException
                            ? "out of range, got " + node(root.path("host"), e.getPath())
                            : e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException mi
                                            && mi.getTargetType() != null
                                    ? "must be " + expected(mi.getTargetType()) + ", got "
                                            + node(root.path("host"), e.getPath())
                                    : e.getOriginalMessage();
            throw new IOException(file + ": " + at + ": " + why, e);
        } catch (JsonProcessingException e) {
            throw new IOException(file + ": host: " + e.getOriginalMessage(), e);
        }
        if (host.release() == null) {
            throw new IOException(file + ": host.release is missing (the kernel the lines were measured on)");
        }
        if (host.cpus() < 1 || host.cpus() > 4096) {
            throw new IOException(file + ": host.cpus must be a whole number in 1..4096, got "
                    + (root.path("host").has("cpus")
                            ? root.path("host").path("cpus").toString()
                            : "none"));
        }
        if (host.taskGroup() != null
                && !host.taskGroup().equals("root")
                && !host.taskGroup().equals("session")) {
            throw new IOException(
                    file + ": host: taskGroup must be root or session (or absent), got '" + host.taskGroup() + "'");
        }
        if (root.has("quick") && !root.get("quick").isBoolean()) {
            throw new IOException(file + ": quick must be true or false, got " + root.get("quick"));
        }
        String shape = RecordingCheck.shape(root);
        if (shape != null) {
            throw new IOException(file + ": " + shape);
        }
        ProbeSet set = new ProbeSet(
                objects(root.path("fit_set")), objects(root.path("prediction_set")), objects(root.path("unseen_set")));
        JsonNode seed = root.path("unseen").path("seed");
        if (!seed.isMissingNode() && !seed.isNull() && !(seed.isIntegralNumber() && seed.canConvertToLong())) {
            throw new IOException(file + ": unseen.seed must be a whole number (or null), got " + seed);
        }
        if (set.fit().isEmpty() || set.prediction().isEmpty()) {
            throw new IOException(file + ": " + (set.fit().isEmpty() ? "fit_set" : "prediction_set")
                    + " is empty: nothing to " + (set.fit().isEmpty() ? "fit" : "predict"));
        }
        String problem = ProbeLines.problem(set);
        problem = problem != null ? problem : RecordingCheck.host(host);
        problem = problem != null ? problem : RecordingCheck.direct(set);
        problem = problem != null ? problem : RecordingCheck.idleBusy(set, host.cpus());
        problem = problem != null ? problem : RecordingCheck.cpuNumbers(set, host.cpus());
        if (problem != null) {
            throw new IOException(file + ": " + problem);
        }
        return new Recorded(
                host,
                set,
                root.path("ladder").isObject() ? root.path("ladder") : null,
                seed.isIntegralNumber() ? seed.asLong() : null,
                root.path("quick").asBoolean(false));
    }

    /**
     * Reads a calibration.json's JSON, as {@code --from} and {@code --compare} both do.
     *
     * @param file the file
     * @param named how messages name it (a folder, where its calibration.json was read)
     * @return its JSON, not empty
     * @throws IOException unreadable, not text, not JSON, or empty: the message names {@code named} and what is wrong
     */
    static JsonNode readJson(Path file, Path named) throws IOException {
        JsonNode root;
        try {
            root = SavedFile.json(JSON, SavedFile.utf8(SavedFile.read(file)));
        } catch (SavedFile.Problem e) {
            boolean notOurs = e.getCause() instanceof JsonProcessingException || e.notText();
            throw new IOException(
                    named + ": " + e.getMessage()
                            + (notOurs ? ", so not a calibration.json (the JSON calibrate writes)" : ""),
                    e);
        }
        if (root == null || root.isMissingNode()) {
            throw new IOException(named + ": is empty, so not a calibration.json (the JSON calibrate writes)");
        }
        return root;
    }

    /** @return what a field of Java type {@code t} holds, in JSON's words */
    private static String expected(Class<?> t) {
        if (t == String.class) {
            return "text";
        }
        if (t.isPrimitive() && t != boolean.class || Number.class.isAssignableFrom(t)) {
            return "a number";
        }
        return t == boolean.class || t == Boolean.class
                ? "true or false"
                : t.isRecord() ? "an object" : "a " + t.getSimpleName();
    }

    /** @return the JSON at {@code path} under {@code n}, as its type and text (e.g. {@code an array ["session"]}) */
    private static String node(
            JsonNode n, java.util.List<com.fasterxml.jackson.databind.JsonMappingException.Reference> path) {
        for (var ref : path) {
            n = ref.getFieldName() != null ? n.path(ref.getFieldName()) : n.path(ref.getIndex());
        }
        return kind(n) + " " + n;
    }

    /** @return what {@code n} is, in JSON's words: an array, an object, text, a number, a boolean or null */
    private static String kind(JsonNode n) {
        return n.isArray()
                ? "an array"
                : n.isObject()
                        ? "an object"
                        : n.isTextual() ? "text" : n.isNumber() ? "a number" : n.isBoolean() ? "a boolean" : "null";
    }

    /**
     * @param file a calibration.json
     * @return its stored {@code fit.costs}: key to value, ns (a dimensionless key's plain value)
     * @throws IOException unreadable
     */
    public static Map<String, Double> readFittedCosts(Path file) throws IOException {
        JsonNode costs = JSON.readTree(file.toFile()).path("fit").path("costs");
        Map<String, Double> out = new java.util.LinkedHashMap<>();
        costs.fields()
                .forEachRemaining(e -> out.put(
                        e.getKey(),
                        e.getValue()
                                .path(CostFit.dimensionless(e.getKey()) ? "value" : "value_ns")
                                .asDouble()));
        return out;
    }

    /**
     * @param set lines just measured
     * @throws IOException a line the fit or the model cannot use (a probe defect), named with what is wrong
     */
    public static void check(ProbeSet set) throws IOException {
        String problem = ProbeLines.problem(set);
        if (problem != null) {
            throw new IOException("a probe printed a line calibrate cannot use: " + problem);
        }
    }

    private static List<ObjectNode> objects(JsonNode array) {
        List<ObjectNode> out = new ArrayList<>();
        array.forEach(n -> out.add((ObjectNode) n));
        return out;
    }
}
