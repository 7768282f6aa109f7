package org.netnslab.run;

/**
 * Told how a run progresses, for a progress display. Called from the runner's thread; with
 * {@code run --jobs N} (N &gt; 1) from every lane's thread, through a {@link SharedObserver} that
 * calls one method at a time, each design run then named by its label (key, replicate, sample).
 */
public interface RunObserver {
    /**
     * @param design the design running
     * @param phase what it is doing, e.g. "warm-up" or "counted"
     * @param done transactions done so far in the phase (a timed phase: its unit's)
     * @param total transactions the phase will do (a timed phase: its length)
     * @param elapsedNanos time since the phase started, ns
     */
    void progress(String design, String phase, long done, long total, long elapsedNanos);

    /**
     * Called before a phase starts (before its first {@link #progress}): what it will do.
     *
     * @param design the design running
     * @param phase the phase starting
     * @param total transactions the phase will do
     * @param done counts the phase's transactions done so far; thread-safe, may be read from any thread
     */
    default void phaseStarting(String design, String phase, long total, java.util.function.LongSupplier done) {}

    /**
     * As {@link #phaseStarting(String, String, long, java.util.function.LongSupplier)}, for a phase counted in a unit
     * of its own rather than in transactions: a soak's wall time in seconds ({@link Phases#timed}).
     *
     * @param design the design running
     * @param phase the phase starting
     * @param total the phase's length in {@code unit}
     * @param done how much of it has passed; thread-safe, may be read from any thread
     * @param unit what total and done count, e.g. {@code s}
     */
    default void phaseStarting(
            String design, String phase, long total, java.util.function.LongSupplier done, String unit) {
        phaseStarting(design, phase, total, done);
    }

    /**
     * @param design the design
     * @param phase the phase that finished
     * @param total transactions it did
     * @param elapsedNanos its wall time, ns
     */
    void phaseDone(String design, String phase, long total, long elapsedNanos);

    /**
     * Called before each replicate of a run starts.
     *
     * @param replicate the replicate, from 1
     * @param of how many the run has
     * @param order the designs' names in the order this replicate runs them
     */
    default void replicateStarting(int replicate, int of, java.util.List<String> order) {}

    /**
     * Called before anything of the design's run is spawned.
     *
     * @param design the design about to run
     */
    default void designStarting(String design) {}

    /**
     * Called once the design's run is over and every actor it spawned has stopped.
     *
     * @param design the design that ran
     */
    default void designDone(String design) {}

    /**
     * Called once before design runs start side by side ({@code --jobs N}, N &gt; 1): no
     * {@link #replicateStarting} follows, and designs are named by their labels (e.g.
     * {@code kernel-4.18, replicate 2/4}).
     *
     * @param runs design runs to do
     * @param lanes how many run at once
     */
    default void runsStarting(int runs, int lanes) {}

    /**
     * Called once before this process's design runs start, one lane or several: how many there are, for a
     * time-left estimate ({@link #designDone} counts them).
     *
     * @param runs design runs to do here
     */
    default void runsPlanned(int runs) {}

    /** Shows nothing. */
    RunObserver SILENT = new RunObserver() {
        @Override
        public void progress(String design, String phase, long done, long total, long elapsedNanos) {}

        @Override
        public void phaseDone(String design, String phase, long total, long elapsedNanos) {}
    };
}
