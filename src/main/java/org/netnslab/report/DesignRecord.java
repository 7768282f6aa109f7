package org.netnslab.report;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.MeasureSummary;

/**
 * One design's part of a {@link RunRecord}: its figures as the reports show them, no recorders.
 *
 * @param name the design's name
 * @param strategies its strategy choices, key to HOCON value, in the design's order
 * @param measures each measure's summary, in its unit, by measure name in report order
 * @param throughputPerSec counted operations per second of the counted phase
 * @param throughputUnit what was counted, e.g. "transactions"; null when read back and
 *     {@code result-extra.json} could not be read
 * @param wallSeconds wall time of the counted phase, s
 * @param invariants the invariant counters by their result.json names, in schema order
 * @param counters event counts worth reporting (grace periods, rcu_barrier calls, batches), by name
 * @param throughputSeries the counted phase's throughput over time: {seconds since its start,
 *     operations per second over the preceding interval}; empty when not saved
 * @param percentiles each measure's percentile distribution (from its {@code .hgrm}), by measure
 *     name; a measure whose file could not be read back has none
 */
public record DesignRecord(
        String name,
        Map<String, String> strategies,
        Map<String, MeasureSummary> measures,
        double throughputPerSec,
        String throughputUnit,
        double wallSeconds,
        Map<String, Long> invariants,
        Map<String, Long> counters,
        List<double[]> throughputSeries,
        Map<String, PercentileDistribution> percentiles) {

    /** Copies the maps into unmodifiable ones that keep their order. */
    public DesignRecord {
        strategies = ordered(strategies);
        measures = ordered(measures);
        invariants = ordered(invariants);
        counters = ordered(counters);
        throughputSeries = List.copyOf(throughputSeries);
        percentiles = ordered(percentiles);
    }

    /**
     * @param d a design's result from a finished run
     * @return its record; each measure's distribution is parsed from the {@code .hgrm} text the run saves
     */
    public static DesignRecord of(DesignResult d) {
        Map<String, PercentileDistribution> percentiles = new LinkedHashMap<>();
        for (Map.Entry<String, LatencyRecorder> e : d.recorders().entrySet()) {
            try {
                percentiles.put(
                        e.getKey(),
                        HgrmFiles.parse(
                                HgrmFiles.text(e.getValue()), Path.of(HgrmFiles.fileName(d.name(), e.getKey()))));
            } catch (ReportInputException ex) {
                throw new IllegalStateException("HdrHistogram wrote a distribution this reader does not parse", ex);
            }
        }
        return new DesignRecord(
                d.name(),
                d.strategies(),
                d.measures(),
                d.throughputPerSec(),
                d.throughputUnit(),
                d.wallSeconds(),
                d.invariants().asMap(),
                d.counters(),
                d.throughputSeries(),
                percentiles);
    }

    private static <K, V> Map<K, V> ordered(Map<K, V> m) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
}
