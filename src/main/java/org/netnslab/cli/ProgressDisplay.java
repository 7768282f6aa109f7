package org.netnslab.cli;

import java.io.PrintStream;
import java.text.DecimalFormat;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.netnslab.run.RunObserver;

/**
 * Progress on stderr. On a terminal: a progress bar per phase (me.tongfei:progressbar) with the
 * design and phase, done/total, rate and ETA (a soak's phase: seconds passed of its length, no rate, the
 * time left). Elsewhere (CI logs): one line per finished phase only.
 * A run of several replicates names the replicate in both ("replicate 2/5"). With design runs side by
 * side ({@code --jobs N}): the phase lines name each run by its label, and on a terminal one status line,
 * redrawn in place, shows every running design's phase and share done. Called one call at a time
 * (the runner's thread, or the lanes' through a {@link org.netnslab.run.SharedObserver}).
 */
final class ProgressDisplay implements RunObserver {
    private final boolean bars;
    private final PrintStream err;
    /** Where the number of design runs side by side came from, e.g. {@code --jobs 4}. */
    private final String lanesFrom;

    /** A phase gets a bar once it has run this long, ns: a shorter one is over before a bar could say anything. */
    static final long BAR_AFTER_NANOS = 1_000_000_000L;

    private ProgressBar bar;
    private String barKey;
    private String replicate = "";
    private int width;
    /** Design runs side by side: their status line replaces the bars. */
    private boolean concurrent;
    /** Concurrent: each running design's phase and share, by label, in the order they started. */
    private final java.util.Map<String, String> status = new java.util.LinkedHashMap<>();
    /** Concurrent: whether the status line is on screen (unfinished), and when it was last drawn, ns. */
    private boolean statusShown;

    private long statusDrawn;
    /** The unit of each running design's phase when it is not transactions (a soak's "s"), by design. */
    private final java.util.Map<String, String> units = new java.util.HashMap<>();

    /**
     * @param bars whether to draw bars (stderr is a terminal and progress was not turned off)
     * @param err where to write
     * @param lanesFrom where the number of design runs side by side came from ({@link Jobs#from})
     */
    ProgressDisplay(boolean bars, PrintStream err, String lanesFrom) {
        this(bars, err, lanesFrom, System::nanoTime);
    }

    /** @param clock the wall clock, ns: a test's own */
    ProgressDisplay(boolean bars, PrintStream err, String lanesFrom, java.util.function.LongSupplier clock) {
        this.bars = bars;
        this.err = err;
        this.lanesFrom = lanesFrom;
        this.clock = clock;
    }

    private final java.util.function.LongSupplier clock;

    @Override
    public void replicateStarting(int replicate, int of, java.util.List<String> order) {
        this.replicate = of > 1 ? ", replicate " + replicate + "/" + of : "";
        if (of > 1) {
            err.printf("replicate %d/%d: %s%n", replicate, of, String.join(", ", order));
        }
    }

    @Override
    public void runsStarting(int runs, int lanes) {
        concurrent = true;
        err.printf("%d design runs, %d at a time (%s)%n", runs, lanes, lanesFrom);
    }

    @Override
    public void designStarting(String design) {
        if (concurrent) {
            status.put(design, "starting");
        }
    }

    @Override
    public void runsPlanned(int runs) {
        planned = runs;
        finished = 0;
        plannedAt = clock.getAsLong();
        etaSaid = plannedAt;
    }

    @Override
    public void designDone(String design) {
        if (concurrent) {
            status.remove(design);
        }
        finished++;
        long now = clock.getAsLong();
        // a run of many design runs says, now and then, how long the rest takes at the pace so far
        if (planned >= ETA_FROM_RUNS && finished < planned && now - etaSaid >= ETA_EVERY_NANOS) {
            etaSaid = now;
            clearStatus();
            double left = (now - plannedAt) / 1e9 / finished * (planned - finished);
            err.printf(
                    "design runs: %,d of %,d done in %s; about %s left at this pace%n",
                    finished, planned, span((now - plannedAt) / 1e9), span(left));
        }
    }

    /** Design runs from which a run says its time left. */
    static final int ETA_FROM_RUNS = 8;

    /** How often it says so at most, ns of wall time. */
    static final long ETA_EVERY_NANOS = 30_000_000_000L;

    private int planned;
    private int finished;
    private long plannedAt;
    private long etaSaid;

