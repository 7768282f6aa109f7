package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.calibrate.Tracefs;
import org.scalatestplus.junit.JUnitSuite;

/**
 * One short calibrate on this machine's kernel ({@code --quick --only lifecycle}) while other work keeps the CPUs
 * busy, with tracefs instances left as a SIGKILLed netns_probe leaves them: the run says beside its count, and in
 * calibration.json, that the machine was busy during the probes; it removes the instance whose probe is gone and
 * keeps the one whose probe still runs (root only: tracefs); and it leaves no instance of its own.
 */
public class CalibrateOnThisKernelTest extends JUnitSuite {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static final String INSTANCES = Tracefs.INSTANCES;
    private static CommandLineFaultsTest.Printed run;
    private static Path out;
    /** The instance of a probe that is gone, of one still running; null without tracefs (not root). */
    private static String dead;

    private static String live;
    private static Process liveProbe;
    private static List<String> after = List.of();

    @BeforeClass
    public static void calibrateWhileBusy() throws Exception {
        tracing();
        List<Process> burners = new ArrayList<>();
        for (int i = 0; i < (Runtime.getRuntime().availableProcessors() + 1) / 2; i++) {
            burners.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
        }
        out = TMP.getRoot().toPath().resolve("cal");
        System.setProperty(
                "netns-lab.calibrate-lock",
                TMP.getRoot().toPath().resolve("calibrate.lock").toString());
        try {
            run = CommandLineFaultsTest.cli("calibrate", "--quick", "--only", "lifecycle", "--out", out.toString());
        } finally {
            System.clearProperty("netns-lab.calibrate-lock");
            for (Process b : burners) {
                b.destroyForcibly();
                b.waitFor();
            }
        }
        if (dead != null) {
            after = Tracefs.instances();
        }
    }

    /** Leaves two instances, as a SIGKILLed netns_probe does: one whose probe is gone, one whose probe runs. */
    private static void tracing() throws Exception {
        if (!Tracefs.usable()) {
            return; // not root, or no tracefs to mount here (a container): the busy machine is still tested
        }
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        // a running "netns_probe": a program of that name (its comm), as the probe's check reads it
        Path sleeper = TMP.newFolder("bin").toPath().resolve("netns_probe");
        Files.copy(Path.of("/bin/sleep"), sleeper);
        sleeper.toFile().setExecutable(true);
        liveProbe = new ProcessBuilder(sleeper.toString(), "600").start();
        String d = "netns-lab-probe-" + gone.pid();
        String l = "netns-lab-probe-" + liveProbe.pid();
        Tracefs.run("mkdir " + INSTANCES + d + " " + INSTANCES + l + " && echo 1 > " + INSTANCES + d
                + "/events/sched/sched_switch/enable");
        dead = d;
        live = l;
    }

    @AfterClass
    public static void removeTheInstances() throws Exception {
        if (liveProbe != null) {
            liveProbe.destroyForcibly();
            liveProbe.waitFor();
        }
        if (dead != null) { // whatever the run did: nothing of the test's stays tracing
            Tracefs.run("for i in " + dead + " " + live + "; do [ -d " + INSTANCES + "$i ] && echo 0 > " + INSTANCES
                    + "$i/events/enable && rmdir " + INSTANCES + "$i; done; true");
        }
    }

    @Test
    public void theRunEnds() {
        assertEquals(run.err(), 0, run.status());
    }

    @Test
    public void aBusyMachineDuringTheProbesIsSaidBesideTheCountAndInCalibrationJson() throws Exception {
        String headline = run.out().lines().findFirst().orElse("");
        assertTrue(
                headline,
                headline.matches("(All \\d+|\\d+ of \\d+) predictions within their band on kernel \\S+, measured on a"
                        + " busy machine \\(other work took \\d+% of the CPUs over \\d+ s of probe runs.*\\): .*\\."));
        JsonNode busy = new ObjectMapper()
                .readTree(out.resolve("calibration.json").toFile())
                .path("host")
                .path("busyDuringProbes");
        assertTrue(
                busy.toString(),
                busy.path("share").asDouble() > 0.25
                        || busy.path("busiestShare").asDouble() > 0.5);
        assertTrue(busy.toString(), busy.path("seconds").asDouble() > 0);
        assertTrue(run.err(), run.err().contains("calibrate: warning: the machine was busy during the probes ("));
    }

    @Test
    public void aKilledProbesTracingIsRemovedAndARunningOnesKept() {
        Assume.assumeTrue("root, with tracefs", dead != null);
        assertFalse(after.toString(), after.contains(dead));
        assertTrue(after.toString(), after.contains(live));
        assertTrue(
                run.err(),
                run.err()
                        .contains("calibrate: removed the tracefs instance " + dead
                                + ", left tracing by a netns_probe that was killed\n"));
        // the run's own probes removed theirs: any other left is a probe's that still runs (another calibrate's)
        for (String i : after) {
            if (i.startsWith("netns-lab-probe-") && !i.equals(live)) {
                assertTrue(
                        i,
                        ProcessHandle.of(Long.parseLong(i.substring("netns-lab-probe-".length())))
                                .isPresent());
            }
        }
    }
}
