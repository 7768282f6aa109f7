package org.netnslab.workload.soak;

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
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.Execution;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.ScenarioRunner;
import org.scalatestplus.junit.JUnitSuite;

/**
 * load-tests/isolation-soak.conf at a tiny scale (0.6 s per design), every fault switch firing often:
 * the pass counters hold, and each round's figures are exactly what its shape gives.
 */
public class IsolationSoakScenarioTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(200));

    private static long c(DesignResult d, String counter) {
        Long v = d.counters().get(counter);
        if (v == null) {
            throw new AssertionError(
                    d.name() + ": no counter " + counter + " in " + d.counters().keySet());
        }
        return v;
    }

    @Test
    public void aTinySoakPassesEveryCriterionWithEveryFaultSwitchFiring() throws Exception {
        Scenario s = new ScenarioLoader()
                .load(
                        Path.of("load-tests/isolation-soak.conf"),
                        List.of(
                                "model.faults.netns-actor=7",
                                "model.faults.listener=101",
                                "model.faults.cleanup-worker=1",
                                "model.faults.proc-connector=2"),
                        0.004)
                .withExecution(Execution.LIVE);
        RunResult r = new ScenarioRunner(testKit.system(), SETTINGS, RunObserver.SILENT).run(s);
        assertEquals(
                List.of("kernel-4.18", "per-netns-2018-fixed"),
                r.designs().stream().map(DesignResult::name).toList());
        for (DesignResult d : r.designs()) {
            String n = d.name();
            Invariants inv = d.invariants();
            assertEquals(n, 0, inv.crossNetnsDeliveries());
            assertEquals(n, 0, inv.eperm());
            assertEquals(n, 0, inv.lostWithoutEnobufs());
            assertEquals(n, 0, inv.leaked());
            assertEquals(n, 0, inv.sockInuseSum());
            assertEquals(n, 0, inv.seqnumOutOfOrder());
            assertEquals(n, 0, inv.seqnumDuplicates());
            assertEquals(n, 0, inv.useAfterFree());
            assertEquals(n, 0, c(d, "unauthorised_sent"));
            assertEquals(n, 0, c(d, "unauthorised_delivered"));
            assertEquals(n, 0, c(d, "other_errors"));
            assertEquals(n, 0, c(d, "proc_seq_gaps"));
            long rounds = c(d, "rounds");
            assertTrue(n, rounds >= 1);
            // a round: 8 netns over 4 levels; per netns 2 authorised senders (1 at the initial level) and 2
            // unauthorised ones, 20 injections each; 10 tagged per netns; 10 untagged; 2 + 1 stalled listeners
            assertEquals(n, 280 * rounds, c(d, "injections_ok"));
            assertEquals(n, 320 * rounds, c(d, "injections_eperm"));
            assertEquals(n, 80 * rounds, c(d, "kernel_uevents_tagged"));
            assertEquals(n, 10 * rounds, c(d, "kernel_uevents_untagged"));
            assertEquals(n, 24 * rounds, c(d, "listeners"));
            assertEquals(n, 8 * rounds, c(d, "listeners_stalled"));
            assertTrue(n + ": the stalled listeners overran", inv.enobufs() > 0);
            assertTrue(n, c(d, "netns_churned") >= 1);
            assertEquals(n, c(d, "netns_churned"), c(d, "churn_freed"));
            assertEquals(n, 8 * rounds + c(d, "netns_churned"), c(d, "netns_created"));
            assertEquals(n, c(d, "netns_created"), c(d, "netns_freed"));
            // every fault switch fired; each netns-actor fault was answered EAGAIN and sent again; each
            // listener fault closed one listener; each lost proc event took no seq
            assertTrue(n, c(d, "faults_netns_actor") > 0);
            assertEquals(n, c(d, "faults_netns_actor"), c(d, "eagain_retries"));
            assertTrue(n, c(d, "faults_listener") > 0);
            assertEquals(n, c(d, "faults_listener"), c(d, "listeners_failed_by_fault"));
            assertTrue(n, c(d, "faults_cleanup_worker") > 0);
            assertTrue(n, c(d, "faults_proc_connector") > 0);
            assertEquals(
                    n, c(d, "proc_events_published") - c(d, "faults_proc_connector"), c(d, "proc_events_generated"));
            assertEquals(n, c(d, "proc_events_generated"), c(d, "proc_events_received"));
            assertTrue(n + ": a heap sample after the first round and one at the end", c(d, "heap_samples") >= 2);
            assertTrue(n, c(d, "heap_first_bytes") > 0);
        }
    }
}
