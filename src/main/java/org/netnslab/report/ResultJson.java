package org.netnslab.report;

import static org.netnslab.report.JsonFields.at;
import static org.netnslab.report.JsonFields.num;
import static org.netnslab.report.JsonFields.pair;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.MeasureDescriptions;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.RatioInterval;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.WelchTest;

/**
 * result.json, schema version 2 (docs/reading-results.md, "result.json"): schema 1 (the shared design's section 5)
 * with the run's {@code overrides} ({@code --set} arguments), the invariant {@code sock_inuse_sum} and
 * a design's {@code counters} (grace periods, rcu_barrier calls, batches), plus what replicates add:
 * {@code repeat}; {@code replicates}, each replicate's design order and per-design means, throughput,
 * counted-phase time and invariants; a comparison's {@code replicate_means_a}/{@code _b} and
 * {@code ratio_ci95}, and its {@code welch} computed over replicate means ({@code n} per design); a
 * derived ratio's {@code replicates} and {@code ci95}. {@code designs} hold each design merged over the
 * replicates. Numbers that are not finite (a ratio over a zero mean, an unbounded interval) are
 * written as null, never as a non-JSON NaN, and read back as NaN.
 *
 * <p>Added within schema 2 (no field changed meaning, so the number stays; files without them read as
 * before): {@code execution} ({@code mode} live|virtual; {@code machine} {@code cpus} (a list: one count,
 * or a sweep's counts), {@code jitter}, {@code random_seed}, and since issue #20 {@code scheduler},
 * {@code preempt}, {@code hz}, {@code base_slice_ns}, {@code context_switch_ns}, {@code slice_ns} (the slice each
 * count ran with; virtual fair runs only); a measure's {@code description}, what it
 * times from where to where ({@code MeasureDescriptions}); {@code sweep}, null or how a sweep keys its
 * results: {@code <design>@<cpus>cpu}, each compared with the baseline at the same count; and the run's
 * {@code run_wall_s}, {@code simulated_s}, {@code simulated_events}, {@code simulated_events_per_wall_s}
 * summed over its design runs), and the same four clock fields on each replicate's design run. In
 * virtual execution every measure, throughput and {@code wall_s} of a design is in simulated time;
 * {@code run_wall_s} is always real time; the simulated fields are null in live execution. Each
 * comparison's {@code designs_differ_in_used_keys} (false, with a {@code note}, when the two designs are
 * equal in every model key the workload uses: their difference is noise; absent in older files: true).
 *
 * <p>{@link #read} is {@link #toJson}'s inverse for every field schema 2 holds; what it has no key
 * for (the seed, the seed's ratios, throughput units and series, percentile distributions) is left
 * null or empty in the record it returns, for {@link ResultsFolder} to fill in from the other files.
 * It reads schema 1 files too, as a run of one replicate: their Welch test, which took every sample
 * of a run as independent, is not read (the comparison has none), so no report shows its p-value.
 */
