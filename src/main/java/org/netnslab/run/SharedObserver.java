package org.netnslab.run;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * A {@link RunObserver} shared by the lanes of {@code run --jobs N}: passes every call on to the one it
 * wraps, one call at a time (the progress display and the interrupt line's state are not thread-safe).
 */
public final class SharedObserver implements RunObserver {
    private final RunObserver to;

    /** @param to the observer told, one call at a time */
    public SharedObserver(RunObserver to) {
        this.to = to;
    }

    @Override
    public synchronized void progress(String design, String phase, long done, long total, long elapsedNanos) {
        to.progress(design, phase, done, total, elapsedNanos);
    }

    @Override
    public synchronized void phaseStarting(String design, String phase, long total, LongSupplier done) {
        to.phaseStarting(design, phase, total, done);
    }

    @Override
    public synchronized void phaseStarting(String design, String phase, long total, LongSupplier done, String unit) {
        to.phaseStarting(design, phase, total, done, unit);
    }

    @Override
    public synchronized void phaseDone(String design, String phase, long total, long elapsedNanos) {
        to.phaseDone(design, phase, total, elapsedNanos);
    }

    @Override
    public synchronized void replicateStarting(int replicate, int of, List<String> order) {
        to.replicateStarting(replicate, of, order);
    }

    @Override
    public synchronized void designStarting(String design) {
        to.designStarting(design);
    }

    @Override
    public synchronized void designDone(String design) {
        to.designDone(design);
    }

    @Override
    public synchronized void runsStarting(int runs, int lanes) {
        to.runsStarting(runs, lanes);
    }

    @Override
    public synchronized void runsPlanned(int runs) {
        to.runsPlanned(runs);
    }
}
