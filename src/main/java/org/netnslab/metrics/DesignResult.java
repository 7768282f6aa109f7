package org.netnslab.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One design's outcome in a run.
 *
 * @param name the design's name
 * @param strategies its strategy choices, key to HOCON value
 * @param recorders each measure's merged recorder (ns), by measure name, in report order
 * @param throughputPerSec counted operations per second of the counted phase
 * @param throughputUnit what was counted, e.g. "transactions" or "netns lifecycles"
 * @param wallSeconds wall time of the counted phase, s
 * @param invariants the invariant counters
 * @param counters event counts worth reporting (grace periods, rcu_barrier calls, batches), by name
 * @param throughputSeries the counted phase's throughput over time: {seconds since its start,
 *     operations per second over the preceding interval}
 */
public record DesignResult(String name, Map<String, String> strategies, Map<String, LatencyRecorder> recorders,
    double throughputPerSec, String throughputUnit, double wallSeconds, Invariants invariants,
    Map<String, Long> counters, java.util.List<double[]> throughputSeries) {

  /** Copies the maps into unmodifiable ones that keep their order. */
  public DesignResult {
    strategies = Collections.unmodifiableMap(new LinkedHashMap<>(strategies));
    recorders = Collections.unmodifiableMap(new LinkedHashMap<>(recorders));
    counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters));
    throughputSeries = java.util.List.copyOf(throughputSeries);
  }

  /**
   * One design's results over several replicates, as one: each measure's recorders merged (so its
   * percentiles and .hgrm cover every replicate), invariants and counters summed, throughput and
   * counted-phase time averaged, and the first replicate's throughput series (series of different
   * runs do not add up to one).
   *
   * @param replicates the design's result in each replicate, at least one, all of the same design
   * @return the merged result; the only one when there is one
   * @throws IllegalArgumentException when the list is empty or names more than one design
   */
  public static DesignResult merge(java.util.List<DesignResult> replicates) {
    if (replicates.isEmpty() || replicates.stream().map(DesignResult::name).distinct().count() != 1) {
      throw new IllegalArgumentException("merge needs one design's results, at least one, got " + replicates.size());
    }
    DesignResult first = replicates.get(0);
    if (replicates.size() == 1) {
      return first;
    }
    Map<String, LatencyRecorder> recorders = new LinkedHashMap<>();
    Map<String, Long> counters = new LinkedHashMap<>();
    Invariants invariants = Invariants.NONE;
    double throughput = 0;
    double wall = 0;
    for (DesignResult d : replicates) {
      d.recorders().forEach((k, v) -> recorders.computeIfAbsent(k, x -> new LatencyRecorder(v.unit(), v.perUnit())).add(v));
      d.counters().forEach((k, v) -> counters.merge(k, v, Long::sum));
      invariants = invariants.plus(d.invariants());
      throughput += d.throughputPerSec();
      wall += d.wallSeconds();
    }
    int n = replicates.size();
    return new DesignResult(first.name(), first.strategies(), recorders, throughput / n, first.throughputUnit(),
        wall / n, invariants, counters, first.throughputSeries());
  }

  /** @return each measure's summary in us, in report order */
  public Map<String, MeasureSummary> measures() {
    Map<String, MeasureSummary> m = new LinkedHashMap<>();
    recorders.forEach((k, v) -> m.put(k, v.summary()));
    return m;
  }
}
