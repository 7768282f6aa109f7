package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.scenario.HeapEstimate;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioLoader;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code run --jobs N}: design runs side by side, each lane in its own actor system and engine, give the
 * figures of one lane (result.json equal but for its wall-clock fields); live execution keeps one at a time;
 * the heap check lowers N to what fits.
 */
public class JobsTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private Path run(String name, String scenario, String jobs, String... extra) {
        Path out = tmp.getRoot().toPath().resolve(name);
        List<String> args =
                new ArrayList<>(List.of("run", scenario, "--no-progress", "--out", out.toString(), "--jobs", jobs));
        args.addAll(List.of(extra));
        assertEquals(0, Main.execute(args.toArray(String[]::new)));
        return out;
    }

    /** TC1's shape, small: 3 designs x 3 replicates, 40 userns-owned netns with a listener each, 40 injectors. */
    @Test
    public void tc1WithThreeReplicatesGivesTheSameFiguresOnTwoLanesAsOnOne() throws Exception {
        String[] small = {
            "--scale",
            "0.002",
            "--repeat",
            "3",
            "--set",
            "workload.netns.userns-owned=40",
            "--set",
            "workload.injectors=40",
            "--set",
            "workload.injector-start-interval=20ms"
        };
        JsonNode one = VirtualRunTest.withoutWallClock(run("j1", "load-tests/uevent-tc1-userns.conf", "1", small));
        JsonNode two = VirtualRunTest.withoutWallClock(run("j2", "load-tests/uevent-tc1-userns.conf", "2", small));
        VirtualRunTest.assertSame("", one, two);
        assertEquals(3, one.get("replicates").size());
        assertTrue(
                "injections were counted",
                one.at("/designs/0/measures/uevent.transaction/count").asLong() > 0);
    }

    /** A CPU sweep: 2 designs x 3 counts, on three lanes (more lanes than the machine's CPUs is fine). */
    @Test
    public void aCpuSweepGivesTheSameFiguresOnThreeLanesAsOnOne() throws Exception {
        String[] sweep = {
            "--scale",
            "0.03",
            "--set",
            "execution=virtual",
            "--set",
            "workload.workers=4",
            "--set",
            "designs=[net-free-4.16, exit-barrier-4.16]",
            "--sweep",
            "machine.cpus=1,2,4"
        };
        JsonNode one = VirtualRunTest.withoutWallClock(run("s1", "load-tests/unshare-loop.conf", "1", sweep));
        JsonNode three = VirtualRunTest.withoutWallClock(run("s3", "load-tests/unshare-loop.conf", "3", sweep));
        VirtualRunTest.assertSame("", one, three);
        assertEquals(6, one.get("designs").size());
    }

    @Test
    public void liveExecutionRunsOneDesignAtATimeAndSaysSo() throws Exception {
        Scenario live =
                new ScenarioLoader().load(Path.of("load-tests/unshare-loop.conf"), List.of("execution=live"), 0.01);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            assertEquals(1, Jobs.choose(4, live, true, Long.MAX_VALUE, err));
            assertEquals(1, Jobs.choose(null, live, true, Long.MAX_VALUE, err));
        }
        String said = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(said, said.contains("--jobs 4: live execution runs one design at a time"));
        assertEquals("the default says nothing", 1, said.lines().count());
    }

    @Test
    public void theHeapCheckCountsEveryLaneAndLowersJobsToWhatFits() throws Exception {
        Scenario s = new ScenarioLoader().load(Path.of("load-tests/uevent-tc1-userns.conf"), List.of(), 0.01);
        long one = HeapEstimate.bytes(s, 1);
        long perRun = one - HeapEstimate.BASE_BYTES;
        assertTrue(perRun > 0);
        assertEquals(HeapEstimate.BASE_BYTES + 3 * perRun, HeapEstimate.bytes(s, 3));
        Scenario nine = new ScenarioLoader() // 3 designs x 3 replicates: 9 design runs
                .load(Path.of("load-tests/uevent-tc1-userns.conf"), List.of("repeat=3"), 0.01);
        long heap = HeapEstimate.bytes(s, 3) + perRun / 2; // three fit, four do not
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            assertEquals(3, Jobs.choose(8, nine, true, heap, err));
            assertEquals(8, Jobs.choose(8, nine, false, heap, err)); // heap-check = false: as asked
            assertEquals(-1, Jobs.choose(0, nine, true, heap, err));
        }
        String said = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(
                said,
                said.contains("--jobs 8: 8 design runs at once need about "
                        + HeapEstimate.mib(HeapEstimate.bytes(nine, 8))
                        + " MiB of heap, more than this JVM's usable " + (heap >> 20)
                        + " MiB; running --jobs 3"));
        assertTrue(said, said.contains("--jobs: must be in 1..1024, got 0"));
    }

    /** TC1 has 3 design runs: --jobs 8 runs 3 lanes at most, and the heap check weighs those 3, not 8. */
    @Test
    public void theHeapCheckWeighsNoMoreLanesThanThereAreDesignRuns() throws Exception {
        Scenario s = new ScenarioLoader().load(Path.of("load-tests/uevent-tc1-userns.conf"), List.of(), 0.01);
        long perRun = HeapEstimate.bytes(s, 1) - HeapEstimate.BASE_BYTES;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            assertEquals(
                    "three fit: nothing lowered",
                    8,
                    Jobs.choose(8, s, true, HeapEstimate.bytes(s, 3) + perRun / 2, err));
            assertEquals(2, Jobs.choose(8, s, true, HeapEstimate.bytes(s, 2) + perRun / 2, err));
        }
        assertEquals(
                String.format(
                        "netns-lab: --jobs 8: the 3 design runs (all there are) at once need about %d MiB of heap,"
                                + " more than this JVM's usable %d MiB; running --jobs 2 (about %d MiB)%n",
                        HeapEstimate.mib(HeapEstimate.bytes(s, 3)),
                        (HeapEstimate.bytes(s, 2) + perRun / 2) >> 20, // usable: rounded down, as validate says it
                        HeapEstimate.mib(HeapEstimate.bytes(s, 2))),
                bytes.toString(StandardCharsets.UTF_8));
    }
}
