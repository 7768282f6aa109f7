package org.netnslab.run;

import java.util.List;

/**
 * A virtual phase's progress marks, (simulated time, operations done), for its throughput series: one every
 * {@code interval} of simulated time, the interval starting at 1 ms and doubling (every other mark dropped) whenever
 * more than {@value #MAX} are kept. So a phase of any length gives between {@value #MAX}/2 and {@value #MAX} points:
 * a 5 s phase at a small scale as many as a 500 s one, where a fixed interval gave the first a handful.
 */
final class ThroughputMarks {
    /** Most marks kept. */
    static final int MAX = 256;

    private final long[] times = new long[MAX + 2];
    private final long[] done = new long[MAX + 2];
    private int n;
    private long interval = 1_000_000;

    /** @param start the phase's start, ns of simulated time */
    ThroughputMarks(long start) {
        times[0] = start;
        n = 1;
    }

    /**
     * Marks {@code ops} done at {@code now} when an interval has passed since the last mark.
     *
     * @param now ns of simulated time
     * @param ops operations done since the phase's start
     */
    void at(long now, long ops) {
        if (now - times[n - 1] < interval) {
            return;
        }
        times[n] = now;
        done[n] = ops;
        n++;
        if (n > MAX) { // keep the start and every second mark after it, twice as far apart from now on
            int kept = 1;
            for (int i = 2; i < n; i += 2) {
                times[kept] = times[i];
                done[kept] = done[i];
                kept++;
            }
            n = kept;
            interval *= 2;
        }
    }

    /**
     * Appends the series to {@code samples}: for each mark after the start, {seconds since the start, operations per
     * second since the mark before}; the phase's end is the last point.
     *
     * @param end the phase's end, ns of simulated time
     * @param ops operations done by then
     * @param samples where the points go
     */
    void series(long end, long ops, List<double[]> samples) {
        if (end > times[n - 1]) {
            times[n] = end;
            done[n] = ops;
            n++;
        }
        for (int i = 1; i < n; i++) {
            samples.add(new double[] {
                (times[i] - times[0]) / 1e9, (done[i] - done[i - 1]) / ((times[i] - times[i - 1]) / 1e9)
            });
        }
    }
}
