package org.netnslab.workload.injection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.RunResult;
import org.netnslab.report.ConsoleReport;
import org.netnslab.report.RunRecord;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A load whose injections the capability rule refuses, every one: each design counts them ({@code refused_eperm}),
 * and the comparison says there is no figure, not that the designs are alike or a ratio of NaN.
 */
public class RefusedInjectionsTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @ClassRule
    public static final VirtualRuns RUNS = new VirtualRuns("refused-injections");

    @Test
    public void everyInjectionRefusedIsCountedAndGetsNoRatio() throws Exception {
        RunResult r = RUNS.run(
                tmp,
                String.join(
                        "\n",
                        "name = all-refused",
                        "description = \"init-owned netns, injectors without CAP_SYS_ADMIN\"",
                        "seed = none",
                        "workload {",
                        "  type = uevent-injection",
                        "  netns { userns-owned = 0, init-owned = 3 }",
                        "  injectors-privileged = false",
                        "  injections-per-netns = 100",
                        "  injectors = 3",
                        "}",
                        "designs = [\"kernel-4.18\", \"per-netns-2018\"]",
                        "baseline = \"kernel-4.18\"",
                        ""));
        for (var d : r.designs()) {
            assertEquals(d.name(), 0, d.recorders().get("uevent.transaction").count());
            assertEquals(d.name(), Long.valueOf(300), d.counters().get("refused_eperm"));
            assertEquals(
                    d.name(),
                    0,
                    d.invariants()
                            .get(
                                    org.netnslab.metrics.Invariants.Counter
                                            .EPERM)); // refused as the rule says: no violation
        }
        String console = ConsoleReport.render(RunRecord.of(r, RunRecord.Machine.current()));
        String none = "uevent.transaction: kernel-4.18 and per-netns-2018 recorded no uevent.transaction (count 0), so"
                + " per-netns-2018 / kernel-4.18 has no figure: every such request failed or none was made (see each"
                + " design's counters: refused_eperm counts the injections the capability rule refused)";
        assertTrue(console, console.contains("  " + none + ".\n"));
        assertTrue(console, console.contains("\n" + none + "\n"));
        assertFalse(console, console.contains("NaN"));
        assertFalse(console, console.contains("gave identical mean"));
    }
}
