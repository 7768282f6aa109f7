package org.netnslab.metrics;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One measure recorded by many actors: a {@link LatencyRecorder} per recording thread (a stripe), so
 * a run with 10^3 recording actors keeps a few histograms instead of 10^3 (each is ~250 KB at ns
 * resolution up to seconds) and no record contends on a shared counter.
 *
 * <p>Shared between actors on purpose, as measurement infrastructure: each stripe is written only by
 * its own thread. {@link #merged()} must be called after every writer's last record is ordered before
 * the call (a latch the writers count down after recording, or the completion of a stream whose
 * stage recorded).
 */
public final class StripedRecorder {
    private final ConcurrentLinkedQueue<LatencyRecorder> stripes = new ConcurrentLinkedQueue<>();
    private final String unit;
    private final double perUnit;
    private final ThreadLocal<LatencyRecorder> local;

    /** Latencies: ns recorded, us reported. */
    public StripedRecorder() {
        this("us", 1000.0);
    }

    /**
     * @param unit the reported unit
     * @param perUnit recorded values per reported unit
     */
    public StripedRecorder(String unit, double perUnit) {
        this.unit = unit;
        this.perUnit = perUnit;
        this.local = ThreadLocal.withInitial(() -> {
            LatencyRecorder r = new LatencyRecorder(unit, perUnit);
            stripes.add(r);
            return r;
        });
    }

    /** @param nanos one latency in ns, recorded in the calling thread's stripe */
    public void record(long nanos) {
        local.get().record(nanos);
    }

    /** @return a new recorder holding every stripe's values */
    public LatencyRecorder merged() {
        LatencyRecorder all = new LatencyRecorder(unit, perUnit);
        stripes.forEach(all::add);
        return all;
    }
}
