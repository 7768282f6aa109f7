package org.netnslab.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;

/**
 * A sensitivity study's outcome: for each comparison of the base run, how its ratio b/a moved over the
 * samples of the cost block, the share of samples in which the base run's conclusion still holds, and which
 * costs move the ratio most (Spearman's rank correlation of each cost's factor with the ratio over the
 * samples, commons-math3 {@link SpearmansCorrelation}). What result.json's {@code sensitivity} holds.
 *
 * @param samples how many samples ran
 * @param spread each factor's range: [1 - spread, 1 + spread]
 * @param seedBand a ratio is inside the seed's band when within seed x (1 +- seedBand)
 * @param randomSeed the seed of the Latin hypercube ({@code random-seed})
 * @param keys the costs varied, keys under {@code model.costs}
 * @param factors each sample's factor for each key, samples x keys
 * @param comparisons one entry per comparison of the base run, in its order
 */
public record SensitivityResult(
        int samples,
        double spread,
        double seedBand,
        long randomSeed,
        List<String> keys,
        List<List<Double>> factors,
        List<Entry> comparisons) {

    /** Copies the lists. */
    public SensitivityResult {
        keys = List.copyOf(keys);
        factors = factors.stream().map(List::copyOf).toList();
        comparisons = List.copyOf(comparisons);
    }

    /**
     * One comparison across the samples.
     *
     * @param measure the compared measure
     * @param a the baseline (a sweep's key, e.g. {@code kernel-4.18@8cpu})
     * @param b the design compared with it
     * @param baseRatio the base run's ratio b/a (mean of its replicates' means)
     * @param seedRatio the seed's own ratio, or null when the seed gave none
     * @param ratios each sample's ratio b/a, in sample order
     * @param conclusion the base run's conclusion: {@code b faster than a} (ratio &lt; 1), {@code b slower than a}
     *     (ratio &gt; 1) or {@code no difference} (ratio exactly 1)
     * @param holdsShare the share of samples whose ratio is on the same side of 1 as the base run's (exactly 1 for
     *     no difference)
     * @param seedBandShare the share of samples whose ratio is inside the seed's band (NaN without a seed ratio)
     * @param spearman each key's rank correlation with the ratio, largest magnitude first (NaN when either
     *     does not vary)
     */
    public record Entry(
            String measure,
            String a,
            String b,
            double baseRatio,
            Double seedRatio,
            List<Double> ratios,
            String conclusion,
            double holdsShare,
            double seedBandShare,
            Map<String, Double> spearman) {
        /** Copies the collections, keeping the map's order. */
        public Entry {
            ratios = List.copyOf(ratios);
            spearman = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(spearman));
        }
    }

    /**
     * @param base the base run's comparisons
     * @param seedRatio the seed's ratio for a comparison's design b, or null
     * @param perSample each sample's comparisons, in sample order, each list parallel to {@code base}
     * @param keys the costs varied
     * @param factors each sample's factors (samples x keys)
     * @param spread the factors' spread
     * @param seedBand the seed band
     * @param randomSeed the hypercube's seed
     * @return the study's outcome
     */
    public static SensitivityResult of(
            List<Comparison> base,
            java.util.function.Function<Comparison, Double> seedRatio,
            List<List<Comparison>> perSample,
            List<String> keys,
            double[][] factors,
            double spread,
            double seedBand,
            long randomSeed) {
        List<Entry> entries = new ArrayList<>();
        for (int c = 0; c < base.size(); c++) {
            Comparison cmp = base.get(c);
            int ci = c;
            double[] ratios =
                    perSample.stream().mapToDouble(s -> s.get(ci).ratioBOverA()).toArray();
            entries.add(entry(
                    cmp.measure(),
                    cmp.a(),
                    cmp.b(),
                    cmp.ratioBOverA(),
                    seedRatio.apply(cmp),
                    ratios,
                    keys,
                    factors,
                    seedBand));
        }
        List<List<Double>> f = java.util.Arrays.stream(factors)
                .map(row -> java.util.Arrays.stream(row).boxed().toList())
                .toList();
        return new SensitivityResult(perSample.size(), spread, seedBand, randomSeed, keys, f, entries);
    }

    /**
     * One comparison's study, derived from its ratios: the conclusion of the base run, the share of samples where it
     * holds and where the ratio is inside the seed's band, and each key's Spearman rho against the ratios. A study
     * read back is derived again from its saved ratios and factors ({@code report} checks the saved figures).
     *
     * @param r0 the base run's ratio b / a
     * @param seed the seed's ratio, or null
     * @param ratios each sample's ratio
     * @param factors each sample's factor of each key
     * @return the entry
     */
    public static Entry entry(
            String measure,
            String a,
            String b,
            double r0,
            Double seed,
            double[] ratios,
            List<String> keys,
            double[][] factors,
            double seedBand) {
        // Two designs that behave alike give exactly 1 in the base run: the conclusion is then "no difference",
        // and it holds in a sample that gives exactly 1 too (the same side of 1, counting 1 as its own side).
        double side = Math.signum(r0 - 1);
        String conclusion = side < 0 ? "b faster than a" : side > 0 ? "b slower than a" : "no difference";
        double holds = share(ratios, r -> Math.signum(r - 1) == side);
        double inBand = seed == null ? Double.NaN : share(ratios, r -> Math.abs(r / seed - 1) <= seedBand + 1e-12);
        Map<String, Double> rho = new LinkedHashMap<>();
        for (int k = 0; k < keys.size(); k++) {
            int kk = k;
            double[] x =
                    java.util.Arrays.stream(factors).mapToDouble(row -> row[kk]).toArray();
            rho.put(keys.get(k), correlation(x, ratios));
        }
        Map<String, Double> sorted = new LinkedHashMap<>();
        rho.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, Double> e) ->
                                Double.isNaN(e.getValue()) ? -1 : Math.abs(e.getValue()))
                        .reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return new Entry(
                measure,
                a,
                b,
                r0,
                seed,
                java.util.Arrays.stream(ratios).boxed().toList(),
                conclusion,
                holds,
                inBand,
                sorted);
    }

    private static double share(double[] values, java.util.function.DoublePredicate p) {
        return values.length == 0
                ? Double.NaN
                : (double) java.util.Arrays.stream(values).filter(p).count() / values.length;
    }

    /**
     * Spearman's rho over the samples whose ratio is a number (a sample whose baseline mean is 0 has none); NaN when
     * fewer than 3 are, or either side is constant.
     */
    private static double correlation(double[] x, double[] y) {
        int[] at = java.util.stream.IntStream.range(0, y.length)
                .filter(i -> !Double.isNaN(y[i]))
                .toArray();
        double[] xs = java.util.Arrays.stream(at).mapToDouble(i -> x[i]).toArray();
        double[] ys = java.util.Arrays.stream(at).mapToDouble(i -> y[i]).toArray();
        if (xs.length < 3 || constant(xs) || constant(ys)) {
            return Double.NaN;
        }
        return new SpearmansCorrelation().correlation(xs, ys);
    }

    private static boolean constant(double[] v) {
        return java.util.Arrays.stream(v).allMatch(d -> d == v[0]);
    }
}
