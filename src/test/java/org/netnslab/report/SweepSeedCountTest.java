package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A CPU sweep judges the seed's ratio at one count only, the one the scenario runs at without the sweep: the seed's
 * figure is of one machine. At 2 CPUs per-netns-2018's mean is a third of kernel-4.18's, at 64 CPUs 0.82 of it, and
 * the seed says 0.8: a sweep over 2 and 64 agrees (it was judged at 64), one over 2 and 4 judges nothing and says
 * why, and a file saved before the count was recorded is judged at every count as it was.
 */
public class SweepSeedCountTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static RunResult sweep(List<Integer> counts, Integer seedCpus) {
        List<DesignResult> designs = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        for (int n : counts) {
            DesignResult a = TinyRun.design("kernel-4.18@" + n + "cpu", 50_000, 0, 12_345_678);
            DesignResult b = TinyRun.design("per-netns-2018@" + n + "cpu", n == 64 ? 40_550 : 15_000, 0, 3_456_789);
            designs.add(a);
            designs.add(b);
            comparisons.add(Comparison.of("uevent.transaction", a, b));
        }
        return TinyRun.run(
                1.0,
                designs,
                comparisons,
                Map.of("per-netns-2018", 0.8),
                List.of(),
                List.of(),
                new RunResult.ExecutionInfo("virtual", counts, true, 0.1, 1, null, null, seedCpus));
    }

    private static Verdict verdict(RunResult r) {
        return Verdict.of(RunRecord.of(r, TinyRun.MACHINE));
    }

    @Test
    public void theSeedIsJudgedAtTheScenariosOwnCountOnly() {
        Verdict v = verdict(sweep(List.of(2, 64), 64));
        String line = v.lines().get(0).text();
        assertTrue(line, line.contains("2: 0.332 (67% lower); 64: 0.820 (18% lower)"));
        assertTrue(
                line,
                line.endsWith(". Seed 0.80 at 64 CPUs (the count the scenario runs at without the sweep: the seed's"
                        + " figure is of one machine): AGREES within +-0.05."));
        assertEquals(Boolean.TRUE, v.lines().get(0).agrees());
        assertNull("2 CPUs is not the seed's machine", v.checked().get(0).agrees());
        assertEquals(Boolean.TRUE, v.checked().get(1).agrees());
        assertTrue(v.passes());
    }

    @Test
    public void aSweepWithoutTheOwnCountJudgesNothingAndSaysWhy() {
        Verdict v = verdict(sweep(List.of(2, 4), 64));
        String line = v.lines().get(0).text();
        assertTrue(
                line,
                line.endsWith(". Seed 0.80: not judged (the seed's figure is of one machine, the 64 CPUs the scenario"
                        + " runs at without the sweep, a count not swept)."));
        assertNull(v.lines().get(0).agrees());
        assertTrue(v.passes());

        String listed = verdict(sweep(List.of(2, 4), 0)).lines().get(0).text();
        assertTrue(
                listed,
                listed.endsWith(". Seed 0.80: not judged (the scenario lists its CPU counts itself and the seed's"
                        + " figure is of one machine; to judge it, write the file's machine.cpus as one count (a number, not"
                        + " a list) and sweep with --sweep machine.cpus=A,B)."));
    }

    @Test
    public void aSweepSavedBeforeTheCountWasRecordedIsJudgedAtEveryCount() {
        Verdict v = verdict(sweep(List.of(2, 64), null));
        String line = v.lines().get(0).text();
        assertTrue(line, line.contains(". Seed 0.80: DISAGREES at 2 CPUs (why: the seed's figure is of its own"));
        assertFalse(v.passes());
    }

    /** One count set by --set, not the scenario's: the seed is not judged there either, and says why. */
    @Test
    public void aRunAtAnotherCountThanTheScenariosDoesNotJudgeTheSeed() {
        DesignResult a = TinyRun.design("kernel-4.18", 50_000, 0, 12_345_678);
        DesignResult b = TinyRun.design("per-netns-2018", 15_000, 0, 3_456_789);
        RunResult r = TinyRun.run(
                1.0,
                List.of(a, b),
                List.of(Comparison.of("uevent.transaction", a, b)),
                Map.of("per-netns-2018", 0.8),
                List.of("machine.cpus=2"),
                List.of(new RunResult.DerivedRatio("busy(exit) / busy(all)", 0.4, 0.35)),
                new RunResult.ExecutionInfo("virtual", List.of(2), false, 0.1, 1, null, null, 64));
        Verdict v = verdict(r);
        String line = v.checked().get(0).text();
        assertTrue(
                line,
                line.endsWith("; seed 0.80: not judged (the seed's figure is of one machine, the 64 CPUs the scenario"
                        + " runs at; this run has 2 (--set machine.cpus))."));
        assertNull(v.checked().get(0).agrees());
        assertEquals(
                "busy(exit) / busy(all) = 0.400; seed 0.35: not judged (the seed's figure is of one machine, the 64"
                        + " CPUs the scenario runs at; this run has 2 (--set machine.cpus)).",
                v.checked().get(1).text());
        assertTrue(v.passes());
    }

    /** A count whose replicates' interval holds 1 names no winner there, as a single run's verdict line does. */
    @Test
    public void aCountWhoseIntervalHolds1NamesNoWinner() {
        List<DesignResult> designs = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        long[][] at2 = {{50_000, 40_000}, {47_000, 70_000}, {53_000, 62_000}}; // means 50,000 and 57,333
        for (int n : List.of(2, 64)) {
            List<DesignResult> as = new ArrayList<>();
            List<DesignResult> bs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                as.add(TinyRun.design("kernel-4.18@" + n + "cpu", n == 2 ? at2[i][0] : 50_000 + i, 0, 1_000_000));
                bs.add(TinyRun.design("per-netns-2018@" + n + "cpu", n == 2 ? at2[i][1] : 41_000 + i, 0, 1_000_000));
            }
            designs.add(DesignResult.merge(as));
            designs.add(DesignResult.merge(bs));
            comparisons.add(Comparison.of("uevent.transaction", as, bs));
        }
        RunResult r = TinyRun.run(
                1.0,
                designs,
                comparisons,
                Map.of(),
                List.of(),
                List.of(),
                new RunResult.ExecutionInfo("virtual", List.of(2, 64), true, 0.1, 1, null, null, 64));
        String line = verdict(r).lines().get(0).text();
        assertTrue(
                line,
                line.contains("2: 1.140 (no winner: its interval over 3 replicates holds 1); 64: 0.828 (17% lower)"));
    }

    @Test
    public void theCountIsSavedAndReadBack() throws Exception {
        Path dir = tmp.newFolder("run").toPath();
        RunResult r = sweep(List.of(2, 64), 64);
        RunRecord written = ResultsFolder.write(r, null, dir);
        RunRecord back = ResultsFolder.read(dir);
        assertEquals(Integer.valueOf(64), back.execution().seedCpus());
        assertEquals(Verdict.of(written).lines(), Verdict.of(back).lines());
    }
}
