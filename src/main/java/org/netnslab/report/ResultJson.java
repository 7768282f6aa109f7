package org.netnslab.report;

import static org.netnslab.report.JsonFields.num;
import static org.netnslab.report.JsonFields.numbers;
import static org.netnslab.report.JsonFields.pair;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.MeasureDescriptions;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.RatioInterval;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.WelchTest;
import org.netnslab.settings.SavedFile;

/**
 * result.json, schema 2, written from a {@link RunRecord} in the order of docs/reading-results.md ("result.json"),
 * which lists every field. A number that is not finite is written as null. {@link ResultJsonReader} reads it back.
 */
public final class ResultJson {
    /** The schema version written. */
    public static final int SCHEMA = 2;
    /** The schema of files without replicates, which is still read. */
    public static final int SCHEMA_1 = 1;

    static final ObjectMapper MAPPER = SavedFile.mapper();

    private ResultJson() {}

    /**
     * Writes result.json.
     *
     * @param result the run
     * @param file the file to write
     * @throws IOException when it cannot be written
     */
    public static void write(RunRecord result, Path file) throws IOException {
        MAPPER.writeValue(file.toFile(), toJson(result));
    }

    /**
     * Reads a result.json back, as {@link ResultJsonReader#read} does.
     *
     * @param file the file
     * @return its record
     * @throws ReportInputException naming the file and what is wrong
     */
    public static RunRecord read(Path file) throws ReportInputException {
        return ResultJsonReader.read(file);
    }

