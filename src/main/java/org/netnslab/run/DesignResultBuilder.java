package org.netnslab.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.design.Design;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;

/**
 * Collects one design's measures, counters and invariants, in report order, into its
 * {@link DesignResult}. Not thread-safe: fill it on the runner's thread once the run is over.
 */
public final class DesignResultBuilder {
    private final Design design;
    private final Map<String, LatencyRecorder> measures = new LinkedHashMap<>();
    private final Map<String, Long> counters = new LinkedHashMap<>();
    private Invariants invariants = Invariants.NONE;
    private List<double[]> throughputSeries = List.of();

    /** @param design the design the result is for */
    public DesignResultBuilder(Design design) {
        this.design = design;
    }

    /**
     * @param name the measure's result.json name
     * @param recorder its values, ns
     * @return this builder
     */
    public DesignResultBuilder measure(String name, LatencyRecorder recorder) {
        measures.put(name, recorder);
        return this;
    }

    /**
     * @param name the counter's result.json name
     * @param value its count
     * @return this builder
     */
    public DesignResultBuilder counter(String name, long value) {
        counters.put(name, value);
        return this;
    }

    /**
     * @param invariants the invariant counters (default: all zero)
     * @return this builder
     */
    public DesignResultBuilder invariants(Invariants invariants) {
        this.invariants = invariants;
        return this;
    }

    /**
     * @param series {seconds since the counted phase started, operations per second} samples (default: none)
     * @return this builder
     */
    public DesignResultBuilder throughputSeries(List<double[]> series) {
        this.throughputSeries = series;
        return this;
    }

    /**
     * @param operations operations done in the counted phase
     * @param unit what an operation is, e.g. "transactions"
     * @param wallSeconds the counted phase's wall time, s
     * @return the result, with throughput {@code operations / wallSeconds} per second
     */
    public DesignResult build(long operations, String unit, double wallSeconds) {
        return new DesignResult(
                design.name(),
                design.strategies(),
                measures,
                wallSeconds > 0 ? operations / wallSeconds : Double.NaN, // a phase of 0 s has no rate
                unit,
                wallSeconds,
                invariants,
                counters,
                throughputSeries);
    }
}
