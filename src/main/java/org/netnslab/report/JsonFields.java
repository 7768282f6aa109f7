package org.netnslab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.netnslab.settings.SavedFile;

/**
 * Reads the fields of one saved JSON file with errors that name the file and the field's path
 * ({@code designs[1].measures["proc.event"].count: expected a whole number, found "x"}), and writes
 * numbers the way the saved files hold them: a number that is not finite as null, read back as NaN.
 */
final class JsonFields {
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Path file;

    private JsonFields(Path file) {
        this.file = file;
    }

    /**
     * Parses {@code file} and checks its schema version.
     *
     * @param mapper the mapper to parse with
     * @param file the file
     * @param schemas the schema versions this reader knows
     * @return the reader and the file's root object
     * @throws ReportInputException when the file is missing, not JSON, not an object or of another schema
     */
    static Parsed parse(ObjectMapper mapper, Path file, int... schemas) throws ReportInputException {
        String known = java.util.Arrays.stream(schemas)
                .mapToObj(Integer::toString)
                .collect(java.util.stream.Collectors.joining(" and "));
        JsonNode root;
        try {
            root = SavedFile.json(mapper, SavedFile.utf8(SavedFile.read(file)));
        } catch (SavedFile.Problem e) {
            throw new ReportInputException(
                    file, e.getMessage() + (e.notText() ? ", so not the JSON a netns-lab run writes" : ""), e);
        }
        JsonFields f = new JsonFields(file);
        if (root == null || root.isMissingNode()) {
            throw f.wrong("", "is empty, so not the JSON a netns-lab run writes");
        }
        if (!root.isObject()) {
            throw f.wrong("", "expected a JSON object at the top");
        }
        JsonNode version = root.get("schema");
        if (version == null) {
            throw f.wrong("", "no \"schema\" key, so not a netns-lab result (this version reads schema " + known + ")");
        }
        if (!version.isInt() || java.util.Arrays.stream(schemas).noneMatch(v -> v == version.intValue())) {
            throw f.wrong("schema", "schema " + version + " is not one this version reads (it reads " + known + ")");
        }
        return new Parsed(f, root);
    }

    /**
     * A parsed file.
     *
     * @param fields its reader
     * @param root its root object
     */
    record Parsed(JsonFields fields, JsonNode root) {}

    /** @return the path of {@code key} inside {@code path}, e.g. {@code designs[0].measures["proc.event"]} */
    static String at(String path, String key) {
        String k = PLAIN_KEY.matcher(key).matches() ? key : "[\"" + key + "\"]";
        return path.isEmpty() || k.startsWith("[") ? path + k : path + "." + k;
    }

    /** @return the path of element {@code i} of the array at {@code path} */
    static String at(String path, int i) {
        return path + "[" + i + "]";
    }

    ReportInputException wrong(String path, String problem) {
        return new ReportInputException(file, path.isEmpty() ? problem : path + ": " + problem);
    }

    JsonNode field(JsonNode obj, String path, String key) throws ReportInputException {
        JsonNode v = obj.get(key);
        if (v == null) {
            throw wrong(at(path, key), "missing");
        }
        return v;
    }

    JsonNode object(JsonNode obj, String path, String key) throws ReportInputException {
        JsonNode v = field(obj, path, key);
        if (!v.isObject()) {
            throw wrong(at(path, key), "expected an object, found " + v);
        }
        return v;
    }

    JsonNode array(JsonNode obj, String path, String key) throws ReportInputException {
        JsonNode v = field(obj, path, key);
        if (!v.isArray()) {
            throw wrong(at(path, key), "expected an array, found " + v);
        }
        return v;
    }

    /** @return element {@code i} of the array at {@code path}, which must be an object */
    JsonNode objectAt(JsonNode array, String path, int i) throws ReportInputException {
        JsonNode v = array.get(i);
        if (!v.isObject()) {
            throw wrong(at(path, i), "expected an object, found " + v);
        }
        return v;
    }

    /** @return element {@code i} of the array at {@code path}, which must be a string */
    String textAt(JsonNode array, String path, int i) throws ReportInputException {
        JsonNode v = array.get(i);
        if (!v.isTextual()) {
            throw wrong(at(path, i), "expected a string, found " + v);
        }
        return v.textValue();
    }

    String text(JsonNode obj, String path, String key) throws ReportInputException {
        JsonNode v = field(obj, path, key);
        if (!v.isTextual()) {
            throw wrong(at(path, key), "expected a string, found " + v);
        }
        return v.textValue();
    }

