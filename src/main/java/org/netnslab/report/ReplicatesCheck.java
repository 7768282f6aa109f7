package org.netnslab.report;

import static org.netnslab.report.JsonFields.at;

import java.util.List;
import org.netnslab.metrics.Comparison;

/**
 * What result.json's replicates must agree with, as one run writes them from the same recorders: each comparison's
 * replicate means, and each design's pooled figures (DesignResult.merge): its invariants the replicates' sums, its
 * throughput and counted-phase time their means, each measure's mean between the replicates' means (a mean weighted
 * by their counts), and with one replicate each mean that replicate's. Stateless.
 */
final class ReplicatesCheck {
    private ReplicatesCheck() {}

    /**
     * A comparison's replicate means are its two designs' means in each replicate; with one replicate, a design's mean
     * is its mean in that replicate. A run writes both from the same recorders.
     *
     * @throws ReportInputException naming the first figure edited alone
     */
    static void agree(
            JsonFields f, List<Comparison> comparisons, List<ReplicateRecord> reps, List<DesignRecord> designs)
            throws ReportInputException {
        for (int i = 0; i < comparisons.size(); i++) {
            Comparison c = comparisons.get(i);
            for (int r = 0; r < reps.size() && r < c.replicateMeansA().size(); r++) {
                for (String side : List.of("a", "b")) {
                    String design = side.equals("a") ? c.a() : c.b();
                    Double mean = replicateMean(reps.get(r), design, c.measure());
                    if (mean != null) {
                        double saved = (side.equals("a") ? c.replicateMeansA() : c.replicateMeansB()).get(r);
                        String what = "replicates[" + r + "]'s mean of " + c.measure() + " in " + design;
                        ResultJsonReader.agrees(
                                f, at(at(at("comparisons", i), "replicate_means_" + side), r), saved, mean, what);
                    }
                }
            }
        }
        for (int i = 0; i < designs.size(); i++) {
            pooled(f, designs.get(i), at("designs", i), reps);
        }
    }

    /** A design's pooled figures against its replicates' (a design a replicate lacks is not checked). */
    private static void pooled(JsonFields f, DesignRecord d, String p, List<ReplicateRecord> reps)
            throws ReportInputException {
        List<ReplicateRecord.Design> per = reps.stream()
                .flatMap(r -> r.designs().stream().filter(x -> x.name().equals(d.name())))
                .toList();
        if (per.size() != reps.size()) {
            return;
        }
        java.util.Set<String> keys =
                new java.util.LinkedHashSet<>(d.invariants().keySet());
        per.forEach(x -> keys.addAll(x.invariants().keySet()));
        for (String k : keys) { // every key of the design's or a replicate's: one deleted alone is an edit too
            Long pooled = d.invariants().get(k);
            long sum = per.stream()
                    .mapToLong(x -> x.invariants().getOrDefault(k, 0L))
                    .sum();
            boolean inReplicates = per.stream().anyMatch(x -> x.invariants().containsKey(k));
            if (pooled == null || !inReplicates || sum != pooled) {
                throw f.wrong(
                        at(at(p, "invariants"), k),
                        (pooled == null
                                        ? "missing, where the replicates sum to " + sum
                                        : !inReplicates
                                                ? pooled + " is in no replicate's invariants"
                                                : pooled + " is not the replicates' sum (" + sum + ")")
                                + ResultJsonReader.EDITED);
            }
        }
        double n = per.size();
        ResultJsonReader.agrees(
                f,
                at(p, "throughput_per_s"),
                d.throughputPerSec(),
                per.stream()
                                .mapToDouble(ReplicateRecord.Design::throughputPerSec)
                                .sum()
                        / n,
                "the replicates' mean");
        ResultJsonReader.agrees(
                f,
                at(p, "wall_s"),
                d.wallSeconds(),
                per.stream().mapToDouble(ReplicateRecord.Design::wallSeconds).sum() / n,
                "the replicates' mean");
        for (var m : d.measures().entrySet()) {
            List<Double> means =
                    per.stream().map(x -> x.means().get(m.getKey())).toList();
            if (means.contains(null)) {
                continue;
            }
            String path = at(at(at(p, "measures"), m.getKey()), "mean");
            double mean = m.getValue().mean();
            if (per.size() == 1) {
                ResultJsonReader.agrees(f, path, mean, means.get(0), "its mean in replicates[0], the run's one");
                continue;
            }
            double[] finite = means.stream()
                    .mapToDouble(Double::doubleValue)
                    .filter(Double::isFinite)
                    .toArray();
            if (finite.length == 0) { // no replicate recorded a value: nothing to bound the pooled mean by
                continue;
            }
            double lo = java.util.Arrays.stream(finite).min().orElseThrow();
            double hi = java.util.Arrays.stream(finite).max().orElseThrow();
            double slack = 1e-9 * Math.max(Math.abs(lo), Math.abs(hi));
            if (!(mean >= lo - slack && mean <= hi + slack)) { // a mean over all values lies among the replicates'
                throw f.wrong(
                        path,
                        mean + " is outside the replicates' means (" + lo + " .. " + hi + ")"
                                + ResultJsonReader.EDITED);
            }
        }
    }

    /** @return {@code design}'s mean of {@code measure} in replicate {@code r}, or null where it has none saved */
    private static Double replicateMean(ReplicateRecord r, String design, String measure) {
        return r.designs().stream()
                .filter(d -> d.name().equals(design))
                .findFirst()
                .map(d -> d.means().get(measure))
                .orElse(null);
    }
}