    /**
     * @param result the run
     * @return the result.json tree
     */
    public static ObjectNode toJson(RunRecord result) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("scenario", result.scenario());
        root.put("description", result.description());
        root.put("scale", result.scale());
        if (result.shape() != null) { // the counts at this scale; the description gives scale 1's
            root.put("shape", result.shape());
        }
        Verdict verdict = Verdict.of(result); // what the run found, first (the console's and report.html's first lines)
        ObjectNode vn = root.putObject("verdict");
        vn.put("passes", verdict.passes());
        ArrayNode verdictLines = vn.putArray("lines");
        verdict.lines().forEach(l -> verdictLines.add(l.text()));
        vn.put("invariants", verdict.invariants());
        ObjectNode machine = root.putObject("machine");
        machine.put("cpus", result.machine().cpus());
        machine.put("java", result.machine().java());
        machine.put("akka", result.machine().akka());
        root.put("started", result.started().toString());
        ArrayNode overrides = root.putArray("overrides");
        result.overrides().forEach(overrides::add);
        num(root, "wall_s", result.wallSeconds());
        ExecutionJson.write(root, result);
        root.put("repeat", result.repeat());
        replicates(root.putArray("replicates"), result);
        designs(root.putArray("designs"), result);
        // the verdict's checked lines: one per comparison, then one per ratio
        ratios(root.putArray("ratios"), result, verdict, result.comparisons().size());
        comparisons(root.putArray("comparisons"), result, verdict);
        if (result.sensitivity() != null) {
            root.set("sensitivity", SensitivityJson.toJson(result.sensitivity()));
        }
        return root;
    }

    private static void replicates(ArrayNode reps, RunRecord result) {
        for (ReplicateRecord rep : result.replicates()) {
            ObjectNode rn = reps.addObject();
            rn.put("index", rep.index());
            ArrayNode order = rn.putArray("order");
            rep.order().forEach(order::add);
            ArrayNode rd = rn.putArray("designs");
            for (ReplicateRecord.Design d : rep.designs()) {
                ObjectNode dn = rd.addObject();
                dn.put("name", d.name());
                ObjectNode means = dn.putObject("means");
                d.means().forEach((k, v) -> num(means, k, v));
                num(dn, "throughput_per_s", d.throughputPerSec());
                num(dn, "wall_s", d.wallSeconds());
                if (d.clocks() != null) {
                    ExecutionJson.clocks(dn, d.clocks());
                }
                ObjectNode inv = dn.putObject("invariants");
                d.invariants().forEach(inv::put);
            }
        }
    }

    private static void designs(ArrayNode designs, RunRecord result) {
        for (DesignRecord d : result.designs()) {
            ObjectNode dn = designs.addObject();
            dn.put("name", d.name());
            ObjectNode strategies = dn.putObject("strategies");
            d.strategies().forEach(strategies::put);
            ObjectNode measures = dn.putObject("measures");
            for (Map.Entry<String, MeasureSummary> e : d.measures().entrySet()) {
                MeasureSummary s = e.getValue();
                ObjectNode m = measures.putObject(e.getKey());
                m.put("unit", s.unit());
                MeasureDescriptions.of(e.getKey()).ifPresent(text -> m.put("description", text));
                m.put("count", s.count());
                num(m, "mean", s.mean());
                num(m, "sd", s.sd());
                num(m, "p50", s.p50());
                num(m, "p90", s.p90());
                num(m, "p99", s.p99());
                num(m, "p999", s.p999());
                num(m, "max", s.max());
                pair(m, "ci95", s.ci95()[0], s.ci95()[1]);
            }
            num(dn, "throughput_per_s", d.throughputPerSec());
            num(dn, "wall_s", d.wallSeconds());
            ObjectNode inv = dn.putObject("invariants");
            d.invariants().forEach(inv::put);
            ObjectNode counters = dn.putObject("counters");
            d.counters().forEach(counters::put);
        }
    }

    /** The derived ratios; {@code line} is the first of their sentences among the verdict's checked lines. */
    private static void ratios(ArrayNode ratios, RunRecord result, Verdict verdict, int line) {
        for (RunResult.DerivedRatio ratio : result.ratios()) {
            ObjectNode rn = ratios.addObject();
            Verdict.Line said = verdict.checked().get(line++);
            rn.put("name", ratio.name());
            num(rn, "model", ratio.model());
            num(rn, "seed", ratio.seed());
            if (said.agrees() != null) {
                num(rn, "seed_tolerance", said.tolerance());
                rn.put("agrees_with_seed", said.agrees());
            }
            numbers(rn.putArray("replicates"), ratio.replicates());
            pair(rn, "ci95", ratio.ciLow(), ratio.ciHigh());
        }
    }

    private static void comparisons(ArrayNode comparisons, RunRecord result, Verdict verdict) {
        int line = 0;
        for (Comparison c : result.comparisons()) {
            ObjectNode cn = comparisons.addObject();
            Verdict.Line said = verdict.checked().get(line++);
            cn.put("measure", c.measure());
            cn.put("a", c.a());
            cn.put("b", c.b());
            num(cn, "mean_a", c.meanA());
            num(cn, "mean_b", c.meanB());
            num(cn, "ratio_b_over_a", c.ratioBOverA());
            cn.put("designs_differ_in_used_keys", c.designsDifferInUsedKeys());
            if (result.seedRatio(c.b()) != null) { // the verdict's: within seed_tolerance of the seed's ratio
                num(cn, "seed", result.seedRatio(c.b()));
                num(cn, "seed_tolerance", said.tolerance());
                if (said.agrees() == null) {
                    cn.putNull("agrees_with_seed");
                } else {
                    cn.put("agrees_with_seed", said.agrees());
                }
            }
            cn.put("verdict", said.text());
            if (!c.designsDifferInUsedKeys()) {
                cn.put("note", c.sameModelNote());
            }
            numbers(cn.putArray("replicate_means_a"), c.replicateMeansA());
            numbers(cn.putArray("replicate_means_b"), c.replicateMeansB());
            RatioInterval ci = c.ratioCi();
            if (ci == null) {
                cn.putNull("ratio_ci95");
            } else {
                ObjectNode in = cn.putObject("ratio_ci95");
                in.put("method", RatioInterval.METHOD);
                num(in, "low", ci.low());
                num(in, "high", ci.high());
                num(in, "df", ci.df());
            }
            WelchTest w = c.welch();
            if (w == null) {
                cn.putNull("welch");
            } else {
                ObjectNode wn = cn.putObject("welch");
                num(wn, "t", w.t());
                num(wn, "df", w.df());
                num(wn, "p", w.p());
                pair(wn, "ci95", w.ciLow(), w.ciHigh());
                wn.put("n", c.replicates());
            }
        }
    }
}
