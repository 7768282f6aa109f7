package org.netnslab.run;

/**
 * When the counted phase started, on the model's clock ({@link org.netnslab.machine.Clock#nanoTime()}), ns; messages sent before that are
 * warm-up and left out of the figures. Written once by the runner before it starts the counted phase,
 * read by listener streams (volatile).
 */
public final class PhaseClock {
    private volatile long countedFromNanos = Long.MAX_VALUE;

    /** @return the counted phase's start, {@link Long#MAX_VALUE} before it starts */
    public long countedFromNanos() {
        return countedFromNanos;
    }

    /**
     * Marks the counted phase as started now.
     *
     * @param now the run's clock ({@link org.netnslab.machine.Machine#nanoTime()}), ns
     * @return the start in ns
     */
    public long startCounted(long now) {
        countedFromNanos = now;
        return countedFromNanos;
    }
}