public final class ResultJson {
    /** The schema version written. */
    public static final int SCHEMA = 2;
    /** The schema of earlier versions, which is still read. */
    public static final int SCHEMA_1 = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private ResultJson() {}

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
        execution(root, result);
        root.put("repeat", result.repeat());
        ArrayNode reps = root.putArray("replicates");
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
                    clocks(dn, d.clocks());
                }
                ObjectNode inv = dn.putObject("invariants");
                d.invariants().forEach(inv::put);
            }
        }
        ArrayNode designs = root.putArray("designs");
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
        ArrayNode ratios = root.putArray("ratios");
        int derived = result.comparisons().size(); // the verdict's lines: comparisons, then these ratios
        for (var ratio : result.ratios()) {
            ObjectNode rn = ratios.addObject();
            Verdict.Line said = verdict.checked().get(derived++);
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
        ArrayNode comparisons = root.putArray("comparisons");
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
            if (result.seedRatio(c.b()) != null) { // the verdict's: within seed_tolerance of the seed's ratio (Verdict)
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
        return root;
    }

    /**
     * The run's {@code execution}: mode, simulated machine, how a sweep keys its results, and the run's two
     * clocks summed over its design runs. Absent from files of earlier versions; {@code wall_s} beside it keeps
     * its meaning (the whole run's wall time), so the schema number stays.
     */
    private static void execution(ObjectNode root, RunRecord r) {
        RunResult.ExecutionInfo e = r.execution();
        if (e == null) {
            return;
        }
        ObjectNode en = root.putObject("execution");
        en.put("mode", e.mode());
        ObjectNode mn = en.putObject("machine");
        ArrayNode cpus = mn.putArray("cpus");
        e.cpus().forEach(cpus::add);
        num(mn, "jitter", e.jitter());
        mn.put("random_seed", e.randomSeed());
        if (e.scheduling() != null) { // issue #20; absent from earlier files
            RunResult.SchedulingInfo s = e.scheduling();
            mn.put("scheduler", s.scheduler());
            mn.put("preempt", s.preempt());
            mn.put("hz", s.hz());
            mn.put("base_slice_ns", s.baseSliceNanos());
            if (e.mode().equals("virtual") && s.scheduler().equals("fair")) { // where a slice shaped anything
                ArrayNode slices = mn.putArray("slice_ns"); // the slice used at each count: base_slice_ns 0 derives it
                s.sliceNanos().forEach(slices::add);
            }
            mn.put("context_switch_ns", s.contextSwitchNanos());
            mn.put("task_group", s.taskGroup());
            // the keys are the run's inputs and stay recorded; this says which of them shaped nothing
            ArrayNode none = mn.putArray("no_effect");
            RunResult.SchedulingInfo.noEffect(
                            !e.mode().equals("virtual"), s.scheduler().equals("fifo"))
                    .forEach(none::add);
        }
        if (e.sweep()) {
            ObjectNode sn = en.putObject("sweep");
            sn.put("key", "machine.cpus");
            sn.put("design_key", "<design>@<cpus>cpu");
            sn.put("comparisons", "each design against the baseline at the same cpus");
        } else {
            en.putNull("sweep");
        }
        clocks(en, r.clocks());
    }

    /** A design run's (or the run's) real and simulated clocks; simulated ones null in live execution. */
    private static void clocks(ObjectNode n, RunResult.Clocks c) {
        num(n, "run_wall_s", c.wallSeconds());
        num(n, "simulated_s", c.simulatedSeconds());
        if (c.simulatedEvents() < 0) {
            n.putNull("simulated_events");
        } else {
            n.put("simulated_events", c.simulatedEvents());
        }
        num(n, "simulated_events_per_wall_s", c.eventsPerWallSecond());
    }

    /** @return the clocks saved in {@code n}, or null when it has none (files of earlier versions) */
    private static RunResult.Clocks clocks(JsonFields f, JsonNode n, String p) throws ReportInputException {
        if (!n.has("run_wall_s")) {
            return null;
        }
        JsonNode ev = f.field(n, p, "simulated_events");
        return new RunResult.Clocks(
                f.number(n, p, "run_wall_s"),
                f.number(n, p, "simulated_s"),
                ev.isNull() ? -1 : f.whole(n, p, "simulated_events"));
    }

    /** @return the run's execution, or null when the file has none (files of earlier versions) */
    private static RunResult.ExecutionInfo execution(JsonFields f, JsonNode root) throws ReportInputException {
        if (!root.has("execution")) {
            return null;
        }
        JsonNode e = f.object(root, "", "execution");
        JsonNode m = f.object(e, "execution", "machine");
        JsonNode cn = f.array(m, "execution.machine", "cpus");
        List<Integer> cpus = new ArrayList<>();
        for (int i = 0; i < cn.size(); i++) {
            cpus.add((int) f.number(cn.get(i), at("execution.machine.cpus", i)));
        }
        RunResult.SchedulingInfo scheduling = !m.has("scheduler")
                ? null
                : new RunResult.SchedulingInfo(
                        f.text(m, "execution.machine", "scheduler"),
                        f.text(m, "execution.machine", "preempt"),
                        (int) f.whole(m, "execution.machine", "hz"),
                        f.whole(m, "execution.machine", "base_slice_ns"),
                        f.whole(m, "execution.machine", "context_switch_ns"),
                        m.has("task_group") ? f.text(m, "execution.machine", "task_group") : "root",
                        slices(f, m));
        return new RunResult.ExecutionInfo(
                f.text(e, "execution", "mode"),
                cpus,
                !f.field(e, "execution", "sweep").isNull(),
                f.number(m, "execution.machine", "jitter"),
                f.whole(m, "execution.machine", "random_seed"),
                scheduling);
    }

    /** @return {@code execution.machine.slice_ns}, or empty in a file written before it */
    private static List<Long> slices(JsonFields f, JsonNode m) throws ReportInputException {
        List<Long> slices = new ArrayList<>();
        if (m.has("slice_ns")) {
            JsonNode sn = f.array(m, "execution.machine", "slice_ns");
            for (int i = 0; i < sn.size(); i++) {
                slices.add((long) f.number(sn.get(i), at("execution.machine.slice_ns", i)));
            }
        }
        return slices;
    }

    private static void numbers(ArrayNode a, List<Double> values) {
        for (double v : values) {
            if (Double.isFinite(v)) {
                a.add(v);
            } else {
                a.addNull();
            }
        }
    }

    private static List<Double> numbers(JsonFields f, JsonNode obj, String p, String key) throws ReportInputException {
        JsonNode a = f.array(obj, p, key);
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            out.add(f.number(a.get(i), at(at(p, key), i)));
        }
        return out;
    }

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
     * Reads a result.json back.
     *
     * @param file the file
     * @return its record: no seed, seed ratios, throughput units or series, percentiles or notes
     * @throws ReportInputException naming the file and what is wrong: missing, not JSON, a schema other
     *     than {@value #SCHEMA_1} or {@value #SCHEMA}, a field missing or of the wrong type (named by its
     *     path), or {@code repeat} not the number of {@code replicates}
     */
    public static RunRecord read(Path file) throws ReportInputException {
        JsonFields.Parsed parsed = JsonFields.parse(MAPPER, file, SCHEMA_1, SCHEMA);
        JsonFields f = parsed.fields();
        JsonNode root = parsed.root();
        boolean v1 = root.get("schema").intValue() == SCHEMA_1;
        JsonNode machine = f.object(root, "", "machine");
        Instant started;
        try {
            started = Instant.parse(f.text(root, "", "started"));
        } catch (DateTimeParseException e) {
            throw new ReportInputException(file, "started: not an ISO-8601 instant (" + e.getMessage() + ")", e);
        }
        List<String> overrides = new ArrayList<>();
        JsonNode on = f.array(root, "", "overrides");
        for (int i = 0; i < on.size(); i++) {
            overrides.add(f.textAt(on, "overrides", i));
        }
        List<DesignRecord> designs = new ArrayList<>();
        JsonNode dn = f.array(root, "", "designs");
        for (int i = 0; i < dn.size(); i++) {
            designs.add(design(f, f.objectAt(dn, "designs", i), at("designs", i)));
        }
        List<RunResult.DerivedRatio> ratios = new ArrayList<>();
        JsonNode rn = f.array(root, "", "ratios");
        for (int i = 0; i < rn.size(); i++) {
            String p = at("ratios", i);
            JsonNode r = f.objectAt(rn, "ratios", i);
            if (v1) {
                ratios.add(new RunResult.DerivedRatio(
                        f.text(r, p, "name"), f.number(r, p, "model"), f.number(r, p, "seed")));
            } else {
                double[] ci = f.pair(r, p, "ci95");
                ratios.add(new RunResult.DerivedRatio(
                        f.text(r, p, "name"),
                        f.number(r, p, "model"),
                        f.number(r, p, "seed"),
                        numbers(f, r, p, "replicates"),
                        ci[0],
                        ci[1]));
            }
        }
        List<Comparison> comparisons = new ArrayList<>();
        JsonNode cn = f.array(root, "", "comparisons");
        for (int i = 0; i < cn.size(); i++) {
            comparisons.add(
                    v1
                            ? comparisonV1(f, f.objectAt(cn, "comparisons", i), at("comparisons", i))
                            : comparison(f, f.objectAt(cn, "comparisons", i), at("comparisons", i)));
        }
        List<ReplicateRecord> replicates = new ArrayList<>();
        if (v1) {
            replicates.add(ReplicateRecord.single(designs));
        } else {
            JsonNode rn2 = f.array(root, "", "replicates");
            for (int i = 0; i < rn2.size(); i++) {
                replicates.add(replicate(f, f.objectAt(rn2, "replicates", i), at("replicates", i)));
            }
            long repeat = f.whole(root, "", "repeat");
            if (repeat < 1 || repeat != replicates.size()) {
                throw f.wrong("repeat", repeat + " replicates said, " + replicates.size() + " saved");
            }
        }
        return new RunRecord(
                f.text(root, "", "scenario"),
                f.text(root, "", "description"),
                null,
                f.number(root, "", "scale"),
                new RunRecord.Machine(
                        (int) f.whole(machine, "machine", "cpus"),
                        f.text(machine, "machine", "java"),
                        f.text(machine, "machine", "akka")),
                started,
                f.number(root, "", "wall_s"),
                overrides,
                designs,
                ratios,
                comparisons,
                Map.of(),
                List.of(),
                replicates,
                execution(f, root));
    }

    private static ReplicateRecord replicate(JsonFields f, JsonNode r, String p) throws ReportInputException {
        List<String> order = new ArrayList<>();
        JsonNode on = f.array(r, p, "order");
        for (int i = 0; i < on.size(); i++) {
            order.add(f.textAt(on, at(p, "order"), i));
        }
        List<ReplicateRecord.Design> designs = new ArrayList<>();
        JsonNode dn = f.array(r, p, "designs");
        for (int i = 0; i < dn.size(); i++) {
            String dp = at(at(p, "designs"), i);
            JsonNode d = f.objectAt(dn, at(p, "designs"), i);
            Map<String, Double> means = new LinkedHashMap<>();
            JsonNode mn = f.object(d, dp, "means");
            for (Iterator<String> it = mn.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                means.put(k, f.number(mn, at(dp, "means"), k));
            }
            designs.add(new ReplicateRecord.Design(
                    f.text(d, dp, "name"),
                    means,
                    f.number(d, dp, "throughput_per_s"),
                    f.number(d, dp, "wall_s"),
                    counts(f, f.object(d, dp, "invariants"), at(dp, "invariants")),
                    clocks(f, d, dp)));
        }
        return new ReplicateRecord((int) f.whole(r, p, "index"), order, designs);
    }

    private static DesignRecord design(JsonFields f, JsonNode d, String p) throws ReportInputException {
        Map<String, String> strategies = new LinkedHashMap<>();
        JsonNode sn = f.object(d, p, "strategies");
        for (Iterator<String> it = sn.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            strategies.put(k, f.text(sn, at(p, "strategies"), k));
        }
        Map<String, MeasureSummary> measures = new LinkedHashMap<>();
        JsonNode mn = f.object(d, p, "measures");
        for (Iterator<String> it = mn.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            String mp = at(at(p, "measures"), k);
            JsonNode m = f.object(mn, at(p, "measures"), k);
            measures.put(
                    k,
                    new MeasureSummary(
                            f.text(m, mp, "unit"),
                            f.count(m, mp, "count"),
                            f.number(m, mp, "mean"),
                            f.number(m, mp, "sd"),
                            f.number(m, mp, "p50"),
                            f.number(m, mp, "p90"),
                            f.number(m, mp, "p99"),
                            f.number(m, mp, "p999"),
                            f.number(m, mp, "max"),
                            f.pair(m, mp, "ci95")));
        }
        return new DesignRecord(
                f.text(d, p, "name"),
                strategies,
                measures,
                f.number(d, p, "throughput_per_s"),
                null,
                f.number(d, p, "wall_s"),
                counts(f, f.object(d, p, "invariants"), at(p, "invariants")),
                counts(f, f.object(d, p, "counters"), at(p, "counters")),
                List.of(),
                Map.of());
    }

    private static Map<String, Long> counts(JsonFields f, JsonNode obj, String p) throws ReportInputException {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            m.put(k, f.whole(obj, p, k));
        }
        return m;
    }

    /** A schema 1 comparison: one replicate; its Welch test over single samples is left out (see the class). */
    private static Comparison comparisonV1(JsonFields f, JsonNode c, String p) throws ReportInputException {
        double meanA = f.number(c, p, "mean_a");
        double meanB = f.number(c, p, "mean_b");
        f.field(c, p, "welch");
        return new Comparison(
                f.text(c, p, "measure"),
                f.text(c, p, "a"),
                f.text(c, p, "b"),
                meanA,
                meanB,
                f.number(c, p, "ratio_b_over_a"),
                List.of(meanA),
                List.of(meanB),
                null,
                null);
    }

    private static Comparison comparison(JsonFields f, JsonNode c, String p) throws ReportInputException {
        double meanA = f.number(c, p, "mean_a");
        double meanB = f.number(c, p, "mean_b");
        List<Double> ma = numbers(f, c, p, "replicate_means_a");
        List<Double> mb = numbers(f, c, p, "replicate_means_b");
        if (ma.isEmpty() || ma.size() != mb.size()) {
            throw f.wrong(
                    at(p, "replicate_means_b"), "expected as many replicate means as replicate_means_a, at least one");
        }
        double ratio = f.number(c, p, "ratio_b_over_a");
        RatioInterval ci = null;
        JsonNode in = f.field(c, p, "ratio_ci95");
        if (!in.isNull()) {
            String ip = at(p, "ratio_ci95");
            in = f.object(c, p, "ratio_ci95");
            String method = f.text(in, ip, "method");
            if (!method.equals(RatioInterval.METHOD)) {
                throw f.wrong(
                        at(ip, "method"),
                        "'" + method + "' is not a method this version knows (" + RatioInterval.METHOD + ")");
            }
            ci = new RatioInterval(ratio, f.number(in, ip, "low"), f.number(in, ip, "high"), f.number(in, ip, "df"));
        }
        JsonNode w = f.field(c, p, "welch");
        WelchTest welch = null;
        if (!w.isNull()) {
            String wp = at(p, "welch");
            w = f.object(c, p, "welch");
            double[] wci = f.pair(w, wp, "ci95");
            // WelchTest's means are the comparison's own (x = a, y = b), which result.json writes once
            welch = new WelchTest(
                    f.number(w, wp, "t"), f.number(w, wp, "df"), f.number(w, wp, "p"), wci[0], wci[1], meanA, meanB);
            long n = f.count(w, wp, "n");
            if (n != ma.size()) {
                throw f.wrong(at(wp, "n"), n + ", but " + ma.size() + " replicate means are saved");
            }
        }
        // absent before issue #11's check: read as designs that differ
        JsonNode differ = c.get("designs_differ_in_used_keys");
        String note = differ != null && differ.isBoolean() && !differ.asBoolean() ? f.text(c, p, "note") : null;
        return new Comparison(
                f.text(c, p, "measure"),
                f.text(c, p, "a"),
                f.text(c, p, "b"),
                meanA,
                meanB,
                ratio,
                ma,
                mb,
                welch,
                ci,
                note);
    }
}