    /** @return a wall time as a user reads it: 45 s, 12 min, 3.5 h, 6.9 days */
    static String span(double seconds) {
        if (seconds < 120) {
            return String.format(java.util.Locale.ROOT, "%.0f s", seconds);
        }
        if (seconds < 7200) {
            return String.format(java.util.Locale.ROOT, "%.0f min", seconds / 60);
        }
        return seconds < 48 * 3600
                ? String.format(java.util.Locale.ROOT, "%.1f h", seconds / 3600)
                : String.format(java.util.Locale.ROOT, "%.1f days", seconds / 86400);
    }

    @Override
    public void progress(String design, String phase, long done, long total, long elapsedNanos) {
        if (!bars) {
            return;
        }
        if (concurrent) {
            status.put(design, phase + " " + (total > 0 ? Math.min(100, done * 100 / total) : 0) + "%");
            long now = System.nanoTime();
            if (now - statusDrawn >= 250_000_000L) {
                drawStatus();
                statusDrawn = now;
            }
            return;
        }
        String key = design + " " + phase;
        if (!key.equals(barKey)) {
            closeBar();
            if (elapsedNanos < BAR_AFTER_NANOS) {
                return; // its two lines say enough, and a bar closed before its first drawing can land after them
            }
            ProgressBarBuilder b = new ProgressBarBuilder()
                    .setTaskName("[" + design + replicate + "] " + phase)
                    .setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII)
                    .setUpdateIntervalMillis(500)
                    .startsFrom(done, Duration.ofNanos(elapsedNanos)) // the phase began before its first report
                    .setConsumer(new ConsoleProgressBarConsumer(err, width()));
            String unit = units.get(design);
            bar = (unit == null
                            ? b.setRenderer(new Renderer(new DecimalFormat("#,##0")))
                            : b.setUnit(" " + unit, 1) // time passed: a speed would say nothing
                                    .setEtaFunction(st -> Optional.of(timeLeft(st.getMax(), st.getTotalElapsed()))))
                    .build();
            barKey = key;
        }
        bar.stepTo(done);
    }

    /**
     * A counted phase's time left at its rate so far: since the bar was drawn once there is progress since then,
     * else over the whole phase (a bar drawn late in a phase has none yet, and the library's own estimate is then
     * {@code ?}).
     *
     * @param st the bar's state
     * @return the time left, or empty with no progress at all yet
     */
    static Optional<Duration> eta(me.tongfei.progressbar.ProgressState st) {
        return eta(st.getStart(), st.getCurrent(), st.getMax(), st.getElapsedAfterStart(), st.getTotalElapsed());
    }

    /**
     * @param start done when the bar was drawn first
     * @param current done now
     * @param max the phase's total
     * @param sinceBar time since the bar was drawn first
     * @param sincePhase time since the phase began
     * @return the time left, or empty with no progress at all yet
     */
    static Optional<Duration> eta(long start, long current, long max, Duration sinceBar, Duration sincePhase) {
        long[] w = window(start, current, sinceBar, sincePhase);
        if (w == null) {
            return Optional.empty();
        }
        long left = Math.max(0, max - current);
        return Optional.of(Duration.ofNanos((long) ((double) w[1] * left / w[0])));
    }

    /**
     * The progress a rate is taken over: since the bar was drawn once there is progress since then, else the whole
     * phase.
     *
     * @return {done, ns it took}, or null with no progress (or no time) at all yet
     */
    static long[] window(long start, long current, Duration sinceBar, Duration sincePhase) {
        boolean recent = current > start && !sinceBar.isZero();
        long done = recent ? current - start : current;
        Duration took = recent ? sinceBar : sincePhase;
        return done <= 0 || took.isZero() ? null : new long[] {done, took.toNanos()};
    }

    /**
     * The bar's speed over {@link #window}: the library's own divides by whole seconds since the bar was drawn, so a
     * bar drawn a second into its phase said {@code ?/s} for its first second.
     */
    static final class Renderer extends me.tongfei.progressbar.DefaultProgressBarRenderer {
        private final DecimalFormat format;

        /** @param format the speed's format */
        Renderer(DecimalFormat format) {
            super(ProgressBarStyle.ASCII, "", 1, true, format, ChronoUnit.SECONDS, true, ProgressDisplay::eta);
            this.format = format;
        }

        @Override
        protected String speed(me.tongfei.progressbar.ProgressState st) {
            return speed(format, st.getStart(), st.getCurrent(), st.getElapsedAfterStart(), st.getTotalElapsed());
        }

        /** @return e.g. {@code 1,234/s}, or {@code ?/s} with no progress at all yet */
        static String speed(DecimalFormat format, long start, long current, Duration sinceBar, Duration sincePhase) {
            long[] w = window(start, current, sinceBar, sincePhase);
            return (w == null ? "?" : format.format(w[0] * 1e9 / w[1])) + "/s";
        }
    }

    /**
     * A timed phase's time left: it ends when its length has passed, whatever its progress so far (the rate a
     * bar's own estimate extrapolates from says nothing here).
     *
     * @param lengthSeconds the phase's length, s
     * @param elapsed the time passed since it started
     * @return the time left, rounded up to whole seconds, never negative
     */
    static Duration timeLeft(long lengthSeconds, Duration elapsed) {
        Duration left = Duration.ofSeconds(lengthSeconds).minus(elapsed);
        if (left.isNegative()) {
            return Duration.ZERO;
        }
        Duration whole = Duration.ofSeconds(left.getSeconds());
        return whole.equals(left) ? whole : whole.plusSeconds(1);
    }

    /** One line before each phase, so a long warm-up is seen for what it is before it runs. */
    @Override
    public void phaseStarting(String design, String phase, long total, java.util.function.LongSupplier done) {
        units.remove(design);
        starting(design, phase, total);
    }

    /** A phase counted in its own unit: a soak's seconds ({@code [kernel-4.18] soak: 150 s to do}). */
    @Override
    public void phaseStarting(
            String design, String phase, long total, java.util.function.LongSupplier done, String unit) {
        units.put(design, unit);
        starting(design, phase, total);
    }

    private void starting(String design, String phase, long total) {
        clearStatus();
        if (concurrent) {
            status.put(design, phase + " 0%");
        }
        if (total == 0) { // e.g. warmup-per-netns = 0: nothing to announce
            return;
        }
        err.printf("[%s%s] %s: %,d%s to do%n", design, replicate, phase, total, unitOf(design));
    }

    @Override
    public void phaseDone(String design, String phase, long total, long elapsedNanos) {
        if (bar != null && (design + " " + phase).equals(barKey)) {
            bar.stepTo(total);
        }
        closeBar();
        clearStatus();
        if (concurrent) {
            status.put(design, "after " + phase);
        }
        if (total == 0) {
            return;
        }
        double s = elapsedNanos / 1e9;
        if (units.containsKey(design)) { // time passed: a rate would say nothing
            err.printf("[%s%s] %s: %,d%s done in %.2f s%n", design, replicate, phase, total, unitOf(design), s);
            return;
        }
        if (s == 0) { // no time passed (a phase of no simulated time): a rate would say nothing
            err.printf("[%s%s] %s: %,d done in 0 s%n", design, replicate, phase, total);
            return;
        }
        err.printf(
                "[%s%s] %s: %,d done in %s s (%,.0f/s)%n",
                design, replicate, phase, total, org.netnslab.report.ConsoleReport.seconds(s), total / s);
    }

    /** @return " s" for a design whose phase counts seconds, "" for one that counts transactions */
    private String unitOf(String design) {
        String unit = units.get(design);
        return unit == null ? "" : " " + unit;
    }

    /** Concurrent, on a terminal: one line, redrawn in place, of every running design's phase and share. */
    private void drawStatus() {
        StringBuilder b = new StringBuilder();
        status.forEach((d, st) -> b.append(b.length() == 0 ? "" : " | ")
                .append('[')
                .append(d)
                .append("] ")
                .append(st));
        int w = width();
        String line = b.length() > w ? b.substring(0, Math.max(0, w - 3)) + "..." : b.toString();
        err.print("\r" + line + " ".repeat(Math.max(0, w - line.length())));
        err.flush();
        statusShown = true;
    }

    /** Concurrent: blanks the status line so a phase line starts at the left margin. */
    private void clearStatus() {
        if (statusShown) {
            err.print("\r" + " ".repeat(width()) + "\r");
            statusShown = false;
        }
    }

    private void closeBar() {
        if (bar != null) {
            bar.close();
            bar = null;
            barKey = null;
        }
    }

    /**
     * The bar's width: the terminal's, read once through a jline terminal that leaves the signals alone.
     * A consumer without a width asks progressbar's own terminal, and building that one registers jline's
     * SIGINT/SIGTERM handlers over {@link Stops}' (Ctrl-C during a bar then killed the JVM without its line
     * and left the temporary output folder).
     */
    private int width() {
        if (width == 0) {
            try (Terminal t = TerminalBuilder.builder()
                    .system(true)
                    .dumb(true)
                    .nativeSignals(false)
                    .build()) {
                width = t.getWidth() > 0 ? t.getWidth() - 1 : 0;
            } catch (java.io.IOException e) {
                err.println(
                        "netns-lab: terminal width unknown (" + e.getMessage() + "); progress bars 99 columns wide");
            }
            if (width <= 0) {
                width = 99;
            }
        }
        return width;
    }
}
