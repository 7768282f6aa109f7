package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.MinScale;
import org.netnslab.metrics.RunResult;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A scenario's minimum scale ({@code min-scale}): below it the verdict judges no seed figure and gives no
 * all-clear, it says "too small a scale to compare: run at --scale >= X (why)", and {@code --check} does not fail
 * on it; at the minimum and above, the verdict is what it always was. The minimum is saved with the results, so
 * {@code report DIR} says the same.
 */
public class MinScaleVerdictTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final MinScale MIN = new MinScale(0.05, "too few injections for the lock to be contended");
    private static final String TOO_SMALL = "too small a scale to compare: run at --scale >= 0.05 (too few injections"
            + " for the lock to be contended)";
    private static final String NO_ALL_CLEAR = "too small a scale for an all-clear: run at --scale >= 0.05 (too few"
            + " injections for the lock to be contended)";

    /**
     * Two designs that keep every invariant; per-netns-2018's mean is 0.43 of kernel-4.18's where the seed says 0.8
     * (it disagrees), and a derived ratio of 0.4 beside the seed's 0.35 (it agrees).
     */
    private static RunResult run(double scale, MinScale min) {
        DesignResult a = TinyRun.design("kernel-4.18", 50_000, 0, 12_345_678);
        DesignResult b = TinyRun.design("per-netns-2018", 20_000, 0, 3_456_789);
        return run(
                scale,
                min,
                List.of(a, b),
                List.of(Comparison.of("uevent.transaction", a, b)),
                List.of(new RunResult.DerivedRatio("busy(exit) / busy(all)", 0.4, 0.35)),
                null);
    }

    private static RunResult run(
            double scale,
            MinScale min,
            List<DesignResult> designs,
            List<Comparison> comparisons,
            List<RunResult.DerivedRatio> ratios,
            RunResult.ExecutionInfo execution) {
        return new RunResult(
                "tiny",
                "a run",
                "seed",
                scale,
                Instant.parse("2026-12-05T12:00:00Z"),
                2.0,
                designs,
                comparisons,
                Map.of("per-netns-2018", 0.8),
                List.of(),
                ratios,
                TinyRun.oneReplicate(designs),
                execution,
                null,
                min);
    }

    private static Verdict verdict(RunResult r) {
        return Verdict.of(RunRecord.of(r, TinyRun.MACHINE));
    }

    @Test
    public void belowTheMinimumNoSeedFigureIsJudgedNoAllClearGivenAndTheCheckPasses() {
        Verdict v = verdict(run(0.01, MIN));
        Verdict.Line comparison = v.checked().get(0);
        assertTrue(comparison.text(), comparison.text().endsWith("; seed 0.80: " + TOO_SMALL + "."));
        assertFalse(comparison.text(), comparison.text().contains("AGREES"));
        assertNull(comparison.agrees());
        Verdict.Line derived = v.checked().get(1);
        assertEquals("busy(exit) / busy(all) = 0.400; seed 0.35: " + TOO_SMALL + ".", derived.text());
        assertNull(derived.agrees());
        assertEquals("Invariants: all held in every design; " + NO_ALL_CLEAR + ".", v.invariants());
        assertTrue("--check does not fail on what the scale cannot tell", v.passes());
    }

    @Test
    public void atTheMinimumTheVerdictJudgesAsItAlwaysDid() {
        for (MinScale min : new MinScale[] {MIN, null}) {
            Verdict v = verdict(run(0.05, min));
            Verdict.Line comparison = v.checked().get(0);
            assertTrue(
                    comparison.text(),
                    comparison
                            .text()
                            .endsWith("; model 0.43, seed 0.80: DISAGREES by more than +-0.05 (why: " + Verdict.WHY
                                    + ")."));
            assertEquals(Boolean.FALSE, comparison.agrees());
            assertEquals(
                    "busy(exit) / busy(all) = 0.400; seed 0.35: AGREES within +-0.10.",
                    v.checked().get(1).text());
            assertEquals("Invariants: all held in every design.", v.invariants());
            assertFalse(v.passes());
        }
    }

    @Test
    public void brokenInvariantsBelowTheMinimumAreStillSaidAndStillFailTheCheck() {
        RunResult r = run(0.01, MIN);
        DesignResult broke = TinyRun.design("per-netns-2018", 20_000, 7, 3_456_789);
        RunResult withBreak =
                run(r.scale(), MIN, List.of(r.designs().get(0), broke), r.comparisons(), r.ratios(), null);
        Verdict v = verdict(withBreak);
        assertTrue(
                v.invariants(), v.invariants().startsWith("Invariants: per-netns-2018 broke seqnum_out_of_order (7)"));
        assertTrue(
                v.invariants(),
                v.invariants().endsWith("; " + NO_ALL_CLEAR + "; a break NOT expected fails at any scale."));
        assertFalse("a broken invariant is a finding at any scale", v.passes());
    }

    @Test
    public void theMinimumIsSavedWithTheResultsAndTheReportSaysTheSame() throws Exception {
        Path dir = tmp.newFolder().toPath();
        RunRecord written = ResultsFolder.save(run(0.01, MIN), null, dir);
        RunRecord read = ResultsFolder.read(dir);
        assertEquals(List.of(), read.notes());
        assertEquals(MIN, read.minScale());
        assertEquals(Verdict.of(written).lines(), Verdict.of(read).lines());
        assertEquals(Verdict.of(written).invariants(), Verdict.of(read).invariants());
        JsonNode c = new ObjectMapper()
                .readTree(dir.resolve(ResultsFolder.RESULT_JSON).toFile())
                .at("/comparisons/0");
        assertTrue(c.toString(), c.get("agrees_with_seed").isNull());
        assertTrue(c.get("verdict").asText(), c.get("verdict").asText().contains(TOO_SMALL));
        JsonNode extra = new ObjectMapper()
                .readTree(dir.resolve(ResultsFolder.RESULT_EXTRA_JSON).toFile());
        assertEquals(0.05, extra.at("/min_scale/scale").doubleValue(), 0);

        Path none = tmp.newFolder().toPath();
        ResultsFolder.save(run(0.01, null), null, none);
        assertNull(ResultsFolder.read(none).minScale());
        assertFalse(new ObjectMapper()
                .readTree(none.resolve(ResultsFolder.RESULT_EXTRA_JSON).toFile())
                .has("min_scale"));
    }

    @Test
    public void aSweepBelowTheMinimumSaysSoForEachDesign() {
        RunResult r = run(0.01, MIN);
        DesignResult a = r.designs().get(0);
        DesignResult b = r.designs().get(1);
        List<Comparison> cs = List.of(
                Comparison.of("uevent.transaction", rename(a, "@1cpu"), rename(b, "@1cpu")),
                Comparison.of("uevent.transaction", rename(a, "@2cpu"), rename(b, "@2cpu")));
        RunResult sweep = run(
                r.scale(),
                MIN,
                List.of(),
                cs,
                List.of(),
                new RunResult.ExecutionInfo("virtual", List.of(1, 2), true, 0.1, 1, null));
        Verdict v = verdict(sweep);
        String line = v.lines().get(0).text();
        assertTrue(line, line.endsWith(". Seed 0.80: " + TOO_SMALL + "."));
        assertTrue(v.passes());
    }

    private static DesignResult rename(DesignResult d, String at) {
        return new DesignResult(
                d.name() + at,
                d.strategies(),
                d.recorders(),
                d.throughputPerSec(),
                d.throughputUnit(),
                d.wallSeconds(),
                d.invariants(),
                d.counters(),
                d.throughputSeries());
    }

    /** The console header writes a scale as a user does: no exponent however small, no ".0" when whole. */
    @Test
    public void theHeaderWritesTheScaleAsAUserDoes() {
        assertEquals("0.01", MinScale.text(0.01));
        assertEquals("10", MinScale.text(10.0));
        assertEquals("0.000000001", MinScale.text(1e-9));
        assertEquals("0.0001", MinScale.text(1e-4));
    }
}
