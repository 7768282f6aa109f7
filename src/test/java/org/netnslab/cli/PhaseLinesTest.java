package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.report.ResultsFolder;
import org.scalatestplus.junit.JUnitSuite;

/** The warm-up follows --scale and is announced before it runs; proc-events runs have phase lines. */
public class PhaseLinesTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    /**
     * TC1 at --scale 0.01: 1000 netns x warmup-per-netns 100 scaled to 1 each = 1,000 warm-up injections
     * (the floor is 1,000 too), not the 100,000 it ran unscaled.
     */
    @Test
    public void aScaledRunsWarmUpIsScaledAndAnnounced() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("tc1");
        UpFrontChecksTest.Outcome o = UpFrontChecksTest.cli(
                "run",
                "load-tests/uevent-tc1-userns.conf",
                "--scale",
                "0.01",
                "--out",
                out.toString(),
                "--set",
                "designs=[kernel-6.9]",
                "--set",
                "baseline=kernel-6.9");
        assertEquals(o.stderr(), 0, o.exit());
        assertTrue(o.stderr(), o.stderr().contains("[kernel-6.9] warm-up: 1,000 to do\n"));
        int starting = o.stderr().indexOf("[kernel-6.9] warm-up: 1,000 to do");
        int done = o.stderr().indexOf("[kernel-6.9] warm-up (simulated time): 1,000 done");
        assertTrue(o.stderr(), starting >= 0 && done > starting);
        JsonNode r = new ObjectMapper()
                .readTree(out.resolve(ResultsFolder.RESULT_JSON).toFile());
        assertEquals(1000, r.at("/designs/0/counters/warmup_injections").asLong());
    }

    /**
     * A soak's phase is its wall time: 150 s at scale 1, 1.5 s at --scale 0.01, announced as it runs (in milliseconds,
     * as 1.5 s is no whole number of seconds).
     */
    @Test
    public void aSoakAnnouncesItsPhaseAsLongAsItRuns() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("soak");
        UpFrontChecksTest.Outcome o = UpFrontChecksTest.cli(
                "run",
                "load-tests/isolation-soak.conf",
                "--scale",
                "0.01",
                "--out",
                out.toString(),
                "--set",
                "designs=[kernel-4.18]");
        assertEquals(o.stderr(), 0, o.exit());
        int starting = o.stderr().indexOf("[kernel-4.18] soak: 1,500 ms to do\n");
        int done = o.stderr().indexOf("[kernel-4.18] soak: 1,500 ms done in ");
        assertTrue(o.stderr(), starting >= 0 && done > starting);
    }

    /** 8,000 processes at --scale 0.01: 80 processes, 240 events, 4 listeners: at most 960 deliveries. */
    @Test
    public void aProcEventsRunPrintsPhaseLines() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("proc");
        UpFrontChecksTest.Outcome o = UpFrontChecksTest.cli(
                "run",
                "load-tests/proc-filter.conf",
                "--scale",
                "0.01",
                "--out",
                out.toString(),
                "--set",
                "designs=[none, pidfd, proc-scan-8k]",
                "--set",
                "baseline=none");
        assertEquals(o.stderr(), 0, o.exit());
        assertTrue(o.stderr(), o.stderr().contains("[none] events: 960 to do\n"));
        assertTrue(o.stderr(), o.stderr().contains("[none] events (simulated time): 960 done in "));
        assertTrue(o.stderr(), o.stderr().contains("[pidfd] events: 160 to do\n"));
        assertTrue(o.stderr(), o.stderr().contains("[proc-scan-8k] events and scans: 240 to do\n"));
    }
}
