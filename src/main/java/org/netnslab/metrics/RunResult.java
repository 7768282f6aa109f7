package org.netnslab.metrics;

import java.time.Instant;
import java.util.List;

/**
 * A whole scenario run: what result.json (schema 1) holds.
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
 */
public record RunResult(String scenario, String description, String seed, double scale, Instant started,
    double wallSeconds, List<DesignResult> designs, List<Comparison> comparisons,
    java.util.Map<String, Double> seedRatios, List<String> overrides, List<DerivedRatio> ratios) {

  /**
   * A ratio the seed reported, computed the same way from the model's figures.
   *
   * @param name what is divided by what, e.g. {@code busy(fork-exit) / busy(all) in per-listener}
   * @param model the model's value
   * @param seed the seed's value
   */
  public record DerivedRatio(String name, double model, double seed) {}

  /** Copies the lists. */
  public RunResult {
    designs = List.copyOf(designs);
    comparisons = List.copyOf(comparisons);
    seedRatios = java.util.Map.copyOf(seedRatios);
    overrides = List.copyOf(overrides);
    ratios = List.copyOf(ratios);
  }
}
