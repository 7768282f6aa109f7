package org.netnslab.report;

import static org.netnslab.report.JsonFields.at;
import static org.netnslab.report.JsonFields.num;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.SensitivityResult;

/** result.json's {@code sensitivity} object: a sensitivity study, written and read back. */
final class SensitivityJson {
    /** The study's sampling design, the only one written and read. */
    static final String DESIGN = "latin-hypercube";

    private static final String P = "sensitivity";

    private SensitivityJson() {}

    /**
     * @param s the study
     * @return its JSON object
     */
    static ObjectNode toJson(SensitivityResult s) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("samples", s.samples());
        n.put("spread", s.spread());
        n.put("seed_band", s.seedBand());
        n.put("random_seed", s.randomSeed());
        n.put("design", DESIGN);
        ArrayNode keys = n.putArray("keys");
        s.keys().forEach(keys::add);
        ArrayNode factors = n.putArray("factors");
        s.factors().forEach(row -> JsonFields.numbers(factors.addArray(), row));
        ArrayNode cmps = n.putArray("comparisons");
        for (SensitivityResult.Entry e : s.comparisons()) {
            ObjectNode c = cmps.addObject();
            c.put("measure", e.measure());
            c.put("a", e.a());
            c.put("b", e.b());
            num(c, "base_ratio", e.baseRatio());
            if (e.seedRatio() != null) {
                c.put("seed_ratio", e.seedRatio());
            } else {
                c.putNull("seed_ratio");
            }
            JsonFields.numbers(c.putArray("ratios"), e.ratios());
            c.put("conclusion", e.conclusion());
            num(c, "holds_share", e.holdsShare());
            num(c, "seed_band_share", e.seedBandShare());
            ObjectNode rho = c.putObject("spearman");
            e.spearman().forEach((k, v) -> num(rho, k, v));
        }
        return n;
    }

    /**
     * @param f the file's reader
     * @param root result.json's root
     * @return its study, or null when the run had none
     * @throws ReportInputException naming the field that is missing, of the wrong type, or whose count does not
     *     match the samples or the keys
     */
    static SensitivityResult read(JsonFields f, JsonNode root) throws ReportInputException {
        if (!root.has(P)) {
            return null;
        }
        JsonNode n = f.object(root, "", P);
        String design = f.text(n, P, "design");
        if (!design.equals(DESIGN)) {
            throw f.wrong(at(P, "design"), "'" + design + "' is not a design this version knows (" + DESIGN + ")");
        }
        int samples = (int) f.count(n, P, "samples");
        List<String> keys = f.texts(n, P, "keys");
        JsonNode fn = f.array(n, P, "factors");
        String fp = at(P, "factors");
        if (fn.size() != samples) {
            throw f.wrong(fp, fn.size() + " rows, but " + samples + " samples are said");
        }
        List<List<Double>> factors = new ArrayList<>();
        for (int i = 0; i < fn.size(); i++) {
            List<Double> row = f.numbers(f.arrayAt(fn, fp, i), at(fp, i));
            if (row.size() != keys.size()) {
                throw f.wrong(at(fp, i), row.size() + " factors, but " + keys.size() + " keys");
            }
            factors.add(row);
        }
        List<SensitivityResult.Entry> entries = new ArrayList<>();
        JsonNode cn = f.array(n, P, "comparisons");
        double band = f.number(n, P, "seed_band");
        double[][] fs = factors.stream()
                .map(r -> r.stream().mapToDouble(Double::doubleValue).toArray())
                .toArray(double[][]::new);
        for (int i = 0; i < cn.size(); i++) {
            String p = at(at(P, "comparisons"), i);
            SensitivityResult.Entry e = entry(f, f.objectAt(cn, at(P, "comparisons"), i), p, samples, keys);
            derived(f, p, e, keys, fs, band);
            entries.add(e);
        }
        return new SensitivityResult(
                samples,
                f.number(n, P, "spread"),
                f.number(n, P, "seed_band"),
                f.whole(n, P, "random_seed"),
                keys,
                factors,
                entries);
    }

    /**
     * A study's base ratios are its base run's comparisons' ratios, its seed ratios theirs, and its factors within its
     * spread: one edited alone would print beside figures it does not follow from.
     *
     * @param s the study read, or null
     * @param comparisons the base run's comparisons
     * @param seeds each compared design's seed ratio, from the comparisons
     * @return {@code s}
     * @throws ReportInputException naming the first figure that does not agree
     */
    static SensitivityResult agreesWithRun(
            JsonFields f, SensitivityResult s, List<Comparison> comparisons, Map<String, Double> seeds)
            throws ReportInputException {
        if (s == null) {
            return null;
        }
        for (int i = 0; i < s.comparisons().size(); i++) {
            SensitivityResult.Entry e = s.comparisons().get(i);
            String p = at(at(P, "comparisons"), i);
            for (Comparison c : comparisons) {
                if (c.measure().equals(e.measure()) && c.a().equals(e.a()) && c.b().equals(e.b())) {
                    // the base is the first replicate, which each sample reproduces
                    boolean first = c.replicateMeansA().size() > 1;
                    ResultJsonReader.agrees(
                            f,
                            at(p, "base_ratio"),
                            e.baseRatio(),
                            first
                                    ? c.replicateMeansB().get(0)
                                            / c.replicateMeansA().get(0)
                                    : c.ratioBOverA(),
                            first ? "the base run's first replicate's ratio" : "the base run's ratio_b_over_a");
                }
            }
            Double seed = seeds.get(e.b());
            if (seed != null || e.seedRatio() != null) {
                ResultJsonReader.agrees(
                        f,
                        at(p, "seed_ratio"),
                        e.seedRatio() == null ? Double.NaN : e.seedRatio(),
                        seed == null ? Double.NaN : seed,
                        "the comparisons' seed of " + e.b());
            }
        }
        for (int i = 0; i < s.factors().size(); i++) {
            for (double x : s.factors().get(i)) {
                if (Math.abs(x - 1) > s.spread() + 1e-12) {
                    throw f.wrong(
                            at(at(P, "factors"), i),
                            x + " is outside 1 +- spread (" + s.spread() + ")" + ResultJsonReader.EDITED);
                }
            }
        }
        return s;
    }

    /**
     * A study's conclusion, shares and rhos follow from its ratios and factors, as the run derived them: one edited
     * alone would print beside the figures it no longer follows from.
     *
     * @throws ReportInputException naming the first that does not
     */
    private static void derived(
            JsonFields f, String p, SensitivityResult.Entry e, List<String> keys, double[][] factors, double band)
            throws ReportInputException {
        SensitivityResult.Entry d = SensitivityResult.entry(
                e.measure(),
                e.a(),
                e.b(),
                e.baseRatio(),
                e.seedRatio(),
                e.ratios().stream().mapToDouble(Double::doubleValue).toArray(),
                keys,
                factors,
                band);
        if (!d.conclusion().equals(e.conclusion())) {
            throw f.wrong(
                    at(p, "conclusion"),
                    "'" + e.conclusion() + "' is not what base_ratio says ('" + d.conclusion() + "')"
                            + ResultJsonReader.EDITED);
        }
        ResultJsonReader.agrees(
                f,
                at(p, "holds_share"),
                e.holdsShare(),
                d.holdsShare(),
                "the share of ratios on the conclusion's side");
        ResultJsonReader.agrees(
                f, at(p, "seed_band_share"), e.seedBandShare(), d.seedBandShare(), "the share inside the seed's band");
        for (var r : d.spearman().entrySet()) {
            Double saved = e.spearman().get(r.getKey());
            ResultJsonReader.agrees(
                    f,
                    at(at(p, "spearman"), r.getKey()),
                    saved == null ? Double.NaN : saved,
                    r.getValue(),
                    "Spearman's rho of its factors and the ratios");
        }
    }

    private static SensitivityResult.Entry entry(JsonFields f, JsonNode c, String p, int samples, List<String> keys)
            throws ReportInputException {
        List<Double> ratios = f.numbers(c, p, "ratios");
        if (ratios.size() != samples) {
            throw f.wrong(at(p, "ratios"), ratios.size() + " ratios, but " + samples + " samples are said");
        }
        Map<String, Double> spearman = f.map(c, p, "spearman", f::number);
        for (String k : spearman.keySet()) {
            if (!keys.contains(k)) {
                throw f.wrong(at(at(p, "spearman"), k), "not one of the keys varied");
            }
        }
        return new SensitivityResult.Entry(
                f.text(c, p, "measure"),
                f.text(c, p, "a"),
                f.text(c, p, "b"),
                f.number(c, p, "base_ratio"),
                f.field(c, p, "seed_ratio").isNull() ? null : f.number(c, p, "seed_ratio"),
                ratios,
                f.text(c, p, "conclusion"),
                f.number(c, p, "holds_share"),
                f.number(c, p, "seed_band_share"),
                spearman);
    }
}
