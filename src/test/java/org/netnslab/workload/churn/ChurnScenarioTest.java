package org.netnslab.workload.churn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.Execution;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.ScenarioRunner;
import org.scalatestplus.junit.JUnitSuite;

public class ChurnScenarioTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(200));

    private static RunResult run(String file, double scale, String... sets) throws Exception {
        return run(RunObserver.SILENT, file, scale, sets);
    }

    private static RunResult run(RunObserver observer, String file, double scale, String... sets) throws Exception {
        Scenario s =
                new ScenarioLoader().load(Path.of(file), List.of(sets), scale).withExecution(Execution.LIVE);
        return new ScenarioRunner(testKit.system(), SETTINGS, observer).run(s);
    }

    /**
     * Live, from {@link NetnsChurnRun#WARM_UP_FROM} counted lifecycles, the configured warm-up is followed by untimed
     * JIT passes (each on a supervisor of its own) shown as phases
     * {@code JIT warm-up 1, 2...}; every figure is the counted loops' alone. Below it, only the configured warm-up runs.
     */
    @Test
    public void liveRunsWarmTheJitUpWithPassesLeftOutOfEveryFigure() throws Exception {
        List<String> phases = new java.util.concurrent.CopyOnWriteArrayList<>();
        RunObserver observer = new RunObserver() {
            @Override
            public void phaseStarting(String design, String phase, long total, java.util.function.LongSupplier done) {
                phases.add(phase + " " + total);
            }

            @Override
            public void progress(String design, String phase, long done, long total, long nanos) {}

            @Override
            public void phaseDone(String design, String phase, long total, long elapsedNanos) {}
        };
        String[] sets = {
            "designs=[net-free-rwsem]",
            "baseline=net-free-rwsem",
            "model.netns.setup-cost=0ms",
            "model.netns.exit-cost=0ms",
            "model.rcu.grace-period=0ms",
            "workload.workers=10"
        };
        // 10 workers x 100 iterations, after 1 configured warm-up iteration each
        DesignResult d = run(observer, "load-tests/unshare-loop.conf", 1.0, sets)
                .designs()
                .get(0);
        assertEquals(1000L, d.counters().get("netns_freed").longValue());
        assertEquals(1000, d.recorders().get("netns.create").count());
        assertEquals(0, d.invariants().leaked());
        assertEquals("warm-up 10", phases.get(0));
        assertEquals("loops 1000", phases.get(phases.size() - 2));
        assertEquals("net_free 1000", phases.get(phases.size() - 1)); // the wait for the counted loops' net_free
        List<String> passes = phases.subList(1, phases.size() - 2);
        assertTrue(phases.toString(), !passes.isEmpty());
        long passed = 0;
        for (int i = 0; i < passes.size(); i++) {
            String p = passes.get(i);
            String label = "JIT warm-up " + (i + 1) + " ";
            assertTrue(p, p.startsWith(label));
            long total = Long.parseLong(p.substring(label.length()));
            assertTrue(p, total >= 10 && total <= 1000 && total % 10 == 0); // 1 to 100 iterations per worker
            passed += total;
        }
        assertEquals(10 + passed, d.counters().get("warmup_lifecycles").longValue());

        phases.clear();
        DesignResult below = run(observer, "load-tests/unshare-loop.conf", 0.5, sets)
                .designs()
                .get(0);
        assertEquals(List.of("warm-up 10", "loops 500", "net_free 500"), phases);
        assertEquals(10L, below.counters().get("warmup_lifecycles").longValue());
    }

    @Test
    public void teardownScenarioFindsUseAfterFreeOnlyForExitUnsafe() throws Exception {
        // 4 workers x 5 iterations, 8 sockets each; 4 kernel sockets per netns, half RCU-freed
        RunResult r = run("load-tests/socket-churn-teardown.conf", 0.025, "workload.workers=4");
        assertEquals(
                List.of("owner-exit", "net-free", "exit-barrier", "exit-unsafe"),
                r.designs().stream().map(DesignResult::name).toList());
        for (DesignResult d : r.designs()) {
            assertEquals(d.name(), 0, d.invariants().leaked());
            assertEquals(d.name(), 20L, d.counters().get("netns_freed").longValue());
            assertEquals(
                    d.name(), 4, d.recorders().get(NetnsChurnWorkload.LOOP_WALL).count());
            assertEquals(d.name(), 20, d.recorders().get("netns.create").count());
            assertEquals(d.name(), 20, d.recorders().get("netns.cleanup").count());
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    r.designs().get(i).name(),
                    0,
                    r.designs().get(i).invariants().useAfterFree());
            assertEquals(
                    r.designs().get(i).name(),
                    0,
                    r.designs().get(i).invariants().sockInuseSum());
        }
        // exit-unsafe: what the counter still held when its exit freed it is the 2 deferred kernel-socket
        // -1s per netns not yet run; each then runs on the freed counter (use_after_free), one for one.
        var unsafe = r.designs().get(3).invariants();
        assertTrue("the deferred kernel-socket teardowns touch the freed counter", unsafe.useAfterFree() > 0);
        assertTrue(unsafe.useAfterFree() <= 40);
        assertEquals(unsafe.sockInuseSum(), unsafe.useAfterFree());
        DesignResult barrier = r.designs().get(2);
        assertEquals(
                "one synchronize_rcu per batch plus one per netns",
                barrier.counters().get("cleanup_batches") + 20,
                barrier.counters().get("synchronize_rcu").longValue());
        DesignResult owner = r.designs().get(0);
        assertEquals(
                "owner-exit: one synchronize_rcu per batch, none of its own",
                owner.counters().get("cleanup_batches"),
                owner.counters().get("synchronize_rcu"));
        assertEquals(owner.counters().get("cleanup_batches"), owner.counters().get("rcu_barrier"));
        assertEquals(3, r.comparisons().size());
        assertEquals(NetnsChurnWorkload.LOOP_WALL, r.comparisons().get(0).measure());
    }

    @Test
    public void sockInuseSumCountsWhatAClosePathThatSkipsItsDecrementLeaves() throws Exception {
        // Section 5: the test-only fault drops __sk_free's sock_inuse_add(-1): 20 netns x 8 user sockets
        // stay counted when sock_inuse_exit_net reads and frees each counter.
        RunResult r = run(
                "load-tests/socket-churn-teardown.conf",
                0.025,
                "workload.workers=4",
                "designs=[owner-exit]",
                "baseline=owner-exit",
                "workload.warmup-iterations=0",
                "model.sock-inuse.fault=skip-sock-inuse-dec");
        assertEquals(160, r.designs().get(0).invariants().sockInuseSum());
        assertEquals(0, r.designs().get(0).invariants().leaked());
        assertEquals(0, r.designs().get(0).invariants().useAfterFree());
    }

    @Test
    public void leakedCountsNetnsThatAClosePathWithoutPutNetKeepsAlive() throws Exception {
        // Section 5: the test-only fault drops __sk_destruct's put_net: every netns keeps the references
        // of its 8 closed sockets and is never dismantled; the wait gives up after an ask timeout without
        // cleanup progress and counts all 20 as leaked.
        Scenario s = new ScenarioLoader()
                .load(
                        Path.of("load-tests/socket-churn-teardown.conf"),
                        List.of(
                                "workload.workers=4",
                                "designs=[owner-exit]",
                                "baseline=owner-exit",
                                "workload.warmup-iterations=0",
                                "model.sock-inuse.fault=skip-put-net"),
                        0.025)
                .withExecution(Execution.LIVE);
        RunSettings shortAsks = new RunSettings(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMillis(200));
        RunResult r = new ScenarioRunner(testKit.system(), shortAsks, RunObserver.SILENT).run(s);
        assertEquals(20, r.designs().get(0).invariants().leaked());
        assertEquals(0L, r.designs().get(0).counters().get("netns_freed").longValue());
    }

    @Test
    public void aCleanupLongerThanOneAskTimeoutIsWaitedForWhileItProgresses() throws Exception {
        Scenario s = new ScenarioLoader()
                .load(
                        Path.of("load-tests/unshare-loop.conf"),
                        List.of(
                                "workload.workers=5",
                                "designs=[net-free-rwsem]",
                                "baseline=net-free-rwsem",
                                "model.netns.setup-cost=0ms",
                                "model.netns.exit-cost=300ms"),
                        0.02)
                .withExecution(Execution.LIVE); // 10 netns x 300 ms of exits: 3 s of cleanup, asks of 1 s
        RunSettings shortAsks = new RunSettings(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMillis(200));
        RunResult r = new ScenarioRunner(testKit.system(), shortAsks, RunObserver.SILENT).run(s);
        assertEquals(10L, r.designs().get(0).counters().get("netns_freed").longValue());
        assertEquals(0, r.designs().get(0).invariants().leaked());
    }

    @Test
    public void unshareLoopRunsEveryDesignWithoutLeaks() throws Exception {
        RunResult r = run(
                "load-tests/unshare-loop.conf",
                0.02,
                "workload.workers=5",
                "model.netns.setup-cost=1ms",
                "model.netns.exit-cost=2ms");
        assertEquals(
                List.of("owner-exit-4.16", "net-free-4.16", "exit-barrier-4.16", "exit-unsafe-4.16", "net-free-rwsem"),
                r.designs().stream().map(DesignResult::name).toList());
        for (DesignResult d : r.designs()) {
            assertEquals(d.name(), 0, d.invariants().leaked());
            if (!d.name().startsWith("exit-unsafe")) {
                assertEquals(d.name(), 0, d.invariants().useAfterFree());
                assertEquals(d.name(), 0, d.invariants().sockInuseSum());
            }
            assertEquals(d.name(), 10L, d.counters().get("netns_freed").longValue());
            assertEquals(
                    d.name(), 5, d.recorders().get(NetnsChurnWorkload.LOOP_WALL).count());
        }
        assertEquals(1.067, r.seedRatios().get("exit-barrier-4.16"), 0);
    }

    /**
     * faults.cleanup-worker in a virtual churn run: every second start of cleanup_net faults and is queued again (the
     * retry is not eligible), nothing is lost, and the run reports the faults fired.
     */
    @Test
    public void aCleanupWorkerFaultIsRetriedAndReported() throws Exception {
        Scenario s = new ScenarioLoader()
                .load(
                        Path.of("load-tests/unshare-loop.conf"),
                        List.of("designs=[net-free-rwsem]", "baseline=net-free-rwsem", "model.faults.cleanup-worker=2"),
                        0.01);
        DesignResult d = org.netnslab.scenario.VirtualOnce.run("churn-faults", s, SETTINGS)
                .designs()
                .get(0);
        // 40 lifecycles in two cleanup_net batches: the second batch's start faulted once
        assertEquals(2L, d.counters().get("cleanup_batches").longValue());
        assertEquals(1L, d.counters().get("faults_cleanup_worker").longValue());
        assertEquals(40L, d.counters().get("netns_freed").longValue());
        assertEquals(0, d.invariants().leaked());
    }
}
