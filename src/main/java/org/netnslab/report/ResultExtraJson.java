package org.netnslab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.netnslab.metrics.MinScale;
import org.netnslab.settings.SavedFile;

/**
 * {@code result-extra.json}, result.json's companion: what the reports show that result.json has no key for (the
 * seed, its ratios, the scenario's minimum scale, each design's throughput unit and series), so that a report rebuilt
 * from the output folder is
 * the one the run wrote. Its fields: docs/reading-results.md. A number that is not finite is written as null.
 */
public final class ResultExtraJson {
    /** The schema version written, and the only one read. */
    public static final int SCHEMA = 1;

    private static final ObjectMapper MAPPER = SavedFile.mapper();

    private ResultExtraJson() {}

    /**
     * What the file holds.
     *
     * @param seed the kernel thread the scenario reproduces
     * @param seedRatios the seed's ratio b/a by design b
     * @param designs each design's throughput unit and series, by design name
     * @param minScale the smallest {@code --scale} the scenario's verdict can judge at, or null for any
     * @param derivedSeeds the seed figure of each derived ratio result.json holds, by name; null in a file written
     *     before they were saved
     */
    public record Extra(
            String seed,
            Map<String, Double> seedRatios,
            Map<String, DesignExtra> designs,
            MinScale minScale,
            Map<String, Double> derivedSeeds) {}

    /**
     * One design's part.
     *
     * @param throughputUnit what its throughput counts
     * @param throughputSeries {seconds since its counted phase began, operations per second} samples
     */
    public record DesignExtra(String throughputUnit, List<double[]> throughputSeries) {}

    /**
     * @param result the run
     * @param file the file to write
     * @throws IOException when it cannot be written
     */
    public static void write(RunRecord result, Path file) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("seed", result.seed());
        ObjectNode seedRatios = root.putObject("seed_ratios");
        new TreeMap<>(result.seedRatios()).forEach((k, v) -> JsonFields.num(seedRatios, k, v)); // a stable order
        ObjectNode derived = root.putObject("derived_ratio_seeds"); // what report --check holds result.json's to
        result.ratios().forEach(d -> JsonFields.num(derived, d.name(), d.seed()));
        if (result.minScale() != null) {
            ObjectNode min = root.putObject("min_scale");
            min.put("scale", result.minScale().scale());
            min.put("reason", result.minScale().reason());
        }
        ArrayNode designs = root.putArray("designs");
        for (DesignRecord d : result.designs()) {
            ObjectNode dn = designs.addObject();
            dn.put("name", d.name());
            dn.put("throughput_unit", d.throughputUnit());
            ArrayNode series = dn.putArray("throughput_series");
            for (double[] p : d.throughputSeries()) {
                JsonFields.numbers(series.addArray(), Arrays.stream(p).boxed().toList());
            }
        }
        MAPPER.writeValue(file.toFile(), root);
    }

    /**
     * @param file the file
     * @return what it holds
     * @throws ReportInputException naming the file and what is wrong: missing, not JSON, another schema,
     *     a field missing or of the wrong type (named by its path)
     */
    public static Extra read(Path file) throws ReportInputException {
        JsonFields.Parsed parsed = JsonFields.parse(MAPPER, file, SCHEMA);
        JsonFields f = parsed.fields();
        JsonNode root = parsed.root();
        Map<String, Double> seedRatios = new LinkedHashMap<>();
        JsonNode sr = f.object(root, "", "seed_ratios");
        for (Iterator<String> it = sr.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            seedRatios.put(k, f.number(sr, "seed_ratios", k));
        }
        Map<String, DesignExtra> designs = new LinkedHashMap<>();
        JsonNode dn = f.array(root, "", "designs");
        for (int i = 0; i < dn.size(); i++) {
            String p = JsonFields.at("designs", i);
            JsonNode d = f.objectAt(dn, "designs", i);
            JsonNode sn = f.array(d, p, "throughput_series");
            String sp = JsonFields.at(p, "throughput_series");
            List<double[]> series = new ArrayList<>();
            for (int j = 0; j < sn.size(); j++) {
                JsonNode point = sn.get(j);
                if (!point.isArray() || point.size() != 2) {
                    throw f.wrong(JsonFields.at(sp, j), "expected [seconds, per second], found " + point);
                }
                series.add(new double[] {
                    f.number(point.get(0), JsonFields.at(JsonFields.at(sp, j), 0)),
                    f.number(point.get(1), JsonFields.at(JsonFields.at(sp, j), 1))
                });
            }
            designs.put(f.text(d, p, "name"), new DesignExtra(f.text(d, p, "throughput_unit"), series));
        }
        MinScale minScale = null;
        if (root.has("min_scale")) { // written only for a scenario that has one
            JsonNode min = f.object(root, "", "min_scale");
            minScale = new MinScale(f.positive(min, "min_scale", "scale"), f.text(min, "min_scale", "reason"));
        }
        Map<String, Double> derivedSeeds = null;
        if (root.has("derived_ratio_seeds")) { // written since derived ratios are checked
            derivedSeeds = new LinkedHashMap<>();
            JsonNode ds = f.object(root, "", "derived_ratio_seeds");
            for (Iterator<String> it = ds.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                derivedSeeds.put(k, f.number(ds, "derived_ratio_seeds", k));
            }
        }
        return new Extra(f.text(root, "", "seed"), seedRatios, designs, minScale, derivedSeeds);
    }
}
