package org.netnslab.run;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * When each operation of a counted phase completed, on the run's clock, for a throughput series that counts what the
 * run's throughput counts when that is not the phase's own progress (netns churn: lifecycles at net_free, which come
 * after the loops' phase ends). Thread-safe: live, completions are reported from actors' threads.
 */
public final class CompletionTimes {
    /** Completions a point of the series stands for, on average, at least: fewer make a rate of noise. */
    static final int PER_POINT = 4;

    private final LongSupplier clock;
    private long[] times = new long[64];
    private int n;

    /** @param clock the run's clock, ns ({@link org.netnslab.machine.Machine#nanoTime}) */
    public CompletionTimes(LongSupplier clock) {
        this.clock = clock;
    }

    /** One operation completed now. */
    public synchronized void completed() {
        if (n == times.length) {
            times = Arrays.copyOf(times, n * 2);
        }
        times[n++] = clock.getAsLong();
    }

    /**
     * The series from {@code start} to {@code end} in equal intervals, at most {@link ThroughputMarks#MAX}/2 and about
     * {@value #PER_POINT} completions each on average (at least two): {seconds since {@code start} at the interval's
     * end, completions a second in it}. Completions outside the span are left out.
     *
     * @param start the counted phase's start, ns on the clock
     * @param end the time the run's throughput is counted to, ns, after {@code start}
     * @return the points, none when {@code end <= start}
     */
    public synchronized List<double[]> series(long start, long end) {
        List<double[]> out = new ArrayList<>();
        if (end <= start) {
            return out;
        }
        int points = Math.max(2, Math.min(ThroughputMarks.MAX / 2, n / PER_POINT));
        long[] counts = new long[points];
        double width = (double) (end - start) / points;
        for (int i = 0; i < n; i++) {
            if (times[i] >= start && times[i] <= end) {
                counts[Math.min(points - 1, (int) ((times[i] - start) / width))]++;
            }
        }
        for (int p = 0; p < points; p++) {
            out.add(new double[] {(p + 1) * width / 1e9, counts[p] / (width / 1e9)});
        }
        return out;
    }
}
