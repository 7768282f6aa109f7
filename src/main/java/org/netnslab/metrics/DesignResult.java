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

  /** @return each measure's summary in us, in report order */
  public Map<String, MeasureSummary> measures() {
    Map<String, MeasureSummary> m = new LinkedHashMap<>();
    recorders.forEach((k, v) -> m.put(k, v.summary()));
    return m;
  }
}