    long whole(JsonNode obj, String path, String key) throws ReportInputException {
        JsonNode v = field(obj, path, key);
        if (!v.canConvertToLong() || !v.isIntegralNumber()) {
            throw wrong(at(path, key), "expected a whole number, found " + v);
        }
        return v.longValue();
    }

    /** @return a count: a whole number, 0 or more */
    long count(JsonNode obj, String path, String key) throws ReportInputException {
        long v = whole(obj, path, key);
        if (v < 0) {
            throw wrong(at(path, key), "expected a count (0 or more), found " + v);
        }
        return v;
    }

    /** @return the number, NaN for null (what {@link #num} writes for a value that is not finite) */
    double number(JsonNode obj, String path, String key) throws ReportInputException {
        return number(field(obj, path, key), at(path, key));
    }

    /** @return the number, which must be finite and above 0 (a scale) */
    double positive(JsonNode obj, String path, String key) throws ReportInputException {
        JsonNode v = field(obj, path, key);
        double d = v.isNumber() ? v.doubleValue() : Double.NaN;
        if (!(d > 0) || Double.isInfinite(d)) {
            throw wrong(at(path, key), "expected a number above 0, found " + v);
        }
        return d;
    }

    double number(JsonNode v, String path) throws ReportInputException {
        if (v.isNull()) {
            return Double.NaN;
        }
        if (!v.isNumber()) {
            throw wrong(path, "expected a number or null, found " + v);
        }
        return v.doubleValue();
    }

    /** @return element {@code i} of the array at {@code path}, which must be an array */
    JsonNode arrayAt(JsonNode array, String path, int i) throws ReportInputException {
        JsonNode v = array.get(i);
        if (!v.isArray()) {
            throw wrong(at(path, i), "expected an array, found " + v);
        }
        return v;
    }

    /** @return the strings of the array {@code key}, each named by its index in an error */
    List<String> texts(JsonNode obj, String path, String key) throws ReportInputException {
        JsonNode a = array(obj, path, key);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            out.add(textAt(a, at(path, key), i));
        }
        return out;
    }

    /** @return the numbers of the array {@code key}, NaN for null */
    List<Double> numbers(JsonNode obj, String path, String key) throws ReportInputException {
        return numbers(array(obj, path, key), at(path, key));
    }

    /** @return the numbers of {@code array}, which is at {@code path}, NaN for null */
    List<Double> numbers(JsonNode array, String path) throws ReportInputException {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            out.add(number(array.get(i), at(path, i)));
        }
        return out;
    }

    /** Reads one field of an object, naming its path in an error. */
    @FunctionalInterface
    interface Field<T> {
        T read(JsonNode obj, String path, String key) throws ReportInputException;
    }

    /**
     * @return the object {@code key}'s fields by key, in the file's order, each read by {@code field} (e.g.
     *     {@code this::number})
     */
    <T> Map<String, T> map(JsonNode obj, String path, String key, Field<T> field) throws ReportInputException {
        JsonNode o = object(obj, path, key);
        Map<String, T> out = new LinkedHashMap<>();
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            out.put(k, field.read(o, at(path, key), k));
        }
        return out;
    }

    /** @return the two numbers of a {@code [lo, hi]} pair */
    double[] pair(JsonNode obj, String path, String key) throws ReportInputException {
        JsonNode v = array(obj, path, key);
        if (v.size() != 2) {
            throw wrong(at(path, key), "expected [lo, hi], found " + v);
        }
        return new double[] {number(v.get(0), at(at(path, key), 0)), number(v.get(1), at(at(path, key), 1))};
    }

    /** Writes {@code v}, or null when it is not finite (JSON has no NaN). */
    static void num(ObjectNode node, String key, double v) {
        if (Double.isFinite(v)) {
            node.put(key, v);
        } else {
            node.putNull(key);
        }
    }

    /** Writes {@code [lo, hi]}, each as {@link #num} does. */
    static void pair(ObjectNode node, String key, double lo, double hi) {
        numbers(node.putArray(key), List.of(lo, hi));
    }

    /** Adds each value to the array as {@link #num} writes it. */
    static void numbers(ArrayNode a, List<Double> values) {
        for (double v : values) {
            if (Double.isFinite(v)) {
                a.add(v);
            } else {
                a.addNull();
            }
        }
    }
}
