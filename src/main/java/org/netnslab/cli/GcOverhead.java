package org.netnslab.cli;

/**
 * A garbage-collection overhead limit for any collector: the heap counts as exhausted when, over the last
 * {@link #WINDOW_NANOS} of wall time, collection pauses took at least {@link #GC_SHARE} of it and the heap never fell
 * below {@link #HEAP_SHARE} of its maximum. The parallel collector throws "GC overhead limit exceeded" in that state;
 * G1, the JVM's default (what {@code NETNS_LAB_JAVA_OPTS} without a collector gets), has no such limit: it collects
 * for as long as each full collection frees a little, the run barely moves, and a signal cannot be handled (the JVM
 * cannot create the handler's thread). Fed one sample per watchdog tick, from one thread; allocates nothing.
 */
final class GcOverhead {
    /** The window judged, wall time, ns. */
    static final long WINDOW_NANOS = 20_000_000_000L;
    /** The share of the window spent in collection pauses that counts as exhausted. */
    static final double GC_SHARE = 0.95;
    /** The share of the maximum heap in use below which the heap is not exhausted, whatever the collector does. */
    static final double HEAP_SHARE = 0.75;

    private static final int SAMPLES = 128; // ticks of 250 ms: 32 s
    private final long[] wallNanos = new long[SAMPLES];
    private final long[] gcMillis = new long[SAMPLES];
    private final boolean[] heapFull = new boolean[SAMPLES];
    private int count;

    /**
     * @param wall {@link System#nanoTime()} now
     * @param gcMillisTotal the collectors' pause time since the JVM started, ms
     * @param full whether the heap in use is at least {@link #HEAP_SHARE} of its maximum now (or could not be read
     *     for lack of heap)
     */
    void sample(long wall, long gcMillisTotal, boolean full) {
        int i = count++ % SAMPLES;
        wallNanos[i] = wall;
        gcMillis[i] = gcMillisTotal;
        heapFull[i] = full;
    }

    /** @return whether the last window's samples show the heap exhausted */
    boolean exhausted() {
        if (count < 2) {
            return false;
        }
        int last = (count - 1) % SAMPLES;
        for (int back = 0; back < Math.min(count, SAMPLES); back++) {
            int i = (count - 1 - back) % SAMPLES;
            if (!heapFull[i]) {
                return false; // the heap had room within the window
            }
            long span = wallNanos[last] - wallNanos[i];
            if (span >= WINDOW_NANOS) {
                return (gcMillis[last] - gcMillis[i]) * 1_000_000.0 >= GC_SHARE * span;
            }
        }
        return false; // not a whole window yet
    }
}
