package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Figures a run cannot have: the rate of a counted phase of 0 s, and a seed ratio of 0 / 0. They are said as none
 * ("-" on the console, empty in summary.csv, null in result.json, "no figure" in the verdict), never Infinity or NaN, and
 * never judged: the run's own folder passes {@code report --check}.
 */
public class NoFigureTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    /**
     * proc-filter at 10%, unpaced, every /proc scan and pidfd call free: each monitor's phase takes 0 s of simulated
     * time, and scan(100k) / scan(8k) is 0 / 0.
     */
    @Test
    public void aPhaseOfNoTimeHasNoRateAndZeroOverZeroIsNoFigure() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("free");
        CommandLineFaultsTest.Printed run = CommandLineFaultsTest.cli(new String[] {
            "run",
            "load-tests/proc-filter.conf",
            "--scale",
            "0.1",
            "--no-progress",
            "--out",
            out.toString(),
            "--set",
            "workload.process-interval=0",
            "--set",
            "model.costs.proc.scan-entry=0",
            "--set",
            "model.costs.proc.pidfd-fork=0",
            "--set",
            "model.costs.proc.pidfd-exit=0",
            "--set",
            "designs=[proc-scan-8k, proc-scan-100k, pidfd]",
            "--set",
            "baseline=pidfd",
            "--set",
            "derived-ratios=[{ name = \"scan ratio\", seed = 10, numerator { design = proc-scan-100k, measure ="
                    + " proc.scan }, denominator { design = proc-scan-8k, measure = proc.scan } }]"
        });
        assertEquals(run.err(), 0, run.status());
        assertTrue(run.out(), run.out().contains("scan ratio: no figure (0 / 0); seed 10.00: not judged."));
        assertTrue(run.out(), run.out().contains("throughput - exits detected/s, counted phase 0.00 s"));
        assertTrue(run.out(), !run.out().contains("Infinity") && !run.out().contains("NaN"));
        List<String> csv = Files.readAllLines(out.resolve("summary.csv"));
        assertTrue(csv.toString(), csv.stream().noneMatch(l -> l.contains("Infinity") || l.contains("NaN")));
        CommandLineFaultsTest.Printed check =
                CommandLineFaultsTest.cli(new String[] {"report", out.toString(), "--check"});
        assertEquals(check.out() + check.err(), 0, check.status());
    }

    /**
     * No process exits non-zero, so the nonzero-exit listener is busy 0 ms and all / nonzero-exit divides by 0: said
     * as such, over two replicates too, with no interval and no Infinity printed.
     */
    @Test
    public void aRatioOverAZeroDenominatorSaysSo() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("zero");
        CommandLineFaultsTest.Printed run = CommandLineFaultsTest.cli(new String[] {
            "run",
            "load-tests/proc-filter.conf",
            "--scale",
            "0.01",
            "--repeat",
            "2",
            "--no-progress",
            "--out",
            out.toString(),
            "--set",
            "workload.nonzero-exit-fraction=0",
            "--set",
            "derived-ratios=[{ name = \"all over nz\", seed = 1, numerator { design = per-listener, measure ="
                    + " proc.listener_busy.all }, denominator { design = per-listener, measure ="
                    + " proc.listener_busy.nonzero-exit } }]"
        });
        assertEquals(run.err(), 0, run.status());
        assertTrue(
                run.out(), run.out().contains("all over nz: no figure (its denominator is 0); seed 1.00: not judged."));
        assertTrue(run.out(), run.out().contains("all over nz = no figure (its denominator is 0) (2 replicates)"));
        assertTrue(run.out(), !run.out().contains("Infinity") && !run.out().contains("NaN"));
        CommandLineFaultsTest.Printed check =
                CommandLineFaultsTest.cli(new String[] {"report", out.toString(), "--check"});
        assertEquals(check.out() + check.err(), 0, check.status());
    }
}
