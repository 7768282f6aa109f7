package org.netnslab.workload.churn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.Test;
import org.netnslab.metrics.DesignResult;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioLoader;
import org.scalatestplus.junit.JUnitSuite;

/**
 * v6.13's deferred struct net free ({@code netns.struct-net-free = next-cleanup}) and the v6.9 expedited
 * grace period of cleanup_net ({@code netns.cleanup-rcu = expedited}) in virtual time, on the unshare loop
 * under pernet_ops_rwsem, with both schedulers.
 */
public class DeferredFreeTest extends JUnitSuite {
    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(200));

    private static DesignResult run(String... sets) throws Exception {
        List<String> all = new java.util.ArrayList<>(
                List.of("workload.workers=4", "designs=[net-free-rwsem]", "baseline=net-free-rwsem", "seed-ratios={}"));
        all.addAll(List.of(sets));
        Scenario s = new ScenarioLoader().load(Path.of("load-tests/unshare-loop.conf"), all, 0.1);
        return org.netnslab.scenario.VirtualOnce.run("deferred-free", s, SETTINGS)
                .designs()
                .get(0);
    }

    private static double cleanupUs(DesignResult d) {
        return d.recorders().get(NetnsChurnWorkload.CLEANUP).meanNanos() / 1e3;
    }

    /**
     * Every netns is still freed (the last round's when the run waits for them), each later than at its own
     * batch's end: the last put to free spans a further cleanup round.
     */
    @Test
    public void nextCleanupFreesEveryNetnsOneRoundLater() throws Exception {
        for (String scheduler : new String[] {"fifo", "fair"}) {
            DesignResult batch = run("machine.scheduler=" + scheduler);
            DesignResult next = run("machine.scheduler=" + scheduler, "model.netns.struct-net-free=next-cleanup");
            assertEquals(40L, next.counters().get("netns_freed").longValue());
            assertEquals(0L, (long) next.invariants().get(org.netnslab.metrics.Invariants.Counter.LEAKED));
            assertTrue(
                    scheduler + ": put to free " + cleanupUs(next) + " us should exceed " + cleanupUs(batch) + " us",
                    cleanupUs(next) > cleanupUs(batch));
        }
    }

    /** cleanup_net with synchronize_rcu_expedited: a shorter put to free than with a normal grace period. */
    @Test
    public void expeditedGracePeriodShortensTheCleanup() throws Exception {
        DesignResult normal = run();
        DesignResult expedited = run("model.netns.cleanup-rcu=expedited");
        assertTrue(
                "expedited " + cleanupUs(expedited) + " us < normal " + cleanupUs(normal) + " us",
                cleanupUs(expedited) < cleanupUs(normal));
    }
}
