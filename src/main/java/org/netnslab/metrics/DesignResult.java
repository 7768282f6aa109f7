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
 * @param wallSeconds wall time of the counted phase, s
 * @param invariants the invariant counters
 */
public record DesignResult(String name, Map<String, String> strategies, Map<String, LatencyRecorder> recorders,
    double throughputPerSec, double wallSeconds, Invariants invariants) {

  /** Copies the maps into unmodifiable ones that keep their order. */
  public DesignResult {
    strategies = Collections.unmodifiableMap(new LinkedHashMap<>(strategies));
    recorders = Collections.unmodifiableMap(new LinkedHashMap<>(recorders));
  }

  /** @return each measure's summary in us, in report order */
  public Map<String, MeasureSummary> measures() {
    Map<String, MeasureSummary> m = new LinkedHashMap<>();
    recorders.forEach((k, v) -> m.put(k, v.summary()));
    return m;
  }
}
