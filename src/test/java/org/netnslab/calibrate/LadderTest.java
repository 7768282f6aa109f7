package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;
import org.junit.Test;
import org.netnslab.calibrate.Ladder.Kind;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The scale ladder is planned against the host's limits (a fake limits record here: no probe runs), and the unseen
 * shapes are drawn from its ranges, reproducibly from their seed.
 */
public class LadderTest extends JUnitSuite {
    private static final long NONE = HostLimits.UNLIMITED;

    /** A roomy host: 23 GiB available, pid_max 4 million, 300 tasks in use, root. */
    private static HostLimits roomy() {
        return new HostLimits(96_369, 4_194_304, 192_739, 23_000_000, 20_000, 96_369, 96_369, 300, true);
    }

    @Test
    public void aRoomyHostRunsTheWholeLadder() {
        Ladder.Plan full = Ladder.plan(false, roomy());
        assertEquals(Ladder.FULL, full.sizes());
        assertTrue(full.lowered().isEmpty());
        assertEquals(List.of(10L, 100L, 1000L, 3000L), full.sizes().get(Kind.TC1));
        assertEquals(16, full.largest(Kind.REORDER));
        assertEquals(100, full.largest(Kind.LOOPS));
        assertEquals(20_000, full.largest(Kind.LISTENERS));
        assertEquals(16_000, full.largest(Kind.SCAN));
        Ladder.Plan quick = Ladder.plan(true, roomy());
        for (Kind k : Kind.values()) { // a small and a larger size of each kind
            assertEquals(k.toString(), 2, quick.sizes().get(k).size());
        }
    }

    /**
     * The fit set's task-switch rings: every size on a roomy host; within pid_max's room as a scan's sleeping processes
     * (2000 with 300 in use leaves 1275 tasks, 1271 after the scan's four); within 2K + 16 descriptors of RLIMIT_NOFILE.
     * The ring of 2, the one the others are measured from, always runs.
     */
    @Test
    public void theRingsKeepWithinTheHostsLimits() {
        assertEquals("2,10,100,300,1000,3000", ProbeSet.ringSizes(Ladder.plan(false, roomy())));
        assertEquals("2,10,100,1000", ProbeSet.ringSizes(Ladder.plan(true, roomy())));
        HostLimits pids = new HostLimits(NONE, 2_000, NONE, 23_000_000, 20_000, NONE, NONE, 300, true);
        assertEquals("2,10,100,300,1000", ProbeSet.ringSizes(Ladder.plan(false, pids)));
        HostLimits fds = new HostLimits(NONE, 4_194_304, NONE, 23_000_000, 1_000, NONE, NONE, 300, true);
        assertEquals("2,10,100,300", ProbeSet.ringSizes(Ladder.plan(false, fds)));
        HostLimits none = new HostLimits(NONE, 4_194_304, NONE, 23_000_000, 10, NONE, NONE, 300, true);
        assertEquals("2", ProbeSet.ringSizes(Ladder.plan(false, none)));
    }

    /**
     * The exit probe runs before the idle probe: after the idle probe's thousands of sleepers exit, the same 2000 exits
     * made the per-CPU kworkers run about twenty times as often, which the exit probe's fit would charge to the exits.
     */
    @Test
    public void theExitProbeRunsBeforeTheIdleProbe() {
        for (boolean quick : new boolean[] {false, true}) {
            List<String> modes = ProbeSet.plan(Ladder.plan(quick, roomy()), List.of(), Set.of("uevent")).stream()
                    .filter(st -> st.probe().equals("uevent_probe"))
                    .map(st -> st.args()[0])
                    .toList();
            assertTrue(modes.toString(), modes.indexOf("exit") >= 0 && modes.indexOf("idle") >= 0);
            assertTrue(modes.toString(), modes.indexOf("exit") < modes.indexOf("idle"));
        }
    }

