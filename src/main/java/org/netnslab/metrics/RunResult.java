package org.netnslab.metrics;

import java.time.Instant;
import java.util.List;

/**
 * A whole scenario run of N replicates ({@code --repeat N}): what result.json (schema 2) holds.
 * {@link #designs} are each design's results merged over the replicates (recorders merged,
 * invariants and counters summed, throughput and counted-phase time averaged; see
 * {@link DesignResult#merge}); {@link #replicates} keep each replicate's own results, which the
 * comparisons and derived ratios are computed over.
 *
 * @param scenario the scenario's name
 * @param description its one-line description
 * @param seed the kernel thread it reproduces
 * @param scale the {@code --scale} used
 * @param started when the run started
 * @param wallSeconds the whole run's wall time, s
 * @param designs each design's result, in the scenario's order
 * @param comparisons the comparisons between designs
 * @param seedRatios the seed's own ratios to print beside the model's, by design (may be empty)
 * @param overrides the {@code --set} arguments the run was made with (the description does not show them)
 * @param ratios figures derived across measures or designs, each beside the seed's (may be empty)
 * @param replicates each replicate's results, in the order they ran (at least one)
 */
public record RunResult(String scenario, String description, String seed, double scale, Instant started,
    double wallSeconds, List<DesignResult> designs, List<Comparison> comparisons,
    java.util.Map<String, Double> seedRatios, List<String> overrides, List<DerivedRatio> ratios,
    List<Replicate> replicates) {

  /**
   * A run of one replicate: {@code designs} are its results, in the order they ran.
   *
   * @see RunResult the components
   */
  public RunResult(String scenario, String description, String seed, double scale, Instant started,
      double wallSeconds, List<DesignResult> designs, List<Comparison> comparisons,
      java.util.Map<String, Double> seedRatios, List<String> overrides, List<DerivedRatio> ratios) {
    this(scenario, description, seed, scale, started, wallSeconds, designs, comparisons, seedRatios, overrides, ratios,
        List.of(new Replicate(1, designs.stream().map(DesignResult::name).toList(), designs)));
  }

  /**
   * One replicate: every design run once more, each on a fresh model.
   *
   * @param index its number, from 1
   * @param order the designs' names in the order they ran ({@link ReplicateOrder})
   * @param designs each design's result, in the scenario's order
   */
  public record Replicate(int index, List<String> order, List<DesignResult> designs) {
    /** Copies the lists. */
    public Replicate {
      order = List.copyOf(order);
      designs = List.copyOf(designs);
    }
  }

  /**
   * A ratio the seed reported, computed the same way from the model's figures in each replicate.
   *
   * @param name what is divided by what, e.g. {@code busy(fork-exit) / busy(all) in per-listener}
   * @param model the model's value: the mean of the replicates' values
   * @param seed the seed's value
   * @param replicates the value in each replicate, in replicate order
   * @param ciLow lower bound of the 95% t interval of the mean over the replicate values (Student t,
   *     N-1 df); NaN with fewer than 2 replicates
   * @param ciHigh upper bound, likewise
   */
  public record DerivedRatio(String name, double model, double seed, List<Double> replicates, double ciLow,
      double ciHigh) {
    /** Copies the list. */
    public DerivedRatio {
      replicates = List.copyOf(replicates);
    }

    /** A ratio from one run: its one value, no interval. */
    public DerivedRatio(String name, double model, double seed) {
      this(name, model, seed, List.of(model), Double.NaN, Double.NaN);
    }

    /**
     * @param name what is divided by what
     * @param seed the seed's value
     * @param values the value in each replicate, at least one
     * @return the ratio: mean of the values, and their t interval when there are 2 or more
     */
    public static DerivedRatio over(String name, double seed, List<Double> values) {
      double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
      double mean = org.apache.commons.math3.stat.StatUtils.mean(v);
      if (v.length < 2) {
        return new DerivedRatio(name, mean, seed, values, Double.NaN, Double.NaN);
      }
      double half = new org.apache.commons.math3.distribution.TDistribution(v.length - 1)
          .inverseCumulativeProbability(0.975) * Math.sqrt(org.apache.commons.math3.stat.StatUtils.variance(v) / v.length);
      return new DerivedRatio(name, mean, seed, values, mean - half, mean + half);
    }
  }

  /** Copies the lists. */
  public RunResult {
    designs = List.copyOf(designs);
    comparisons = List.copyOf(comparisons);
    seedRatios = java.util.Map.copyOf(seedRatios);
    overrides = List.copyOf(overrides);
    ratios = List.copyOf(ratios);
    replicates = List.copyOf(replicates);
  }
}
