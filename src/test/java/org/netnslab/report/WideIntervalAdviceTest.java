package org.netnslab.report;

import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.junit.Test;
import org.netnslab.metrics.RunResult;
import org.scalatestplus.junit.JUnitSuite;

/**
 * An interval too wide for a verdict advises more replicates, and virtual execution only to a run that is not
 * virtual already (every cluster run is virtual): a design comparison and a seed ratio across measures; a live run's
 * disagreement points to live execution.
 */
public class WideIntervalAdviceTest extends JUnitSuite {
    private static List<Verdict.Line> checked(String mode) {
        RunResult r = TinyRun.seededComparison(
                -0.450,
                2.912,
                List.of(new RunResult.DerivedRatio("wide", 1.126, 0.5, List.of(0.6, 1.652), 0.147, 2.105)),
                new RunResult.ExecutionInfo(mode, List.of(2), false, 0.1, 1, null));
        return Verdict.of(RunRecord.of(r, new RunRecord.Machine(2, "17", "2.6.21")))
                .checked();
    }

    @Test
    public void aVirtualRunIsAdvisedMoreReplicatesOnly() {
        List<Verdict.Line> lines = checked("virtual");
        assertNull(lines.get(0).agrees());
        assertTrue(
                lines.get(0).text(),
                lines.get(0)
                        .text()
                        .endsWith("; seed 0.82: no verdict (the interval is wider than the +-0.05 the seed is checked"
                                + " within: run more replicates)."));
        assertNull(lines.get(1).agrees());
        assertTrue(
                lines.get(1).text(),
                lines.get(1)
                        .text()
                        .endsWith("; seed 0.50: no verdict (the interval is wider than the +-0.10 the seed is checked"
                                + " within: run more replicates)."));
    }

    @Test
    public void aLiveRunIsAdvisedVirtualExecutionToo() {
        for (Verdict.Line l : checked("live")) {
            assertTrue(l.text(), l.text().endsWith(": run more replicates, or virtual execution)."));
        }
    }

    /** A disagreement is explained by what the run is: a live run's figures are this JVM's, not the model's shortfall. */
    @Test
    public void aLiveDisagreementPointsToLiveExecution() {
        for (String mode : List.of("virtual", "live")) {
            RunResult r = TinyRun.seededComparison(
                    0.60, 0.70, List.of(), new RunResult.ExecutionInfo(mode, List.of(2), false, 0.1, 1, null));
            String t = Verdict.of(RunRecord.of(r, new RunRecord.Machine(2, "17", "2.6.21")))
                    .checked()
                    .get(0)
                    .text();
            assertTrue(
                    t,
                    t.endsWith(
                            mode.equals("live")
                                    ? "(why: live figures are this JVM's threads and move between runs, the seed's a"
                                            + " kernel's: docs/virtual-time-and-calibration.md#live-and-virtual-time)."
                                    : "(why: " + Verdict.WHY + ")."));
        }
    }
}
