package org.netnslab.workload.soak;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's used heap after a full collection, sampled at intervals over a soak, and whether it stayed
 * flat. Flat: the least-squares line through the samples rises by at most {@link #TOLERANCE_BYTES}
 * plus {@link #TOLERANCE_SHARE} of the first sample over the sampled span (GC noise and caches that
 * settle stay inside it; a leak of a few hundred bytes per netns over thousands of rounds does not).
 * Judged from 3 samples on; with fewer, never called not flat. Runner thread only.
 */
final class HeapSamples {
    /** Absolute part of the tolerance: 16 MiB. */
    static final long TOLERANCE_BYTES = 16L << 20;
    /** Relative part of the tolerance: 10 % of the first sample. */
    static final double TOLERANCE_SHARE = 0.10;

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final List<double[]> samples = new ArrayList<>(); // {seconds, bytes}
    private final long startNanos;
    private final long intervalNanos;
    private long lastNanos = Long.MIN_VALUE;

    /**
     * @param startNanos the soak's start, {@link System#nanoTime()}
     * @param intervalNanos least time between two samples, ns
     */
    HeapSamples(long startNanos, long intervalNanos) {
        this.startNanos = startNanos;
        this.intervalNanos = intervalNanos;
    }

    /**
     * Samples if the interval has passed since the last sample (or {@code force}).
     *
     * @param force sample whatever the interval
     */
    void maybeSample(boolean force) {
        long now = System.nanoTime();
        if (!force && lastNanos != Long.MIN_VALUE && now - lastNanos < intervalNanos) {
            return;
        }
        System.gc(); // the used heap after a full collection: what the run keeps alive
        long used = memory.getHeapMemoryUsage().getUsed();
        lastNanos = now;
        record((now - startNanos) / 1e9, used);
    }

    /**
     * @param seconds since the soak's start
     * @param bytes the used heap then
     */
    void record(double seconds, long bytes) {
        samples.add(new double[] {seconds, bytes});
    }

    int count() {
        return samples.size();
    }

    long first() {
        return samples.isEmpty() ? 0 : (long) samples.get(0)[1];
    }

    long last() {
        return samples.isEmpty() ? 0 : (long) samples.get(samples.size() - 1)[1];
    }

    long max() {
        return (long) samples.stream().mapToDouble(s -> s[1]).max().orElse(0);
    }

    /** @return the least-squares slope, bytes per minute; 0 with fewer than 2 samples */
    long slopePerMinute() {
        int n = samples.size();
        if (n < 2) {
            return 0;
        }
        double mx = samples.stream().mapToDouble(s -> s[0]).average().orElse(0);
        double my = samples.stream().mapToDouble(s -> s[1]).average().orElse(0);
        double sxy = 0;
        double sxx = 0;
        for (double[] s : samples) {
            sxy += (s[0] - mx) * (s[1] - my);
            sxx += (s[0] - mx) * (s[0] - mx);
        }
        return sxx == 0 ? 0 : Math.round(sxy / sxx * 60);
    }

    /** @return the fitted growth over the sampled span, bytes (negative when it shrank) */
    long growth() {
        if (samples.size() < 2) {
            return 0;
        }
        double span = samples.get(samples.size() - 1)[0] - samples.get(0)[0];
        return Math.round(slopePerMinute() / 60.0 * span);
    }

    /** @return the tolerance for this run, bytes */
    long tolerance() {
        return TOLERANCE_BYTES + Math.round(TOLERANCE_SHARE * first());
    }

    /**
     * @return whether the heap grew beyond the tolerance, judged from 3 samples over 2 intervals or more: a shorter run
     *     is its JVM's start-up (classes, JIT code caches) more than what the soak keeps alive
     */
    boolean notFlat() {
        return samples.size() >= 3 && spanNanos() >= 2 * intervalNanos && growth() > tolerance();
    }

    /** @return from the first sample to the last, ns; 0 with fewer than 2 */
    private long spanNanos() {
        return samples.size() < 2 ? 0 : Math.round((samples.get(samples.size() - 1)[0] - samples.get(0)[0]) * 1e9);
    }
}
