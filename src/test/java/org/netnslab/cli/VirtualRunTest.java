package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.RunResult;
import org.netnslab.report.ConsoleReport;
import org.netnslab.report.HtmlReport;
import org.netnslab.report.ResultJson;
import org.netnslab.report.ResultsFolder;
import org.netnslab.report.RunRecord;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Virtual runs end to end (Main run: ScenarioLoader, ScenarioRunner, ResultJson): the same scenario and seed give
 * the same result.json once its real-time fields are removed; a CPU sweep keys each design at each count and
 * compares within a count; bad --sweep arguments exit 2.
 */
public class VirtualRunTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    /** result.json's fields that hold real (wall-clock) time: the only ones two identical virtual runs differ in. */
    private static final Set<String> WALL_CLOCK = Set.of("started", "run_wall_s", "simulated_events_per_wall_s");

    /** The unshare-loop shape, small: 4 workers x 3 loops, net_mutex, setup/exit costs and RCU grace periods. */
    private Path run(String name, String... extra) throws Exception {
        Path out = tmp.getRoot().toPath().resolve(name);
        List<String> args = new ArrayList<>(List.of(
                "run",
                "load-tests/unshare-loop.conf",
                "--scale",
                "0.03",
                "--no-progress",
                "--out",
                out.toString(),
                "--set",
                "execution=virtual",
                "--set",
                "workload.workers=4",
                "--set",
                "designs=[net-free-4.16, exit-barrier-4.16]"));
        args.addAll(List.of(extra));
        assertEquals(0, Main.execute(args.toArray(String[]::new)));
        return out;
    }

    /** @return the console summary of {@code scenario} at --scale 0.01 with {@code extra}, saved in {@code name} */
    private String console(String name, String scenario, String... extra) throws Exception {
        Path out = tmp.getRoot().toPath().resolve(name);
        List<String> args = new ArrayList<>(List.of("run", scenario, "--scale", "0.01", "--no-progress", "--out"));
        args.add(out.toString());
        args.addAll(List.of(extra));
        assertEquals(0, Main.execute(args.toArray(String[]::new)));
        return ConsoleReport.render(ResultsFolder.read(out));
    }

    /**
     * A study with replicates, and one in a sweep, read back as they were written: the study's base is the first
     * replicate, and its seed band is where the seed is judged (the scenario's own 64 CPUs) only.
     */
    @Test
    public void aStudyWithReplicatesOrInASweepReadsBack() throws Exception {
        for (String[] extra : new String[][] {{"--repeat", "2"}, {"--sweep", "machine.cpus=2,64"}}) {
            Path out = tmp.getRoot().toPath().resolve("study" + extra[0]);
            List<String> args = new ArrayList<>(List.of(
                    "run",
                    "load-tests/uevent-tc1-userns.conf",
                    "--scale",
                    "0.002",
                    "--no-progress",
                    "--sensitivity",
                    "2",
                    "--out",
                    out.toString()));
            args.addAll(List.of(extra));
            assertEquals(0, Main.execute(args.toArray(String[]::new)));
            RunRecord r = ResultsFolder.read(out); // refuses what a run would not write
            for (var e : r.sensitivity().comparisons()) {
                assertEquals(
                        e.b(),
                        e.b().startsWith("per-netns-2018") && !e.b().endsWith("@2cpu") ? Double.valueOf(0.82) : null,
                        e.seedRatio());
            }
        }
    }

    static JsonNode withoutWallClock(Path dir) throws Exception {
        ObjectNode root = (ObjectNode) new ObjectMapper()
                .readTree(dir.resolve(ResultsFolder.RESULT_JSON).toFile());
        root.remove("wall_s"); // the whole run's wall time; a design's wall_s is its counted phase, simulated here
        strip(root);
        return root;
    }

    private static void strip(JsonNode n) {
        if (n instanceof ObjectNode o) {
            o.remove(WALL_CLOCK);
        }
        n.forEach(VirtualRunTest::strip);
    }

    /** Every field equal, doubles to the last bit (a Welford mean would show a change in recording order). */
    static void assertSame(String path, JsonNode a, JsonNode b) {
        if (a.isDouble() || b.isDouble()) {
            assertEquals(path, Double.doubleToLongBits(a.asDouble()), Double.doubleToLongBits(b.asDouble()));
            return;
        }
        assertEquals(path + " kind", a.getNodeType(), b.getNodeType());
        if (a.isContainerNode()) {
            assertEquals(path + " size", a.size(), b.size());
            if (a.isArray()) {
                for (int i = 0; i < a.size(); i++) {
                    assertSame(path + "[" + i + "]", a.get(i), b.get(i));
                }
            } else {
                for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    assertTrue(path + "." + e.getKey() + " missing", b.has(e.getKey()));
                    assertSame(path + "." + e.getKey(), e.getValue(), b.get(e.getKey()));
                }
            }
        } else {
            assertEquals(path, a, b);
        }
    }

    @Test
    public void sameScenarioAndSeedGiveTheSameResultJson() throws Exception {
        JsonNode a = withoutWallClock(run("a"));
        JsonNode b = withoutWallClock(run("b"));
        assertSame("", a, b);
        assertEquals("virtual", a.at("/execution/mode").asText());
        assertTrue("simulated time passed", a.at("/execution/simulated_s").asDouble() > 0);
        assertTrue("engine events ran", a.at("/execution/simulated_events").asLong() > 0);
        assertTrue(
                "net_mutex and grace periods take simulated time",
                a.at("/designs/0/measures/netns.create/mean").asDouble() > 0);
    }

    /** result.json keeps every scheduling key it ran with and says which of them had no effect. */
    @Test
    public void theSchedulingKeysWithoutEffectAreSaid() throws Exception {
        JsonNode fair = withoutWallClock(run("fair", "--set", "machine.task-group=session"));
        assertEquals("session", fair.at("/execution/machine/task_group").asText());
        assertEquals("[]", fair.at("/execution/machine/no_effect").toString());
        // base_slice_ns 0 derives the slice from the CPU count: 0.75 ms x (1 + ilog2(min(cpus, 8)))
        int cpus = fair.at("/execution/machine/cpus/0").asInt();
        assertEquals(0, fair.at("/execution/machine/base_slice_ns").asLong());
        assertEquals(
                750_000L * (1 + 31 - Integer.numberOfLeadingZeros(Math.min(cpus, 8))),
                fair.at("/execution/machine/slice_ns/0").asLong());
        JsonNode two = withoutWallClock(run("two", "--set", "machine.cpus=2"));
        assertEquals("[1500000]", two.at("/execution/machine/slice_ns").toString());
        JsonNode set = withoutWallClock(run("set", "--set", "machine.cpus=2", "--set", "machine.base-slice=3ms"));
        assertEquals("[3000000]", set.at("/execution/machine/slice_ns").toString());
        JsonNode fifo =
                withoutWallClock(run("fifo", "--set", "machine.scheduler=fifo", "--set", "machine.task-group=session"));
        assertEquals("session", fifo.at("/execution/machine/task_group").asText());
        assertEquals(
                "[\"preempt\",\"hz\",\"base_slice_ns\",\"context_switch_ns\",\"task_group\"]",
                fifo.at("/execution/machine/no_effect").toString());
        assertTrue(
                "no slice where none shaped anything",
                fifo.at("/execution/machine/slice_ns").isMissingNode());
    }

    /**
     * machine.cold-switch reaches result.json only where it adds something, and reads back as it was written.
     */
    @Test
    public void aColdSwitchIsRecordedAndReadBack() throws Exception {
        Path dir =
                run("cold", "--set", "machine.cold-switch.evicted=5us", "--set", "machine.cold-switch.cached-tasks=10");
        JsonNode cold = withoutWallClock(dir);
        assertEquals(
                "{\"base_ns\":0,\"evicted_ns\":5000,\"cached_tasks\":10}",
                cold.at("/execution/machine/cold_switch").toString());
        RunResult.SchedulingInfo s = ResultsFolder.read(dir).execution().scheduling();
        assertEquals(
                List.of(0L, 5_000L, 10L),
                List.of(s.coldSwitchBaseNanos(), s.coldSwitchEvictedNanos(), s.coldSwitchCachedTasks()));
        JsonNode warm = withoutWallClock(run("warm"));
        assertTrue(warm.at("/execution/machine/cold_switch").isMissingNode());
    }

    /**
     * machine.host-background reaches result.json only where it runs something, reads back as it was written, and
     * takes CPU from the load: with a wake-up every millisecond, some figure moves.
     */
    @Test
    public void aHostBackgroundIsRecordedReadBackAndTakesCpu() throws Exception {
        Path dir = run(
                "host",
                "--set",
                "machine.host-background.period=1ms",
                "--set",
                "machine.host-background.per-netns=1ms");
        JsonNode host = withoutWallClock(dir);
        assertEquals(
                "{\"period_ns\":1000000,\"per_netns_ns\":1000000,\"doubling_netns\":0}",
                host.at("/execution/machine/host_background").toString());
        RunResult.SchedulingInfo s = ResultsFolder.read(dir).execution().scheduling();
        assertEquals(
                List.of(1_000_000L, 1_000_000L, 0L),
                List.of(
                        s.hostBackgroundPeriodNanos(),
                        s.hostBackgroundPerNetnsNanos(),
                        s.hostBackgroundDoublingNetns()));
        String clocks = org.netnslab.report.ConsoleReport.clocks(ResultsFolder.read(dir));
        assertTrue(
                clocks,
                clocks.contains(
                        "random-seed 1, host-background 1000000 ns a second a netns, doubling-netns 0, every 1 ms:"));
        JsonNode none = withoutWallClock(run("nohost"));
        assertTrue(none.at("/execution/machine/host_background").isMissingNode());
        String plain = org.netnslab.report.ConsoleReport.clocks(
                ResultsFolder.read(tmp.getRoot().toPath().resolve("nohost")));
        assertFalse(plain, plain.contains("host-background"));
        ((ObjectNode) host).remove("overrides");
        ((ObjectNode) none).remove("overrides");
        ((ObjectNode) host.get("execution").get("machine")).remove("host_background");
        assertFalse("the host's task took CPU from the load: some figure must move", host.equals(none));
    }

    /**
     * Another random seed draws other jitter factors for every charged cost (costs.netns here), so some figure
     * moves.
     */
    @Test
    public void anotherSeedChangesAFigure() throws Exception {
        JsonNode a = withoutWallClock(run("s1", "--set", "random-seed=1"));
        JsonNode b = withoutWallClock(run("s2", "--set", "random-seed=2"));
        ((ObjectNode) a.get("execution").get("machine")).remove("random_seed");
        ((ObjectNode) b.get("execution").get("machine")).remove("random_seed");
        ((ObjectNode) a).remove("overrides");
        ((ObjectNode) b).remove("overrides");
        assertFalse("the costs' jitter is seeded by random-seed: another seed must move some figure", a.equals(b));
    }

    /** Two designs alike at every count, 1 CPU too where both are the baseline's figures, are said so once. */
    @Test
    public void aSweepNamesEveryCountWhereTwoDesignsWereAlike() throws Exception {
        String console = console("alike", "load-tests/uevent-cpu-sweep.conf", "--sweep", "machine.cpus=1,2");
        assertTrue(console, console.contains("1: 1.000 (same)"));
        assertTrue(
                console,
                console.contains("\n  per-netns-2018 and kernel-6.9 gave identical figures at 1, 2 CPUs: no path where"
                        + " they differ is contended there.\n"));
    }

    /**
     * A design whose figures are the same at two counts (TC1 at 8 and 32 CPUs) is not paired with itself, nor a count
     * named twice: pairs are made within one count.
     */
    @Test
    public void aSweepPairsDesignsWithinACountOnly() throws Exception {
        List<String> alike = console("within", "load-tests/uevent-tc1-userns.conf", "--sweep", "machine.cpus=8,32")
                .lines()
                .filter(l -> l.contains("gave identical figures"))
                .toList();
        assertEquals(
                List.of(
                        "  per-netns-2018 and kernel-6.9 gave identical figures at 8, 32 CPUs: no path where they differ"
                                + " is contended there."),
                alike);
    }

    /**
     * A sweep whose count the seed is judged at (the file's own, 64) gives no verdict (two replicates with no spread)
     * says so in its summary; one without that count says the seed is not judged there.
     */
    @Test
    public void aSweepWithNoVerdictAtAnyCountSaysSo() throws Exception {
        String console = console(
                "undecided", "load-tests/uevent-tc1-userns.conf", "--repeat", "2", "--sweep", "machine.cpus=8,64");
        assertTrue(
                console,
                console.contains("; 64: 0.823 (18% lower). Seed 0.82: no verdict at 64 CPUs (the interval unbounded"
                        + " or too wide).\n"));
        String without = console(
                "unjudged", "load-tests/uevent-tc1-userns.conf", "--repeat", "2", "--sweep", "machine.cpus=8,32");
        assertTrue(
                without,
                without.contains("; 32: 0.823 (18% lower). Seed 0.82: not judged (the seed's figure is of one"
                        + " machine, the 64 CPUs the scenario runs at without the sweep, a count not swept).\n"));
    }

    @Test
    public void aSweepRunsEveryDesignAtEveryCountAndComparesWithinOne() throws Exception {
        Path out = run("sweep", "--sweep", "machine.cpus=1,4");
        RunRecord r = ResultsFolder.read(out);
        assertTrue(r.isSweep());
        assertEquals(List.of(1, 4), r.execution().cpus());
        assertEquals(
                List.of("net-free-4.16@1cpu", "exit-barrier-4.16@1cpu", "net-free-4.16@4cpu", "exit-barrier-4.16@4cpu"),
                r.designs().stream().map(d -> d.name()).toList());
        assertEquals(2, r.comparisons().size());
        for (Comparison c : r.comparisons()) {
            assertEquals(c.a().substring(c.a().indexOf('@')), c.b().substring(c.b().indexOf('@')));
        }
        assertEquals(4, r.replicates().get(0).designs().size());
        r.replicates()
                .get(0)
                .designs()
                .forEach(d -> assertTrue(d.name(), d.clocks().simulatedEvents() > 0));
        assertTrue(ConsoleReport.clocks(r), ConsoleReport.clocks(r).startsWith("execution virtual, cpus sweep [1, 4]"));
        // one verdict sentence per design across the counts, not one per design and count
        String console = ConsoleReport.render(r);
        assertTrue(
                console,
                console.contains("\nverdict:\n  exit-barrier-4.16 against net-free-4.16, mean netns.loop_wall"
                        + " (b / a, lower is better) by simulated CPUs: 1: "));
        assertEquals(console, 1, console.split("exit-barrier-4.16 against net-free-4.16", -1).length - 1);
        assertEquals(
                "result.json keeps one verdict per comparison",
                2,
                org.netnslab.report.Verdict.of(r).checked().size());
        String html = Files.readString(out.resolve(ResultsFolder.REPORT_HTML));
        assertTrue(html.contains("throughput against simulated CPUs"));
        assertTrue(html, html.contains(", scheduler fair (preempt none, HZ 250, task-group root, context switch "));
        assertTrue(html.contains("simulated CPUs (log2)"));
        assertEquals(HtmlReport.chartCount(r), html.split("<svg", -1).length - 1);
    }

    @Test
    public void theSweepScenarioListsItsCounts() throws Exception {
        org.netnslab.scenario.Scenario s = new org.netnslab.scenario.ScenarioLoader()
                .load(Path.of("load-tests/uevent-cpu-sweep.conf"), List.of(), 0.01);
        assertTrue(s.execution().isVirtual());
        assertEquals(List.of(1, 2, 4, 8, 16, 32, 64), s.execution().cpuCounts());
        assertEquals(1, s.execution().machine().cpus());
        org.netnslab.scenario.Scenario one = new org.netnslab.scenario.ScenarioLoader()
                .load(Path.of("load-tests/uevent-cpu-sweep.conf"), List.of("machine.cpus=8"), 0.01);
        assertFalse(one.execution().isSweep());
        assertEquals(List.of(8), one.execution().cpuCounts());
    }

    @Test
    public void badSweepsExit2() {
        assertEquals(
                Main.EXIT_CONFIG, Main.execute("run", "load-tests/unshare-loop.conf", "--sweep", "machine.cpus=1,x"));
        assertEquals(
                Main.EXIT_CONFIG, Main.execute("run", "load-tests/unshare-loop.conf", "--sweep", "machine.jitter=0,1"));
        assertEquals(
                Main.EXIT_CONFIG, Main.execute("run", "load-tests/unshare-loop.conf", "--sweep", "machine.cpus=2,2"));
        assertEquals(
                Main.EXIT_CONFIG, Main.execute("run", "load-tests/unshare-loop.conf", "--sweep", "machine.cpus=0"));
        assertEquals(
                Main.EXIT_CONFIG,
                Main.execute(
                        "run",
                        "load-tests/unshare-loop.conf",
                        "--set",
                        "machine.cpus=4",
                        "--sweep",
                        "machine.cpus=1,2"));
        // live execution has the host's CPUs only
        assertEquals(
                Main.EXIT_CONFIG,
                Main.execute(
                        "run",
                        "load-tests/unshare-loop.conf",
                        "--set",
                        "execution=live",
                        "--sweep",
                        "machine.cpus=1,2"));
    }

    @Test
    public void aLiveRunSavesItsModeAndNoSimulatedClock() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("live");
        assertEquals(
                0,
                Main.execute(
                        "run",
                        "load-tests/unshare-loop.conf",
                        "--scale",
                        "0.01",
                        "--no-progress",
                        "--out",
                        out.toString(),
                        "--set",
                        "execution=live",
                        "--set",
                        "workload.workers=2",
                        "--set",
                        "designs=[net-free-4.16]",
                        "--set",
                        "model.netns.setup-cost=0ms",
                        "--set",
                        "model.netns.exit-cost=0ms"));
        RunRecord r = ResultJson.read(out.resolve(ResultsFolder.RESULT_JSON));
        assertNotNull(r.execution());
        assertFalse(r.execution().isVirtual());
        assertEquals(-1, r.clocks().simulatedEvents());
        assertTrue(Double.isNaN(r.replicates().get(0).designs().get(0).clocks().simulatedSeconds()));
        assertTrue(ConsoleReport.clocks(r).startsWith("execution live"));
        JsonNode j = new ObjectMapper()
                .readTree(out.resolve(ResultsFolder.RESULT_JSON).toFile());
        assertTrue(j.at("/execution/simulated_events").isNull());
        assertTrue(j.at("/execution/sweep").isNull());
    }
}
