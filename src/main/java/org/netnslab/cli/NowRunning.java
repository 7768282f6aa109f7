package org.netnslab.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.netnslab.run.RunObserver;

/**
 * What a run is doing now, for the one line printed when it is interrupted: the scenario, the
 * replicate, the design, the phase and its progress. A {@link RunObserver} that passes everything on
 * to the progress display and keeps the latest state of each design running (several with {@code --jobs});
 * the runner's threads write it, any thread (a signal handler) may {@link #describe} it (synchronized:
 * a signal handler waits for at most one call of the display).
 */
final class NowRunning implements RunObserver {
    /**
     * One running design's state.
     *
     * @param phase the phase running, or null
     * @param total the phase's transactions
     * @param done counts the phase's transactions done so far, or null
     * @param unit what total and done count when not transactions, with a leading space (" s"), else ""
     * @param stage what is going on when no phase runs, e.g. "after phase warm-up"
     */
    private record State(String phase, long total, LongSupplier done, String unit, String stage) {}

    /** What runs: {@code scenario X}, or {@code calibrate}. */
    private final String where;

    private final RunObserver display;
    private final boolean bars;
    /** e.g. "replicate 2/5", or "" for a run of one replicate or of design runs side by side. */
    private String replicate = "";
    /** Whether a worker's lane: it runs design runs for its coordinator, whose results go back to it. */
    private boolean worker;

    /** What goes on when no design runs. */
    private String stage = "before its first design started";
    /** The designs running now, by name (several with --jobs), in the order they started. */
    private final Map<String, State> running = new LinkedHashMap<>();

    /**
     * @param scenario the scenario's name
     * @param display the progress display, told everything
     * @param bars whether the display draws bars (a line of stderr may be left unfinished)
     * @return the state of a scenario's run, said as {@code in scenario X, ...}
     */
    static NowRunning scenario(String scenario, RunObserver display, boolean bars) {
        return new NowRunning("scenario " + scenario, display, bars);
    }

    /** @return the state of a calibrate run, said as {@code in calibrate, ...}: no scenario runs there */
    static NowRunning calibrate() {
        return new NowRunning("calibrate", RunObserver.SILENT, false);
    }

    /**
     * @param coordinator the coordinator's address, as --join gives it
     * @return the state of a worker's lane, said as {@code in the run of the coordinator at X, design ...}; idle
     *     while it runs no design
     */
    static NowRunning worker(String coordinator) {
        NowRunning n = new NowRunning("the run of the coordinator at " + coordinator, RunObserver.SILENT, false);
        n.worker = true;
        return n;
    }

    private NowRunning(String where, RunObserver display, boolean bars) {
        this.where = where;
        this.display = display;
        this.bars = bars;
    }

    /** @return whether this is a worker's lane ({@link #worker}): what it runs goes back to its coordinator */
    boolean isWorker() {
        return worker;
    }

    /** @return whether this is a worker's lane that runs no design now */
    synchronized boolean idle() {
        return worker && running.isEmpty();
    }

    /** @return whether a progress bar may have left stderr's last line unfinished */
    boolean bars() {
        return bars;
    }

    /**
     * @return where the run is, e.g. {@code in scenario tc1, design kernel-4.18, phase counted, 41%
     *     (4,100 of 10,000)} (a soak's: {@code phase soak, 4% (6 of 150 s)}), or {@code in scenario tc1, design kernel-4.18, after phase warm-up}; with design
     *     runs side by side, each of them: {@code in scenario tc1, 2 design runs: design a, phase counted, 41%
     *     (...); design b, starting}
     */
    synchronized String describe() {
        StringBuilder b = new StringBuilder("in ").append(where);
        if (!replicate.isEmpty()) {
            b.append(", ").append(replicate);
        }
        if (running.isEmpty()) {
            return b.append(", ").append(stage).toString();
        }
        if (running.size() > 1) {
            b.append(", ").append(running.size()).append(" design runs:");
        }
        String sep = running.size() > 1 ? " " : ", ";
        for (Map.Entry<String, State> e : running.entrySet()) {
            State s = e.getValue();
            b.append(sep).append("design ").append(e.getKey());
            if (s.phase() != null) {
                long done = s.done().getAsLong();
                b.append(", phase ")
                        .append(s.phase())
                        .append(String.format(
                                ", %d%% (%,d of %,d%s)",
                                s.total() > 0 ? Math.min(100, done * 100 / s.total()) : 0, done, s.total(), s.unit()));
            } else {
                b.append(", ").append(s.stage());
            }
            sep = "; ";
        }
        return b.toString();
    }

    /** @param stage what the run does now that no phase runs, e.g. "writing the results" */
    synchronized void stage(String stage) {
        running.clear();
        this.stage = stage;
    }

    @Override
    public synchronized void replicateStarting(int replicate, int of, List<String> order) {
        this.replicate = of > 1 ? "replicate " + replicate + "/" + of : "";
        running.clear();
        stage = "before the replicate's first design started";
        display.replicateStarting(replicate, of, order);
    }

    @Override
    public synchronized void runsPlanned(int runs) {
        display.runsPlanned(runs);
    }

    @Override
    public synchronized void runsStarting(int runs, int lanes) {
        stage = "before its first design started";
        display.runsStarting(runs, lanes);
    }

    @Override
    public synchronized void designStarting(String design) {
        running.put(design, new State(null, 0, null, "", "starting"));
        display.designStarting(design);
    }

    @Override
    public synchronized void phaseStarting(String design, String phase, long total, LongSupplier done) {
        running.put(design, new State(phase, total, done, "", null));
        display.phaseStarting(design, phase, total, done);
    }

    @Override
    public synchronized void phaseStarting(String design, String phase, long total, LongSupplier done, String unit) {
        running.put(design, new State(phase, total, done, " " + unit, null));
        display.phaseStarting(design, phase, total, done, unit);
    }

    @Override
    public void progress(String design, String phase, long done, long total, long elapsedNanos) {
        display.progress(design, phase, done, total, elapsedNanos);
    }

    @Override
    public synchronized void phaseDone(String design, String phase, long total, long elapsedNanos) {
        State s = running.get(design);
        running.put(
                design,
                new State(null, 0, null, "", "after phase " + (s != null && s.phase() != null ? s.phase() : phase)));
        display.phaseDone(design, phase, total, elapsedNanos);
    }

    @Override
    public synchronized void designDone(String design) {
        running.remove(design);
        stage = "after design " + design;
        display.designDone(design);
    }
}
