package org.netnslab.report;

import static org.netnslab.report.JsonFields.at;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.RatioInterval;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.WelchTest;

/**
 * Reads result.json back into a {@link RunRecord}: schema 2 here, what schema 1 holds differently in
 * {@link SchemaOneJson}. The record has no seed, seed ratios, throughput units or series, or percentile
 * distributions, which {@link ResultsFolder} fills in from the other files.
 */
final class ResultJsonReader {
    /** How a figure that no run would write is said. */
    static final String EDITED = ": not the figures a run wrote (was the file edited?)";

    private ResultJsonReader() {}

    /**
     * @param file the file
     * @return its record
     * @throws ReportInputException naming the file and what is wrong: missing, not JSON, a schema other
     *     than 1 or 2, a field missing or of the wrong type (named by its path), or {@code repeat} not the
     *     number of {@code replicates}
     */
    static RunRecord read(Path file) throws ReportInputException {
        JsonFields.Parsed parsed = JsonFields.parse(ResultJson.MAPPER, file, ResultJson.SCHEMA_1, ResultJson.SCHEMA);
        JsonFields f = parsed.fields();
        JsonNode root = parsed.root();
        boolean v1 = root.get("schema").intValue() == ResultJson.SCHEMA_1;
        JsonNode machine = f.object(root, "", "machine");
        Instant started;
        try {
            started = Instant.parse(f.text(root, "", "started"));
        } catch (DateTimeParseException e) {
            throw new ReportInputException(file, "started: not an ISO-8601 instant (" + e.getMessage() + ")", e);
        }
        List<String> overrides = f.texts(root, "", "overrides");
        List<DesignRecord> designs = new ArrayList<>();
        JsonNode dn = f.array(root, "", "designs");
        for (int i = 0; i < dn.size(); i++) {
            designs.add(design(f, f.objectAt(dn, "designs", i), at("designs", i)));
        }
        if (designs.isEmpty()) {
            throw f.wrong("designs", "no design saved (a run has at least one)");
        }
        Map<String, String> units = new LinkedHashMap<>(); // a measure is one quantity: one unit in every design
        for (int i = 0; i < designs.size(); i++) {
            for (Map.Entry<String, MeasureSummary> m : designs.get(i).measures().entrySet()) {
                String first = units.putIfAbsent(m.getKey(), m.getValue().unit());
                if (first != null && !first.equals(m.getValue().unit())) {
                    throw f.wrong(
                            at(at(at("designs", i), "measures"), m.getKey()) + ".unit",
                            "'" + m.getValue().unit() + "', where an earlier design's " + m.getKey() + " is in '"
                                    + first + "'" + EDITED);
                }
            }
        }
        Map<String, DesignRecord> byName = new LinkedHashMap<>();
        for (int i = 0; i < designs.size(); i++) {
            String name = designs.get(i).name();
            // a design's name is part of its .hgrm files' names, which the report reads beside result.json
            if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.equals("..")) {
                throw f.wrong(at(at("designs", i), "name"), "'" + name + "' is not a design name");
            }
            if (byName.put(name, designs.get(i)) != null) { // a run runs each design once
                throw f.wrong(at(at("designs", i), "name"), "'" + name + "' is listed twice");
            }
        }
        List<RunResult.DerivedRatio> ratios = new ArrayList<>();
        JsonNode rn = f.array(root, "", "ratios");
        for (int i = 0; i < rn.size(); i++) {
            JsonNode r = f.objectAt(rn, "ratios", i);
            ratios.add(v1 ? SchemaOneJson.ratio(f, r, at("ratios", i)) : ratio(f, r, at("ratios", i)));
        }
        List<Comparison> comparisons = new ArrayList<>();
        Map<String, Double> seeds = new java.util.LinkedHashMap<>(); // each compared design's seed ratio, as judged
        Map<String, Double> bySeedDesign = new java.util.HashMap<>(); // the same, by design at every swept count
        JsonNode cn = f.array(root, "", "comparisons");
        for (int i = 0; i < cn.size(); i++) {
            JsonNode c = f.objectAt(cn, "comparisons", i);
            Comparison cmp =
                    v1 ? SchemaOneJson.comparison(f, c, at("comparisons", i)) : comparison(f, c, at("comparisons", i));
            if (c.hasNonNull("seed")) { // a run judges every comparison of a design against its one seed ratio
                double seed = f.number(c, at("comparisons", i), "seed");
                seeds.put(cmp.b(), seed);
                String design = SweepVerdict.base(cmp.b()); // a sweep's design at one count
                Double before = bySeedDesign.put(design, seed);
                if (before != null && before != seed) {
                    throw f.wrong(
                            at(at("comparisons", i), "seed"),
                            seed + ", but an earlier comparison of " + design + " has " + before + EDITED);
                }
            }
            for (String d : List.of(cmp.a(), cmp.b())) {
                if (!byName.containsKey(d)) {
                    throw f.wrong(at("comparisons", i), "compares design '" + d + "', which designs does not hold");
                }
                if (!byName.get(d).measures().containsKey(cmp.measure())) {
                    throw f.wrong(
                            at("comparisons", i),
                            "compares " + cmp.measure() + ", which design '" + d + "' has no measure of");
                }
            }
            comparisons.add(cmp);
        }
        List<ReplicateRecord> replicates = v1 ? List.of(SchemaOneJson.replicate(designs)) : replicates(f, root);
        if (!v1) {
            ReplicatesCheck.agree(f, comparisons, replicates, designs);
        }
        return new RunRecord(
                f.text(root, "", "scenario"),
                f.text(root, "", "description"),
                null,
                f.positive(root, "", "scale"),
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
                seeds, // result-extra.json's, where it is read, after a check that they are these
                List.of(),
                replicates,
                ExecutionJson.read(f, root),
                SensitivityJson.agreesWithRun(f, SensitivityJson.read(f, root), comparisons, seeds),
                root.hasNonNull("shape") ? f.text(root, "", "shape") : null,
                null); // in result-extra.json
    }

    private static List<ReplicateRecord> replicates(JsonFields f, JsonNode root) throws ReportInputException {
        List<ReplicateRecord> replicates = new ArrayList<>();
        JsonNode rn = f.array(root, "", "replicates");
        for (int i = 0; i < rn.size(); i++) {
            replicates.add(replicate(f, f.objectAt(rn, "replicates", i), at("replicates", i)));
        }
        long repeat = f.whole(root, "", "repeat");
        if (repeat < 1 || repeat != replicates.size()) {
            throw f.wrong("repeat", repeat + " replicates said, " + replicates.size() + " saved");
        }
        for (int i = 0; i < replicates.size(); i++) {
            if (replicates.get(i).index() != i + 1) { // a run numbers its replicates 1, 2, ... in the order they ran
                throw f.wrong(
                        at(at("replicates", i), "index"),
                        replicates.get(i).index() + ", where it is replicate " + (i + 1) + " in the run's order"
                                + EDITED);
            }
        }
        return replicates;
    }

    private static ReplicateRecord replicate(JsonFields f, JsonNode r, String p) throws ReportInputException {
        List<String> order = f.texts(r, p, "order");
        List<ReplicateRecord.Design> designs = new ArrayList<>();
        JsonNode dn = f.array(r, p, "designs");
        for (int i = 0; i < dn.size(); i++) {
            String dp = at(at(p, "designs"), i);
            JsonNode d = f.objectAt(dn, at(p, "designs"), i);
            designs.add(new ReplicateRecord.Design(
                    f.text(d, dp, "name"),
                    f.map(d, dp, "means", f::number),
                    f.number(d, dp, "throughput_per_s"),
                    f.number(d, dp, "wall_s"),
                    f.map(d, dp, "invariants", invariant(f)),
                    ExecutionJson.clocks(f, d, dp)));
        }
        // the order the replicate's design runs ran in: each of its designs once
        if (!new java.util.HashSet<>(order)
                        .equals(new java.util.HashSet<>(designs.stream()
                                .map(ReplicateRecord.Design::name)
                                .toList()))
                || order.size() != designs.size()) {
            throw f.wrong(at(p, "order"), order + " is not its designs, each once" + EDITED);
        }
        return new ReplicateRecord((int) f.whole(r, p, "index"), order, designs);
    }

    /**
     * @return an invariant counter's reader: a count (0 or more), but for sock_inuse_sum, the per-CPU counters'
     *     sum at net_free, whose sign says which way a socket was miscounted
     */
    private static JsonFields.Field<Long> invariant(JsonFields f) {
        return (o, path, key) -> key.equals("sock_inuse_sum") ? f.whole(o, path, key) : f.count(o, path, key);
    }

    private static DesignRecord design(JsonFields f, JsonNode d, String p) throws ReportInputException {
        Map<String, String> strategies = f.map(d, p, "strategies", f::text);
        Map<String, MeasureSummary> measures = new LinkedHashMap<>();
        JsonNode mn = f.object(d, p, "measures");
        for (Iterator<String> it = mn.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            String mp = at(at(p, "measures"), k);
            JsonNode m = f.object(mn, at(p, "measures"), k);
            MeasureSummary s = new MeasureSummary(
                    f.text(m, mp, "unit"),
                    f.count(m, mp, "count"),
                    f.number(m, mp, "mean"),
                    f.number(m, mp, "sd"),
                    f.number(m, mp, "p50"),
                    f.number(m, mp, "p90"),
                    f.number(m, mp, "p99"),
                    f.number(m, mp, "p999"),
                    f.number(m, mp, "max"),
                    f.pair(m, mp, "ci95"));
            if (s.count() == 0) {
                noFigures(f, mp, s);
                measures.put(k, s);
                continue;
            }
            MeasureChecks.check(f, mp, s);
            measures.put(k, s);
        }
        return new DesignRecord(
                f.text(d, p, "name"),
                strategies,
                measures,
                f.number(d, p, "throughput_per_s"),
                null,
                f.number(d, p, "wall_s"),
                f.map(d, p, "invariants", invariant(f)),
                f.map(d, p, "counters", f::whole),
                List.of(),
                Map.of());
    }

    /**
     * A measure that recorded nothing has no figures: null since the rule, 0 in older runs; anything else was edited
     * in.
     */
    private static void noFigures(JsonFields f, String mp, MeasureSummary s) throws ReportInputException {
        double[] all = {s.mean(), s.sd(), s.p50(), s.p90(), s.p99(), s.p999(), s.max(), s.ci95()[0], s.ci95()[1]};
        if (!java.util.Arrays.stream(all).allMatch(Double::isNaN)
                && !java.util.Arrays.stream(all).allMatch(v -> v == 0)) {
            throw f.wrong(mp, "figures for a measure of count 0, which recorded none" + EDITED);
        }
    }

    private static RunResult.DerivedRatio ratio(JsonFields f, JsonNode r, String p) throws ReportInputException {
        double[] ci = f.pair(r, p, "ci95");
        List<Double> replicates = f.numbers(r, p, "replicates");
        if (replicates.isEmpty()) {
            throw f.wrong(at(p, "replicates"), "expected the ratio of each replicate, at least one");
        }
        RunResult.DerivedRatio saved = new RunResult.DerivedRatio(
                f.text(r, p, "name"), f.number(r, p, "model"), f.number(r, p, "seed"), replicates, ci[0], ci[1]);
        // what a run derives from the replicates' ratios, it writes as derived: one edited alone is refused
        RunResult.DerivedRatio derived = RunResult.DerivedRatio.over(saved.name(), saved.seed(), replicates);
        agrees(f, at(p, "model"), saved.model(), derived.model(), "the mean of replicates");
        agrees(f, at(p, "ci95") + "[0]", saved.ciLow(), derived.ciLow(), "the t interval of replicates' low end");
        agrees(f, at(p, "ci95") + "[1]", saved.ciHigh(), derived.ciHigh(), "the t interval of replicates' high end");
        return saved;
    }

    private static Comparison comparison(JsonFields f, JsonNode c, String p) throws ReportInputException {
        double meanA = f.number(c, p, "mean_a");
        double meanB = f.number(c, p, "mean_b");
        List<Double> ma = f.numbers(c, p, "replicate_means_a");
        List<Double> mb = f.numbers(c, p, "replicate_means_b");
        if (ma.isEmpty() || ma.size() != mb.size()) {
            throw f.wrong(
                    at(p, "replicate_means_b"), "expected as many replicate means as replicate_means_a, at least one");
        }
        double ratio = f.number(c, p, "ratio_b_over_a");
        // what a run derives, it writes as derived: a figure edited alone would print beside the ones it came from
        Comparison derived = Comparison.ofMeans(
                "",
                "a",
                "b",
                ma.stream().mapToDouble(Double::doubleValue).toArray(),
                mb.stream().mapToDouble(Double::doubleValue).toArray());
        agrees(f, at(p, "mean_a"), meanA, derived.meanA(), "the mean of replicate_means_a");
        agrees(f, at(p, "mean_b"), meanB, derived.meanB(), "the mean of replicate_means_b");
        if (meanA != 0) {
            agrees(f, at(p, "ratio_b_over_a"), ratio, meanB / meanA, "mean_b / mean_a");
        }
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
        intervalAgrees(f, p, ci, welch, derived);
        // a file without the key reads as designs that differ
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

    /**
     * @param derived the comparison the saved replicate means give ({@link Comparison#ofMeans})
     * @throws ReportInputException when the saved ratio interval or Welch test is not {@code derived}'s (a test saved
     *     where the replicate means do not spread is not: its figures are compared with NaN)
     */
    private static void intervalAgrees(JsonFields f, String p, RatioInterval ci, WelchTest welch, Comparison derived)
            throws ReportInputException {
        if (ci != null && derived.ratioCi() != null) { // one replicate gives none to compare
            RatioInterval d = derived.ratioCi();
            String what = "the interval the replicate means give";
            agrees(f, at(at(p, "ratio_ci95"), "low"), ci.low(), d.low(), what);
            agrees(f, at(at(p, "ratio_ci95"), "high"), ci.high(), d.high(), what);
        }
        if (welch != null && derived.replicates() >= 2) {
            WelchTest d = derived.welch() != null
                    ? derived.welch()
                    : new WelchTest(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 0);
            String what = "Welch's test of the replicate means";
            agrees(f, at(at(p, "welch"), "t"), welch.t(), d.t(), what);
            agrees(f, at(at(p, "welch"), "df"), welch.df(), d.df(), what);
            agrees(f, at(at(p, "welch"), "p"), welch.p(), d.p(), what);
            agrees(f, at(at(at(p, "welch"), "ci95"), 0), welch.ciLow(), d.ciLow(), what);
            agrees(f, at(at(at(p, "welch"), "ci95"), 1), welch.ciHigh(), d.ciHigh(), what);
        }
    }

    /** @throws ReportInputException when {@code saved} is not {@code derived} to 1e-9 of it (a run wrote both) */
    static void agrees(JsonFields f, String path, double saved, double derived, String what)
            throws ReportInputException {
        if (Double.isNaN(saved) != Double.isNaN(derived)
                || Math.abs(saved - derived) > 1e-9 * Math.max(Math.abs(saved), Math.abs(derived))) {
            throw f.wrong(path, saved + " is not " + what + " (" + derived + ")" + EDITED);
        }
    }
}
