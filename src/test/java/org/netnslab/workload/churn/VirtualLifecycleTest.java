package org.netnslab.workload.churn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.Test;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.ScenarioRunner;
import org.scalatestplus.junit.JUnitSuite;

/** The netns lifecycle in virtual time: net_mutex, setup/exit work and grace periods in simulated time. */
public class VirtualLifecycleTest extends JUnitSuite {

    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(200));

    /** Runs unshare-loop as the CLI does: on a virtual actor system when the scenario says virtual. */
    private static RunResult run(double scale, String... sets) throws Exception {
        Scenario s = new ScenarioLoader().load(Path.of("load-tests/unshare-loop.conf"), List.of(sets), scale);
        if (!s.execution().isVirtual()) {
            ActorSystem<Void> live = ActorSystem.create(Behaviors.empty(), "live-lifecycle", ConfigFactory.load());
            try {
                return new ScenarioRunner(live, SETTINGS, RunObserver.SILENT).run(s);
            } finally {
                live.terminate();
                live.getWhenTerminated().toCompletableFuture().get();
            }
        }
        return org.netnslab.scenario.VirtualOnce.run("virtual-lifecycle", s, SETTINGS);
    }

    private static double loopWallS(DesignResult d) {
        return d.recorders().get(NetnsChurnWorkload.LOOP_WALL).meanNanos() / 1e9;
    }

    @Test
    public void exitBarrierCostsItsExtraGracePeriodPerNetnsUnderNetMutex() throws Exception {
        // 4 loops x 10 iterations: 40 netns, in cleanup batches of what the loops queued meanwhile. Every
        // netns cleaned while the loops run adds its exit's synchronize_rcu (rcu.grace-period = 8 ms) under
        // net_mutex; its rcu_barrier finds the batch's callbacks already invoked by the batch's own grace
        // period and waits for nothing. Expected: one grace period per netns, 40 x 8 ms = 320 ms more loop
        // wall, within 20 % (the last batch runs after the loops end and is not seen; the loops' interleaving
        // with the batches moves a few netns in or out).
        RunResult r =
                run(0.1, "workload.workers=4", "designs=[net-free-4.16, exit-barrier-4.16]", "baseline=net-free-4.16");
        DesignResult netFree = r.designs().get(0);
        DesignResult barrier = r.designs().get(1);
        assertEquals(40L, barrier.counters().get("netns_freed").longValue());
        assertEquals(
                "one synchronize_rcu per batch plus one per netns (the warm-up runs on its own supervisor)",
                barrier.counters().get("cleanup_batches") + 40,
                barrier.counters().get("synchronize_rcu").longValue());
        double extra = loopWallS(barrier) - loopWallS(netFree);
        double expected = 40 * 0.008;
        assertEquals("extra loop wall, s", expected, extra, expected * 0.20);
    }

    @Test
    public void netFreeLoopWallIsTheLockHeldWorkPerNetns() throws Exception {
        // No jitter: 4 loops x 10 iterations serialized on net_mutex. Each netns holds it for setup_net
        // (20 ms wait + 1 ms CPU) and, when its batch runs inside the loops, for its exits (105 ms + 1 ms
        // CPU), each batch adding one synchronize_rcu (8 ms). At least the 40 setups and the exits of all
        // but the last two batches (<= 8 netns): 40 x 21 + 32 x 106 ms = 4.232 s; at most everything:
        // 40 x 21 + 40 x 106 + 11 x 8 ms = 5.168 s. Without the CPU costs it would be under 4.19 s.
        RunResult r =
                run(0.1, "workload.workers=4", "designs=[net-free-4.16]", "baseline=net-free-4.16", "machine.jitter=0");
        double wall = loopWallS(r.designs().get(0));
        assertTrue("loop wall " + wall + " s", wall >= 4.232 && wall <= 5.168);
    }

    @Test
    public void liveExecutionChargesNoCpuCost() throws Exception {
        // The same loops live: no costs.netns charged, so the result does not depend on them (a 10 ms setup
        // CPU cost would add 40 x 10 ms = 0.4 s in virtual time).
        RunResult r = run(
                0.02,
                "execution=live",
                "workload.workers=2",
                "designs=[net-free-rwsem]",
                "baseline=net-free-rwsem",
                "model.costs.netns.setup-net=10ms",
                "model.netns.setup-cost=0ms",
                "model.netns.exit-cost=0ms");
        assertTrue(loopWallS(r.designs().get(0)) < 0.4);
    }

    /**
     * The throughput counts lifecycles to the last net_free, and so does its series: net-free-rwsem's loops end within
     * tens of ms and its frees seconds later, so a series of the loops' own progress ended there, at a rate the table
     * never shows. Over the whole counted span, the series' rates add up to the lifecycles.
     */
    @Test
    public void theThroughputSeriesCountsLifecyclesAtNetFreeOverTheCountedSpan() throws Exception {
        RunResult r = run(0.03, "designs=[net-free-rwsem, owner-exit-4.16]", "baseline=net-free-rwsem");
        for (DesignResult d : r.designs()) {
            List<double[]> series = d.throughputSeries();
            assertEquals(d.name(), 30, series.size()); // 120 lifecycles, four a point
            double lifecycles = 0;
            double before = 0;
            for (double[] p : series) {
                lifecycles += p[1] * (p[0] - before);
                before = p[0];
            }
            assertEquals(d.name(), 120, lifecycles, 1e-6);
            assertEquals(d.name(), d.wallSeconds(), before, 1e-9);
            assertEquals(d.name(), 120 / d.wallSeconds(), d.throughputPerSec(), 1e-9);
        }
        assertTrue(r.designs().get(0).wallSeconds() > 10); // the frees, not the loops' 0.07 s
    }
}
