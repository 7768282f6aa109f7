package org.netnslab.workload.scale;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.machine.Machine;
import org.netnslab.machine.VirtualEngine;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.Execution;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.HeapEstimate;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.ScenarioRunner;
import org.scalatestplus.junit.JUnitSuite;

public class NetnsScaleScenarioTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(200));
    private static final Path FILE = Path.of("load-tests/scale-1m-netns.conf");

    /**
     * scale 0.002: 1000 userns-owned netns (ids 1..1000) and 1000 init-owned (ids 1001..2000); a listener on ids
     * 100, 200, ..., 2000 (20: 10 of each kind); the broadcast reaches the 10 init-owned ones; 20 tagged uevents,
     * one per netns with a listener.
     */
    private static void assertCounts(DesignResult d) {
        assertEquals(2000L, d.counters().get("netns").longValue());
        assertEquals(20L, d.counters().get("listeners").longValue());
        assertEquals(
                "the init-owned netns's listeners",
                10L,
                d.counters().get("broadcast_deliveries").longValue());
        assertEquals(20L, d.counters().get("tagged_deliveries").longValue());
        assertEquals(2000L, d.counters().get("freed").longValue());
        assertEquals(2000, d.recorders().get(NetnsScaleWorkload.CREATE).count());
        assertEquals(2000, d.recorders().get(NetnsScaleWorkload.CLEANUP).count());
        assertEquals(30, d.recorders().get(NetnsScaleWorkload.DELIVERY).count());
        assertEquals(2000, d.throughputPerSec() * d.wallSeconds(), 1e-6);
        for (Invariants.Counter c : Invariants.Counter.values()) {
            assertEquals(c.jsonName(), 0, d.invariants().get(c));
        }
        assertTrue(d.counters().get("creations_per_s") > 0);
        assertTrue(d.counters().get("dismantles_per_s") > 0);
    }

    @Test
    public void twoThousandNetnsLive() throws Exception {
        Scenario s = new ScenarioLoader().load(FILE, List.of(), 0.002).withExecution(Execution.LIVE);
        RunResult r = new ScenarioRunner(testKit.system(), SETTINGS, RunObserver.SILENT).run(s);
        DesignResult d = r.designs().get(0);
        assertEquals("kernel-6.9", d.name());
        assertCounts(d);
        assertFalse("2,000 netns are too few for a heap figure", d.counters().containsKey("heap_bytes_per_netns"));
        assertFalse(d.counters().containsKey("heap_bytes_per_listener"));
    }

    @Test
    public void twoThousandNetnsVirtual() throws Exception {
        Scenario s = new ScenarioLoader().load(FILE, List.of("execution=virtual"), 0.002);
        ActorSystem<Void> system = VirtualSystem.create(Behaviors.empty(), "netns-scale", ConfigFactory.load());
        VirtualEngine engine = Machine.get(system).engine();
        try {
            RunResult r = new ScenarioRunner(system, SETTINGS, RunObserver.SILENT).run(s);
            assertCounts(r.designs().get(0));
            assertEquals(
                    "no cost on the untagged broadcast's path: delivered at its send's instant",
                    0L,
                    r.designs().get(0).counters().get("broadcast_fanout_us").longValue());
        } finally {
            VirtualSystem.terminate(system, Duration.ofSeconds(5));
            engine.unregister();
        }
    }

    @Test
    public void aMillionNetnsAreRefusedUnderTheDefaultHeapWithTheEstimateAndTheXmxThatFits() throws Exception {
        Scenario s = new ScenarioLoader().load(FILE, List.of(), 1);
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class,
                () -> HeapEstimate.check(s, 3641L << 20, 4096L << 20, List.of("-XX:+UseParallelGC")));
        String m = e.getMessage();
        assertTrue(m, m.contains("scenario scale-1m-netns at --scale 1 (1000000 netns"));
        assertTrue(m, m.contains("needs about " + ((HeapEstimate.bytes(s) + (1L << 20) - 1) >> 20) + " MiB of heap"));
        assertTrue(m, m.contains("more than this JVM's usable heap of 3641 MiB (-Xmx4096m)"));
        assertTrue(m, m.contains("NETNS_LAB_JAVA_OPTS=\"-Xmx5g -XX:+UseParallelGC\""));
        HeapEstimate.check(s, 5L << 30); // fits 5 GiB usable
    }

    @Test
    public void aPopulationNoMachineHereHoldsIsNotGivenAnXmx() throws Exception {
        Scenario s = new ScenarioLoader().load(FILE, List.of(), 1000); // 10^9 netns: about 4 TB of heap
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class,
                () -> HeapEstimate.check(s, 4096L << 20, 4096L << 20, List.of("-XX:+UseParallelGC")));
        String m = e.getMessage();
        assertTrue(m, m.contains("GiB of memory could give: lower --scale or the population"));
        assertFalse(m, m.contains("NETNS_LAB_JAVA_OPTS"));
    }

    private List<String> problems(String workload) throws Exception {
        Path f = tmp.newFile().toPath();
        Files.writeString(
                f,
                String.join(
                        "\n",
                        "name = s",
                        "description = s",
                        "seed = s",
                        "workload {",
                        "  type = netns-scale",
                        workload,
                        "}",
                        "execution = live",
                        "designs = [kernel-6.9]",
                        ""));
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class, () -> new ScenarioLoader().load(f, List.of(), 1));
        return e.problems.stream().map(p -> p.path() + ": " + p.message()).toList();
    }

    @Test
    public void badKeysAreNamed() throws Exception {
        assertEquals(
                List.of("workload.netns: missing: set userns-owned and/or init-owned"), problems("tagged-netns = 5"));
        assertEquals(
                List.of("workload.netns: needs at least one netns (userns-owned + init-owned >= 1)"),
                problems("netns { userns-owned = 0 }"));
        List<String> got =
                problems("netns { init-owned = 10, owned = 3 }\n  listener-share = 1.5\n  tagged-netns = -1\n"
                        + "  listeners = 4");
        assertEquals(got.toString(), 4, got.size());
        assertTrue(got.toString(), got.stream().anyMatch(p -> p.startsWith("workload.netns.owned: ")));
        assertTrue(got.toString(), got.stream().anyMatch(p -> p.startsWith("workload.listeners: ")));
        assertTrue(
                got.toString(),
                got.contains(
                        "workload.listener-share: must be a share in 0..1 (0.01: one netns in 100)," + " got 1.5"));
        assertTrue(got.toString(), got.stream().anyMatch(p -> p.startsWith("workload.tagged-netns: must be in 0..")));
        assertEquals(
                List.of("workload.tagged-netns: 11 tagged netns, more than the 10 netns with a listener"
                        + " (listener-share x netns): each tagged uevent goes to a netns with a listener"),
                problems("netns { init-owned = 1000 }\n  tagged-netns = 11"));
        assertEquals(
                List.of(
                        "workload.listener-share: must be a number in 0..1 (0.01: one netns in 100), got string \"abc\""),
                problems("netns { init-owned = 1000 }\n  listener-share = abc\n  tagged-netns = 1"));
        assertEquals(
                "a refused count is the only problem, not also 'needs at least one netns'",
                List.of("workload.netns.userns-owned: must be in 0..1000000000, got 2000000000"),
                problems("netns { userns-owned = 2000000000 }"));
        // an object merged from the file and two --set values is named by its sources, not HOCON's "merge of"
        ScenarioException e = org.junit.Assert.assertThrows(
                ScenarioException.class,
                () -> new ScenarioLoader()
                        .load(FILE, List.of("workload.netns.userns-owned=0", "workload.netns.init-owned=0"), 1));
        assertEquals(
                "--set workload.netns.init-owned=0 and --set workload.netns.userns-owned=0 and " + FILE,
                e.problems.get(0).source());
    }
}
