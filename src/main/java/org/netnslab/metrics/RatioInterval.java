package org.netnslab.metrics;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.StatUtils;

/**
 * The 95% confidence interval of a ratio of two means, mean(b) / mean(a), from two independent
 * samples of replicate means, by Fieller's theorem with unequal variances (Fieller 1954; Tamhane and
 * Logan 2004, as R's {@code mratios::ttestratio(b, a, var.equal = FALSE)} computes it): the set of
 * ratios R for which {@code mean(b) - R mean(a)} is not significantly different from 0 by a t-test
 * with Welch-Satterthwaite degrees of freedom, evaluated at the point estimate of R. Unlike the
 * delta method it is not symmetric and it is honest about a denominator that is not clearly
 * non-zero: then the set is unbounded and {@link #bounded()} is false (both bounds NaN).
 *
 * @param estimate mean(b) / mean(a)
 * @param low the lower bound, NaN when unbounded
 * @param high the upper bound, NaN when unbounded
 * @param df the degrees of freedom the t quantile used
 */
public record RatioInterval(double estimate, double low, double high, double df) {

    /** The method, as result.json and the reports name it. */
    public static final String METHOD = "fieller-welch";

    /** @return whether the interval is finite (mean(a) is clearly non-zero at the 95% level) */
    public boolean bounded() {
        return Double.isFinite(low) && Double.isFinite(high);
    }

    /**
     * @param a the baseline's replicate means, at least 2
     * @param b the other design's replicate means, at least 2
     * @return the interval of mean(b) / mean(a); unbounded (NaN bounds) when mean(a) is 0 or not clearly
     *     non-zero; a zero-width interval when both samples have no spread
     * @throws IllegalArgumentException when a sample has fewer than 2 values
     */
    public static RatioInterval fieller(double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) {
            throw new IllegalArgumentException(
                    "a ratio interval needs at least 2 replicates per design, got " + a.length + " and " + b.length);
        }
        double ma = StatUtils.mean(a);
        double mb = StatUtils.mean(b);
        double va = StatUtils.variance(a) / a.length; // squared standard errors of the means
        double vb = StatUtils.variance(b) / b.length;
        double r = mb / ma;
        if (ma == 0) {
            return new RatioInterval(r, Double.NaN, Double.NaN, Double.NaN);
        }
        double v = vb + r * r * va;
        if (v == 0) {
            return new RatioInterval(r, r, r, Double.POSITIVE_INFINITY);
        }
        // Welch-Satterthwaite df of mean(b) - R mean(a), at R = the estimate
        double df = v * v / (vb * vb / (b.length - 1) + Math.pow(r * r * va, 2) / (a.length - 1));
        double t = new TDistribution(df).inverseCumulativeProbability(0.975);
        double t2 = t * t;
        // (mb - R ma)^2 = t^2 (vb + R^2 va)  <=>  (ma^2 - t^2 va) R^2 - 2 ma mb R + (mb^2 - t^2 vb) = 0
        double lead = ma * ma - t2 * va;
        if (lead <= 0) {
            return new RatioInterval(r, Double.NaN, Double.NaN, df);
        }
        double root = t * Math.sqrt(ma * ma * vb + mb * mb * va - t2 * va * vb);
        return new RatioInterval(r, (ma * mb - root) / lead, (ma * mb + root) / lead, df);
    }
}
