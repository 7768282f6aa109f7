package org.netnslab.metrics;

import java.util.List;

/**
 * Design b against design a on one measure, over the run's replicates: each replicate's mean of
 * each design, the ratio of the means of those means, Welch's test of a against b over the replicate
 * means (x = a, y = b, as R's {@code t.test(a, b)}; n = the number of replicates) and the ratio's
 * 95% interval ({@link RatioInterval}, Fieller). With one replicate there is neither test nor
 * interval: one run gives one value per design, and nothing about how far the next run's would be.
 *
 * @param measure the measure's name
 * @param a the baseline design
 * @param b the other design
 * @param meanA mean of a's replicate means, in the measure's unit
 * @param meanB mean of b's replicate means, in the measure's unit
 * @param ratioBOverA meanB / meanA
 * @param replicateMeansA a's mean in each replicate, in replicate order
 * @param replicateMeansB b's mean in each replicate, in replicate order
 * @param welch the test over replicate means, in the measure's unit; null with fewer than 2
 *     replicates or no spread at all
 * @param ratioCi the 95% interval of ratioBOverA; null with fewer than 2 replicates
 * @param sameModelNote null when the two designs differ in some model key the workload uses; else why
 *     their difference is noise, whatever its p-value (result.json: {@code designs_differ_in_used_keys})
 */
public record Comparison(
        String measure,
        String a,
        String b,
        double meanA,
        double meanB,
        double ratioBOverA,
        List<Double> replicateMeansA,
        List<Double> replicateMeansB,
        WelchTest welch,
        RatioInterval ratioCi,
        String sameModelNote) {

    /** Copies the lists. */
    public Comparison {
        replicateMeansA = List.copyOf(replicateMeansA);
        replicateMeansB = List.copyOf(replicateMeansB);
    }

    /**
     * @param note why the two designs are the same model for the workload
     * @return this comparison, marked so
     */
    public Comparison withSameModelNote(String note) {
        return new Comparison(
                measure, a, b, meanA, meanB, ratioBOverA, replicateMeansA, replicateMeansB, welch, ratioCi, note);
    }

    /** @return whether the two designs differ in some model key the workload uses */
    public boolean designsDifferInUsedKeys() {
        return sameModelNote == null;
    }

    /** @return the number of replicates compared */
    public int replicates() {
        return replicateMeansA.size();
    }

    /** @return b / a in each replicate, in replicate order (NaN where a's mean is 0) */
    public List<Double> replicateRatios() {
        return java.util.stream.IntStream.range(0, replicates())
                .mapToObj(
                        i -> replicateMeansA.get(i) == 0 ? Double.NaN : replicateMeansB.get(i) / replicateMeansA.get(i))
                .toList();
    }

    /**
     * A comparison from one run only: no test, no interval.
     *
     * @param measure the measure compared
     * @param a baseline design result
     * @param b other design result
     * @return the comparison
     */
    public static Comparison of(String measure, DesignResult a, DesignResult b) {
        return of(measure, List.of(a), List.of(b));
    }

    /**
     * @param measure the measure compared
     * @param a the baseline's result in each replicate, in replicate order
     * @param b the other design's result in each replicate, as many
     * @return the comparison
     * @throws IllegalArgumentException when the two lists differ in length or are empty
     */
    public static Comparison of(String measure, List<DesignResult> a, List<DesignResult> b) {
        if (a.isEmpty() || a.size() != b.size()) {
            throw new IllegalArgumentException(
                    "a comparison needs as many replicates of each design, at least one; got " + a.size() + " and "
                            + b.size());
        }
        return ofMeans(measure, a.get(0).name(), b.get(0).name(), means(measure, a), means(measure, b));
    }

    /**
     * The comparison its replicate means give: their means, the ratio, and with 2 replicates or more the interval and
     * (where the means spread) Welch's test, none of them over a replicate that recorded nothing (a NaN mean).
     * {@code report} derives a saved comparison again through this to check it.
     *
     * @param measure the measure compared
     * @param a the baseline design's name
     * @param b the other design's name
     * @param ma a's mean in each replicate, at least one
     * @param mb b's mean in each replicate, as many
     * @return the comparison
     */
    public static Comparison ofMeans(String measure, String a, String b, double[] ma, double[] mb) {
        double meanA = java.util.Arrays.stream(ma).average().orElseThrow();
        double meanB = java.util.Arrays.stream(mb).average().orElseThrow();
        WelchTest w = null;
        RatioInterval ci = null;
        // a replicate that recorded nothing has no mean (NaN): no test or interval over it
        if (ma.length >= 2 && Double.isFinite(meanA) && Double.isFinite(meanB)) {
            if (variance(ma) + variance(mb) > 0) {
                // with the comparison's own means: result.json writes them once and `report` rebuilds the test on them
                // (StatUtils.mean can differ from them in the last bit, enough to print another 7th digit)
                w = WelchTest.of(meanA, variance(ma), ma.length, meanB, variance(mb), mb.length);
            }
            ci = RatioInterval.fieller(ma, mb);
        }
        return new Comparison(
                measure,
                a,
                b,
                meanA,
                meanB,
                meanA == 0 ? Double.NaN : meanB / meanA,
                boxed(ma),
                boxed(mb),
                w,
                ci,
                null);
    }

    /** @return each replicate's mean of the measure, in its unit */
    private static double[] means(String measure, List<DesignResult> replicates) {
        return replicates.stream()
                .mapToDouble(d -> {
                    LatencyRecorder r = d.recorders().get(measure);
                    return r.meanNanos() / r.perUnit();
                })
                .toArray();
    }

    private static double variance(double[] v) {
        return org.apache.commons.math3.stat.StatUtils.variance(v);
    }

    private static List<Double> boxed(double[] v) {
        return java.util.Arrays.stream(v).boxed().toList();
    }
}
