package org.netnslab.workload.procevents;

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

public class ProcScenarioTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Test
    public void everyMonitorSeesExactlyWhatItShouldAndTheSeedsRatiosAreComputed() throws Exception {
        // 800 processes, 80 of them dying abnormally; a scan after every event sees every process alive
        Scenario s = new ScenarioLoader()
                .load(
                        Path.of("load-tests/proc-filter.conf"),
                        List.of(
                                "model.proc-monitor.scans=10000",
                                "model.proc-monitor.syscall-cost=0us",
                                "designs=[none, per-listener, pidfd, proc-scan-8k]"),
                        0.1)
                .withExecution(Execution.LIVE);
        List<String> phases = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.Map<String, Long> doneCounts = new java.util.concurrent.ConcurrentHashMap<>();
        RunResult r = new ScenarioRunner(
                        testKit.system(),
                        new RunSettings(Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofMillis(200)),
                        new RunObserver() {
                            @Override
                            public void phaseStarting(
                                    String design, String phase, long total, java.util.function.LongSupplier done) {
                                phases.add(design + " " + phase);
                            }

                            @Override
                            public void progress(String design, String phase, long done, long total, long nanos) {}

                            @Override
                            public void phaseDone(String design, String phase, long total, long elapsedNanos) {
                                doneCounts.put(design + " " + phase, total);
                            }
                        })
                .run(s);
        // a finished phase says what it did: the filtered listeners receive what they want, not 4 x 2400
        assertEquals(Long.valueOf(4 * 2400L), doneCounts.get("none events"));
        assertEquals(Long.valueOf(2400L + 1600 + 800 + 80), doneCounts.get("per-listener events"));
        // live, each connector design first runs the events once untimed (the JIT's pass): the counts below are
        // the counted pass's alone
        assertEquals(
                List.of(
                        "none warm-up",
                        "none events",
                        "per-listener warm-up",
                        "per-listener events",
                        "pidfd events",
                        "proc-scan-8k events and scans"),
                phases);
        DesignResult none = r.designs().get(0);
        DesignResult filtered = r.designs().get(1);
        assertEquals(2400L, none.counters().get("events_generated").longValue());
        assertEquals(
                "without filters every listener gets every event (acks are not events)",
                4 * 2400L,
                none.counters().get("events_delivered").longValue());
        assertEquals(2400 - 80L, none.counters().get("nonzero-exit_discarded").longValue());
        for (DesignResult d : List.of(none, filtered)) {
            assertEquals(d.name(), 2400L, d.counters().get("all_handled").longValue());
            assertEquals(d.name(), 1600L, d.counters().get("fork-exit_handled").longValue());
            assertEquals(d.name(), 800L, d.counters().get("exit_handled").longValue());
            assertEquals(
                    d.name() + ": exactly the non-zero exits, signals included",
                    80L,
                    d.counters().get("nonzero-exit_handled").longValue());
            assertEquals(0, d.invariants().lostWithoutEnobufs());
        }
        assertEquals(
                "what each wants (the ack of the listener of everything is not an event)",
                2400L + 1600 + 800 + 80,
                filtered.counters().get("events_delivered").longValue());
        assertEquals(0L, filtered.counters().get("nonzero-exit_discarded").longValue());
        DesignResult pidfd = r.designs().get(2);
        assertEquals(800L, pidfd.counters().get("exits_detected").longValue());
        assertEquals(80L, pidfd.counters().get("abnormal_exits_detected").longValue());
        DesignResult scan = r.designs().get(3);
        assertEquals(800L, scan.counters().get("exits_detected").longValue());
        assertEquals(0L, scan.counters().get("exits_missed").longValue());
        assertEquals(
                "the scan ratio needs two scan designs",
                List.of(0.75, 0.35, 2.9),
                r.ratios().stream().map(RunResult.DerivedRatio::seed).toList());
        assertTrue(r.ratios().get(0).model() > 0);
    }

    @Test
    public void syscallCostsAreChargedByCount() throws Exception {
        // 100 processes, 200 us per call: pidfd makes 5 calls per process (0.1 s), the exit listener one per exit
        Scenario s = new ScenarioLoader()
                .load(
                        Path.of("load-tests/proc-filter.conf"),
                        List.of(
                                "designs=[per-listener, pidfd]",
                                "baseline=per-listener",
                                "model.proc-monitor.syscall-cost=200us"),
                        0.0125)
                .withExecution(Execution.LIVE);
        RunResult r = new ScenarioRunner(
                        testKit.system(),
                        new RunSettings(Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofMillis(200)),
                        RunObserver.SILENT)
                .run(s);
        double exitMs = r.designs()
                        .get(0)
                        .recorders()
                        .get(ProcEventsWorkload.BUSY + "exit")
                        .meanNanos()
                / 1e6;
        double pidfdMs = r.designs()
                        .get(1)
                        .recorders()
                        .get(ProcEventsWorkload.BUSY + "pidfd")
                        .meanNanos()
                / 1e6;
        assertTrue("exit listener: at least 100 recvmsg x 0.2 ms, got " + exitMs, exitMs >= 20);
        assertTrue("pidfd: at least 100 x 5 calls x 0.2 ms, got " + pidfdMs, pidfdMs >= 100);
    }

    @Test
    public void sparseScansMissProcessesThatLiveBetweenThem() throws Exception {
        Scenario s = new ScenarioLoader()
                .load(
                        Path.of("load-tests/proc-filter.conf"),
                        List.of("designs=[proc-scan-8k]", "baseline=proc-scan-8k", "model.proc-monitor.scans=2"),
                        0.5)
                .withExecution(Execution.LIVE);
        RunResult r = new ScenarioRunner(
                        testKit.system(),
                        new RunSettings(Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofMillis(200)),
                        RunObserver.SILENT)
                .run(s);
        DesignResult d = r.designs().get(0);
        assertEquals(4000L, d.counters().get("exits").longValue());
        assertTrue(
                "two scans cannot see every short-lived process", d.counters().get("exits_missed") > 0);
        assertEquals(4000L, d.counters().get("exits_detected") + d.counters().get("exits_missed"));
    }
}