    /**
     * pid_max 20,000 with 1,000 tasks in use leaves a probe three quarters of 19,000: 14,250 tasks. The 16,000
     * sleeping processes of the largest /proc scan do not fit: that step runs at 14,000 (14,246 rounded down to two
     * digits) and says which limit lowered it; TC1 at N = 3000 (6008 tasks) still fits.
     */
    @Test
    public void aPidLimitThatBitesLowersTheLargestScan() {
        HostLimits h = new HostLimits(NONE, 20_000, 192_739, 23_000_000, 20_000, NONE, NONE, 1000, true);
        Ladder.Plan plan = Ladder.plan(false, h);
        assertEquals(List.of(2000L, 4000L, 8000L, 14_000L), plan.sizes().get(Kind.SCAN));
        assertEquals(3000, plan.largest(Kind.TC1));
        assertEquals(List.of(new Ladder.Lowered(Kind.SCAN, 16_000, 14_000, "pid_max", 20_000)), plan.lowered());
        assertEquals(
                "host limit pid_max = 20000 lowers proc-scan live processes = 16000 to 14000",
                plan.lowered().get(0).text());
        JsonNode json = CalibrationJson.ladder(plan);
        assertEquals(20_000, json.path("limits").path("pid_max").path("value").asLong());
        assertEquals(14_250, json.path("limits").path("pid_max").path("room").asLong());
        assertEquals(
                "unlimited",
                json.path("limits").path("RLIMIT_NPROC").path("value").asText());
        assertEquals("proc-scan", json.path("lowered").get(0).path("load").asText());
        assertEquals(14_000, json.path("lowered").get(0).path("planned").asLong());
        assertEquals(14_000, json.path("sizes").path("proc-scan").get(3).asLong());
    }

    /**
     * 2 GB available leaves a probe 1,000,000 KiB: 976 TC1 netns at 1 MiB each, 3906 sleeping processes at 256 KiB.
     * TC1's N = 1000 runs at 970 and N = 3000 is left out (not above 970); the scan climbs to 3900 and stops.
     */
    @Test
    public void littleMemoryLowersAndLeavesOutSteps() {
        HostLimits h = new HostLimits(NONE, 4_194_304, NONE, 2_000_000, 20_000, NONE, NONE, 300, true);
        Ladder.Plan plan = Ladder.plan(false, h);
        assertEquals(List.of(10L, 100L, 970L), plan.sizes().get(Kind.TC1));
        assertEquals(List.of(2000L, 3900L), plan.sizes().get(Kind.SCAN));
        assertEquals(Ladder.FULL.get(Kind.LISTENERS), plan.sizes().get(Kind.LISTENERS)); // one at a time
        assertEquals(
                List.of(
                        new Ladder.Lowered(Kind.TC1, 1000, 970, "MemAvailable", 2_000_000),
                        new Ladder.Lowered(Kind.TC1, 3000, 0, "MemAvailable", 2_000_000),
                        new Ladder.Lowered(Kind.SCAN, 4000, 3900, "MemAvailable", 2_000_000),
                        new Ladder.Lowered(Kind.SCAN, 8000, 0, "MemAvailable", 2_000_000),
                        new Ladder.Lowered(Kind.SCAN, 16_000, 0, "MemAvailable", 2_000_000)),
                plan.lowered());
        assertTrue(plan.lowered().get(1).text().contains(" leaves out tc1 N = 3000"));
    }

    /** RLIMIT_NPROC counts against an unprivileged calibrate only: the kernel does not enforce it for root. */
    @Test
    public void theProcessLimitBitesOnlyWithoutRoot() {
        HostLimits user = new HostLimits(4000, 4_194_304, NONE, 23_000_000, 1024, NONE, NONE, 100, false);
        // three quarters of 3900: 2925 tasks, so TC1 holds (2925 - 8) / 2 = 1458 netns
        assertEquals(
                List.of(10L, 100L, 1000L, 1400L),
                Ladder.plan(false, user).sizes().get(Kind.TC1));
        HostLimits root = new HostLimits(4000, 4_194_304, NONE, 23_000_000, 1024, NONE, NONE, 100, true);
        assertEquals(3000, Ladder.plan(false, root).largest(Kind.TC1));
    }

    @Test
    public void hostLimitsAreReadFromProcText() {
        String limits = "Limit                     Soft Limit           Hard Limit           Units     \n"
                + "Max processes             96369                96369                processes \n"
                + "Max open files            1024                 20000                files     \n"
                + "Max locked memory         unlimited            unlimited            bytes     \n";
        assertEquals(96_369, HostLimits.rlimit(limits, "Max processes", 1));
        assertEquals(20_000, HostLimits.rlimit(limits, "Max open files", 2));
        assertEquals(NONE, HostLimits.rlimit(limits, "Max locked memory", 1));
        assertEquals(NONE, HostLimits.rlimit(limits, "Max pending signals", 1));
        assertEquals(23_016_104, HostLimits.memAvailableKb("MemTotal: 24683792 kB\nMemAvailable:   23016104 kB\n"));
        assertEquals(0, HostLimits.effectiveUid("Name:\tjava\nUid:\t1000\t0\t0\t0\n"));
    }

