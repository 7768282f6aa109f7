package org.netnslab.machine;

/**
 * The model's clock: simulated time for code the {@link VirtualEngine} is running (virtual execution),
 * {@link System#nanoTime()} for code on any other thread (live execution). Model code reads time only
 * here, never from {@code System.nanoTime()}, so the same code measures the right clock in both modes.
 * Runner code outside the engine uses {@link Machine#nanoTime()}.
 */
public final class Clock {
    private static final ThreadLocal<VirtualEngine> DRIVING = new ThreadLocal<>();
    /**
     * Threads marked driving an engine now, count. While it is 0 (every live run, and a virtual run's
     * pool threads before the engine starts) {@link #nanoTime} skips the thread-local lookup, which the
     * profile of live runs showed as the top self frame. A thread always sees its own mark, so a stale
     * read by another thread only costs it the lookup, never the wrong clock.
     */
    private static final java.util.concurrent.atomic.AtomicInteger DRIVERS =
            new java.util.concurrent.atomic.AtomicInteger();

    private Clock() {}

    /** @return now, ns: the simulated clock inside a virtual engine's run, else System.nanoTime() */
    public static long nanoTime() {
        if (DRIVERS.get() == 0) {
            return System.nanoTime();
        }
        VirtualEngine e = DRIVING.get();
        return e != null ? e.now() : System.nanoTime();
    }

    /** Marks the calling thread as driving {@code engine} (null: no longer); returns the previous one. */
    static VirtualEngine drive(VirtualEngine engine) {
        VirtualEngine before = DRIVING.get();
        if (engine == null) {
            DRIVING.remove();
        } else {
            DRIVING.set(engine);
        }
        if (before == null && engine != null) {
            DRIVERS.incrementAndGet();
        } else if (before != null && engine == null) {
            DRIVERS.decrementAndGet();
        }
        return before;
    }
}
