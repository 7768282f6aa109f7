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
public record DesignResult(
        String name,
        Map<String, String> strategies,
        Map<String, LatencyRecorder> recorders,
        double throughputPerSec,
        String throughputUnit,
        double wallSeconds,
        Invariants invariants,
        Map<String, Long> counters,
        java.util.List<double[]> throughputSeries) {

    /** Copies the maps into unmodifiable ones that keep their order. */
    public DesignResult {
        strategies = Collections.unmodifiableMap(new LinkedHashMap<>(strategies));
        recorders = Collections.unmodifiableMap(new LinkedHashMap<>(recorders));
        counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters));
        throughputSeries = java.util.List.copyOf(throughputSeries);
    }

    /**
     * One design's results over several replicates, as one: each measure's recorders merged (so its
     * percentiles and .hgrm cover every replicate), invariants and counters summed, except the counters
     * that are a replicate's figure rather than a count ({@link #isFigure}: rates, sizes, times), which are
     * averaged, or for a peak or maximum ({@code peak_*}, {@code *_max_*}) the largest taken; throughput and
     * counted-phase time averaged, and the first replicate's throughput series (series of different
     * runs do not add up to one).
     *
     * @param replicates the design's result in each replicate, at least one, all of the same design
     * @return the merged result; the only one when there is one
     * @throws IllegalArgumentException when the list is empty or names more than one design
     */
    public static DesignResult merge(java.util.List<DesignResult> replicates) {
        if (replicates.isEmpty()
                || replicates.stream().map(DesignResult::name).distinct().count() != 1) {
            throw new IllegalArgumentException(
                    "merge needs one design's results, at least one, got " + replicates.size());
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
            d.recorders()
                    .forEach((k, v) -> recorders
                            .computeIfAbsent(k, x -> new LatencyRecorder(v.unit(), v.perUnit()))
                            .add(v));
            d.counters().forEach((k, v) -> counters.merge(k, v, Long::sum));
            invariants = invariants.plus(d.invariants());
            throughput += d.throughputPerSec();
            wall += d.wallSeconds();
        }
        int n = replicates.size();
        for (Map.Entry<String, Long> c : counters.entrySet()) {
            String k = c.getKey();
            if (k.startsWith("peak_") || k.contains("_max_")) {
                c.setValue(replicates.stream()
                        .mapToLong(d -> d.counters().getOrDefault(k, Long.MIN_VALUE))
                        .max()
                        .orElse(0));
            } else if (isFigure(k)) {
                long present = replicates.stream()
                        .filter(d -> d.counters().containsKey(k))
                        .count();
                c.setValue(Math.round((double) c.getValue() / present));
            }
        }
        return new DesignResult(
                first.name(),
                first.strategies(),
                recorders,
                throughput / n,
                first.throughputUnit(),
                wall / n,
                invariants,
                counters,
                first.throughputSeries());
    }

    /**
     * Whether a counter holds one replicate's figure, not a count of events: a rate ({@code *_per_s},
     * {@code *_per_min}), a size in bytes or KiB ({@code *_bytes}, {@code *_per_netns}, {@code *_per_listener},
     * {@code *_kib}) or a time ({@code *_us}). Such figures are averaged over replicates, not summed.
     *
     * @param counter a counter's name
     * @return true for a figure
     */
    public static boolean isFigure(String counter) {
        return counter.endsWith("_per_s")
                || counter.endsWith("_per_min")
                || counter.endsWith("_bytes")
                || counter.endsWith("_per_netns")
                || counter.endsWith("_per_listener")
                || counter.endsWith("_kib")
                || counter.endsWith("_us")
                || counter.startsWith("peak_")
                || counter.contains("_max_");
    }

    /** @return each measure's summary in us, in report order */
    public Map<String, MeasureSummary> measures() {
        Map<String, MeasureSummary> m = new LinkedHashMap<>();
        recorders.forEach((k, v) -> m.put(k, v.summary()));
        return m;
    }
}