    @Test
    public void theDrawIsReproducibleFromItsSeedAndWithinTheRanges() {
        Ladder.Plan plan = Ladder.plan(false, roomy());
        List<UnseenShapes.Shape> a = UnseenShapes.draw(42, plan);
        assertEquals(a, UnseenShapes.draw(42, plan));
        assertNotEquals(a, UnseenShapes.draw(43, plan));
        assertEquals(5, a.size());
        assertEquals(
                List.of(Kind.TC1, Kind.REORDER, Kind.LOOPS, Kind.LISTENERS, Kind.SCAN),
                a.stream().map(UnseenShapes.Shape::kind).toList());
        for (long seed = 0; seed < 200; seed++) {
            for (UnseenShapes.Shape s : UnseenShapes.draw(seed, plan)) {
                assertTrue(s.toString(), s.size() >= plan.smallest(s.kind()) && s.size() <= plan.largest(s.kind()));
                assertFalse(s + " is a ladder step", plan.sizes().get(s.kind()).contains(s.size()));
            }
        }
    }

    /** The shapes said on stderr are those that run: --only proc names no TC1 shape. */
    @Test
    public void theShapesSaidAreThoseOfThePartsRun() {
        List<UnseenShapes.Shape> shapes =
                List.of(new UnseenShapes.Shape(Kind.TC1, 13), new UnseenShapes.Shape(Kind.SCAN, 1320));
        assertEquals("proc-scan 1320", Calibration.shapesRun(shapes, java.util.Set.of("proc")));
        assertEquals("tc1 13, proc-scan 1320", Calibration.shapesRun(shapes, java.util.Set.of("uevent", "proc")));
    }

    /** A lowered ladder narrows the range its shapes are drawn from; --quick draws a small TC1 and a small scan. */
    @Test
    public void theDrawFollowsTheLadderRun() {
        HostLimits h = new HostLimits(NONE, 4_194_304, NONE, 2_000_000, 20_000, NONE, NONE, 300, true);
        Ladder.Plan plan = Ladder.plan(false, h);
        for (long seed = 0; seed < 100; seed++) {
            for (UnseenShapes.Shape s : UnseenShapes.draw(seed, plan)) {
                assertTrue(
                        s.toString(), s.size() <= (s.kind() == Kind.TC1 ? 970 : s.kind() == Kind.SCAN ? 3900 : 20_000));
            }
        }
        List<UnseenShapes.Shape> quick = UnseenShapes.draw(7, Ladder.plan(true, roomy()));
        assertEquals(
                List.of(Kind.TC1, Kind.SCAN),
                quick.stream().map(UnseenShapes.Shape::kind).toList());
        assertTrue(quick.get(0).size() > 10 && quick.get(0).size() < 100);
    }

    /** The unseen shapes run after the sets, once each, labelled as such; a part not run leaves its shapes out. */
    @Test
    public void theShapesRunLastAndOnce() {
        Ladder.Plan plan = Ladder.plan(false, roomy());
        List<UnseenShapes.Shape> shapes = UnseenShapes.draw(42, plan);
        List<ProbeSet.Step> steps = ProbeSet.plan(plan, shapes, Set.copyOf(ProbeSet.PARTS));
        List<ProbeSet.Step> unseen =
                steps.stream().filter(s -> s.set().equals("unseen")).toList();
        assertEquals(5, unseen.size());
        assertEquals(steps.subList(steps.size() - 5, steps.size()), unseen);
        assertEquals(
                12,
                steps.stream()
                        .filter(s -> s.set().equals("prediction") && s.args()[0].equals("tc1"))
                        .count()); // 4 sizes, 3 runs each
        assertEquals( // three rounds, interleaved with the scans
                List.of(
                        "1000", "4000", "8000", "20000", "1000", "4000", "8000", "20000", "1000", "4000", "8000",
                        "20000"),
                steps.stream()
                        .filter(s -> s.set().equals("prediction") && s.args()[0].equals("listeners"))
                        .map(s -> s.args()[1])
                        .toList());
        assertEquals(
                "33", // 100,000 sends over 3000 injectors
                steps.stream()
                        .filter(s -> s.args()[0].equals("tc1") && s.args()[1].equals("3000"))
                        .findFirst()
                        .orElseThrow()
                        .args()[2]);
        List<ProbeSet.Step> procOnly = ProbeSet.plan(plan, shapes, Set.of("proc"));
        assertEquals(2, procOnly.stream().filter(s -> s.set().equals("unseen")).count());
    }
}
