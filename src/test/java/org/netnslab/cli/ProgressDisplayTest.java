package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class ProgressDisplayTest extends JUnitSuite {

    private static String lines(int replicates) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.ROOT); // the phase line's thousands separator
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ProgressDisplay d = new ProgressDisplay(false, err, "--jobs 2");
            d.replicateStarting(replicates, replicates, List.of("kernel-6.9", "kernel-4.18"));
            d.phaseStarting("kernel-4.18", "warm-up", 0, () -> 0); // warmup-per-netns = 0: no lines
            d.phaseDone("kernel-4.18", "warm-up", 0, 0);
            d.phaseDone("kernel-4.18", "counted", 2000, 2_000_000_000L);
        } finally {
            Locale.setDefault(before);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * A run of many design runs says, at most every 30 s, how long the rest takes at the pace so far; a run of few says
     * nothing.
     */
    @Test
    public void manyDesignRunsSayTheirTimeLeftNowAndThen() {
        long[] now = {0};
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.ROOT);
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ProgressDisplay d = new ProgressDisplay(false, err, "--jobs 1", () -> now[0]);
            d.runsPlanned(30_003);
            now[0] = 20_000_000_000L;
            d.designDone("a"); // 20 s after the start: not yet
            now[0] = 40_000_000_000L;
            d.designDone("b");
            now[0] = 50_000_000_000L;
            d.designDone("c"); // 10 s after the last line: not yet
            ProgressDisplay few = new ProgressDisplay(false, err, "--jobs 1", () -> now[0]);
            few.runsPlanned(3);
            now[0] = 100_000_000_000L;
            few.designDone("a");
        } finally {
            Locale.setDefault(before);
        }
        assertEquals(
                String.format("design runs: 2 of 30,003 done in 40 s; about 6.9 days left at this pace%n"),
                bytes.toString(StandardCharsets.UTF_8));
        assertEquals("12 min", ProgressDisplay.span(720));
        assertEquals("3.5 h", ProgressDisplay.span(12_600));
    }

    @Test
    public void phaseLinesNameTheReplicateWhenThereAreSeveral() {
        assertEquals(
                String.format("replicate 2/2: kernel-6.9, kernel-4.18%n"
                        + "[kernel-4.18, replicate 2/2] counted: 2,000 done in 2.00 s (1,000/s)%n"),
                lines(2));
    }

    @Test
    public void theLanesLineSaysWhereTheirNumberCameFrom() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            new ProgressDisplay(false, err, Jobs.from(null, 2, 2)).runsStarting(3, 2);
        }
        assertEquals(
                String.format(
                        "3 design runs, 2 at a time (the default: the available processors, 2; --jobs N sets it)%n"),
                bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    public void aSingleRunKeepsItsPhaseLinesAsTheyWere() {
        assertEquals(String.format("[kernel-4.18] counted: 2,000 done in 2.00 s (1,000/s)%n"), lines(1));
    }

    /** A phase of no simulated time has no rate: no "(0/s)". */
    @Test
    public void aPhaseOfNoTimeGivesNoRate() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.ROOT); // the decimal point
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ProgressDisplay d = new ProgressDisplay(false, err, "--jobs 1");
            d.phaseDone("kernel-4.18", "create (simulated time)", 5, 0);
            d.phaseDone("kernel-4.18", "counted (simulated time)", 4, 5_125_000); // a short one keeps three figures
        } finally {
            Locale.setDefault(before);
        }
        assertEquals(
                String.format("[kernel-4.18] create (simulated time): 5 done in 0 s%n"
                        + "[kernel-4.18] counted (simulated time): 4 done in 0.00513 s (780/s)%n"),
                bytes.toString(StandardCharsets.UTF_8));
    }

    /**
     * A counted phase's time left: at the rate since the bar was first drawn once it has progress, before that at the
     * whole phase's (a bar first drawn at 438,526 of 500,000, one second into the phase, is not a "?").
     */
    @Test
    public void aCountedPhasesTimeLeftNeedsNoProgressSinceTheBarWasDrawn() {
        assertEquals(
                java.util.Optional.of(Duration.ofNanos(140_183_250L)),
                ProgressDisplay.eta(438_526, 438_526, 500_000, Duration.ZERO, Duration.ofSeconds(1)));
        assertEquals(
                java.util.Optional.of(Duration.ofMillis(250)),
                ProgressDisplay.eta(100, 300, 400, Duration.ofMillis(500), Duration.ofSeconds(10)));
        assertEquals(java.util.Optional.empty(), ProgressDisplay.eta(0, 0, 400, Duration.ZERO, Duration.ofSeconds(1)));
    }

    /** The bar's speed over the same window: a bar drawn a second into its phase shows the phase's rate at once. */
    @Test
    public void aBarsSpeedNeedsNoProgressSinceTheBarWasDrawn() {
        java.text.DecimalFormat f = new java.text.DecimalFormat("#,##0");
        assertEquals(
                "438,526/s",
                ProgressDisplay.Renderer.speed(f, 438_526, 438_526, Duration.ofMillis(300), Duration.ofSeconds(1)));
        assertEquals(
                "400/s", ProgressDisplay.Renderer.speed(f, 100, 300, Duration.ofMillis(500), Duration.ofSeconds(10)));
        assertEquals("?/s", ProgressDisplay.Renderer.speed(f, 0, 0, Duration.ZERO, Duration.ZERO));
    }

    /** A timed phase (a soak's seconds) ends when its length has passed: its time left is that, not a rate's guess. */
    @Test
    public void aTimedPhasesTimeLeftIsItsLengthLessTheTimePassed() {
        assertEquals(Duration.ofSeconds(14), ProgressDisplay.timeLeft(15, Duration.ofMillis(1000)));
        assertEquals(Duration.ofSeconds(9), ProgressDisplay.timeLeft(15, Duration.ofMillis(6400)));
        assertEquals(Duration.ZERO, ProgressDisplay.timeLeft(15, Duration.ofMillis(15_200)));
    }

    /**
     * A phase shorter than {@link ProgressDisplay#BAR_AFTER_NANOS} gets no bar on a terminal, only its two lines (a
     * bar closed before its first drawing printed itself after the done line); a longer one gets one.
     */
    @Test
    public void aShortPhaseGetsItsTwoLinesAndNoBar() {
        assertEquals(
                "[net-free] JIT warm-up 1: 100 to do%n[net-free] JIT warm-up 1: 100 done in 0.40 s (250/s)%n"
                        .formatted(),
                onTerminal(d -> {
                    d.phaseStarting("net-free", "JIT warm-up 1", 100, () -> 0);
                    d.progress("net-free", "JIT warm-up 1", 50, 100, 300_000_000L);
                    d.phaseDone("net-free", "JIT warm-up 1", 100, 400_000_000L);
                }));
        String longer = onTerminal(d -> {
            d.phaseStarting("net-free", "loops", 100, () -> 0);
            d.progress("net-free", "loops", 50, 100, 1_500_000_000L);
            d.phaseDone("net-free", "loops", 100, 3_000_000_000L);
        });
        assertTrue(longer, longer.contains("100/100"));
    }

    /** @return what a display drawing bars (stderr a terminal), one run at a time, printed while {@code use} ran */
    private static String onTerminal(java.util.function.Consumer<ProgressDisplay> use) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            use.accept(new ProgressDisplay(true, err, "--jobs 1"));
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The soak's bar: 6 of 15 s passed, its time passed and its time left add up to the phase's 15 s. */
    @Test
    public void aSoaksBarShowsTheTimeLeftOfItsLength() {
        String text = onTerminal(d -> {
            d.phaseStarting("kernel-4.18", "soak", 15, () -> 6, "s");
            d.progress("kernel-4.18", "soak", 6, 15, 6_000_000_000L);
            d.progress("kernel-4.18", "next", 0, 10, 0); // closes the soak's bar, drawing it a last time
        });
        Matcher m = Pattern.compile("6/15 s \\(0:00:0(\\d) / 0:00:(\\d\\d?)\\)").matcher(text);
        assertTrue(text, m.find());
        assertEquals(text, 15, Integer.parseInt(m.group(1)) + Integer.parseInt(m.group(2)));
    }
}
