package org.netnslab.report;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netnslab.metrics.Comparison;

/**
 * result.json's comparisons are every design against the baseline, at each CPU count of a sweep: on each measure
 * compared, a run compares each design that records it, as the baseline does, with the baseline. One deleted would
 * take its verdict (and a DISAGREES) with it, and leave a sentence saying the design has no figure to compare.
 */
final class ComparisonsCheck {
    private ComparisonsCheck() {}

    /**
     * @param file result.json, for the message
     * @param r the run as read
     * @throws ReportInputException naming the first comparison that is not one a run writes, or the design whose
     *     comparison is missing
     */
    static void complete(Path file, RunRecord r) throws ReportInputException {
        List<Comparison> cs = r.comparisons();
        if (cs.isEmpty()) {
            return; // nothing says which measure or baseline the run compared on
        }
        Map<String, String> baselineAt = new HashMap<>(); // a sweep's "@<n>cpu", or "": the baseline's key there
        Set<String> measures = new LinkedHashSet<>();
        Set<String> compared = new HashSet<>(); // "<measure> <b>"
        for (int i = 0; i < cs.size(); i++) {
            Comparison c = cs.get(i);
            String before = baselineAt.putIfAbsent(at(c.a()), c.a());
            if (before != null && !before.equals(c.a())) {
                throw new ReportInputException(
                        file,
                        "comparisons[" + i + "].a: " + c.a() + ", where another comparison's baseline is " + before
                                + ResultJsonReader.EDITED);
            }
            measures.add(c.measure());
            if (!compared.add(c.measure() + " " + c.b())) {
                throw new ReportInputException(
                        file,
                        "comparisons[" + i + "]: " + c.b() + " is compared on " + c.measure() + " twice"
                                + ResultJsonReader.EDITED);
            }
        }
        String baseline = SweepVerdict.base(cs.get(0).a());
        Map<String, DesignRecord> byName = new HashMap<>();
        r.designs().forEach(d -> byName.put(d.name(), d));
        for (String measure : measures) {
            for (DesignRecord d : r.designs()) {
                String a = baselineAt.getOrDefault(at(d.name()), baseline + at(d.name()));
                DesignRecord base = byName.get(a);
                if (!d.name().equals(a)
                        && d.measures().containsKey(measure)
                        && base != null
                        && base.measures().containsKey(measure)
                        && !compared.contains(measure + " " + d.name())) {
                    throw new ReportInputException(
                            file,
                            "comparisons: none of " + d.name() + " against " + a + " on " + measure
                                    + ", which both record (a run compares every such design with the baseline)"
                                    + ResultJsonReader.EDITED);
                }
            }
        }
    }

    /**
     * Each design of the run that result-extra.json gives a seed ratio for is compared: a run of two designs or more
     * compares every one with the baseline, so a list of comparisons emptied whole (which {@link #complete} cannot
     * judge: nothing in it is left to name the measure) would take its verdict, and a DISAGREES, with it.
     *
     * @param file result.json, for the message
     * @param r the run as read
     * @param seedRatios result-extra.json's seed ratios, by design
     * @throws ReportInputException naming the design whose comparisons are missing
     */
    static void seeded(Path file, RunRecord r, Map<String, Double> seedRatios) throws ReportInputException {
        Set<String> run = new LinkedHashSet<>();
        r.designs().forEach(d -> run.add(SweepVerdict.base(d.name())));
        Set<String> compared = new HashSet<>();
        r.comparisons().forEach(c -> compared.add(SweepVerdict.base(c.b())));
        for (Map.Entry<String, Double> seed : seedRatios.entrySet()) {
            if (run.size() > 1 && run.contains(seed.getKey()) && !compared.contains(seed.getKey())) {
                throw new ReportInputException(
                        file,
                        "comparisons: none of " + seed.getKey() + ", whose seed ratio (" + seed.getValue() + ") "
                                + ResultsFolder.RESULT_EXTRA_JSON + " holds (a run compares every design with the"
                                + " baseline)" + ResultJsonReader.EDITED);
            }
        }
    }

    /** @return a sweep key's {@code @<n>cpu}, or "" */
    private static String at(String key) {
        String base = SweepVerdict.base(key);
        return key.substring(base.length());
    }
}
