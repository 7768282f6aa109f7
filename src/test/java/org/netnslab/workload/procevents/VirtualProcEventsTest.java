package org.netnslab.workload.procevents;

import static org.junit.Assert.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.Test;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioLoader;
import org.scalatestplus.junit.JUnitSuite;

/** The process monitors in virtual time: busy time is exactly what costs.proc charges. */
public class VirtualProcEventsTest extends JUnitSuite {
    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(200));

    /**
     * Runs load-tests/proc-filter.conf in virtual time, no jitter, baseline per-listener, no derived ratios.
     *
     * @param scale its --scale
     * @param sets its --set overrides, e.g. the designs
     */
    private static RunResult run(double scale, String... sets) throws Exception {
        List<String> all =
                new java.util.ArrayList<>(List.of("baseline=per-listener", "derived-ratios=[]", "machine.jitter=0"));
        all.addAll(List.of(sets));
        Scenario s = new ScenarioLoader().load(Path.of("load-tests/proc-filter.conf"), all, scale);
        return org.netnslab.scenario.VirtualOnce.run("virtual-proc", s, SETTINGS);
    }

    private static double busyMs(DesignResult d, String monitor) {
        return d.recorders().get(ProcEventsWorkload.BUSY + monitor).meanNanos() / 1e6;
    }

    @Test
    public void monitorsAreChargedTheirCostsPerEventExactly() throws Exception {
        // 80 processes (fork, exec, exit each), no jitter, paced 1 ms apart (workload.process-interval): a
        // listener receives each event it wants, recvmsg 7500 ns each, and pays 1250 ns per wake-up: once for
        // a process's fork and exec (together), once for its exit. The subscription's ack (PROC_EVENT_NONE)
        // passes cn_filter only for a listener of every event (v6.6: the mask test of 0); it is still queued when
        // process 0's fork and exec come (the stream starts reading at the phase's start): one wake-up for the three.
        // pidfd: 10 us per fork + 15 us per exit.
        RunResult r = run(0.01, "designs=[per-listener, pidfd]");
        DesignResult listeners = r.designs().get(0);
        assertEquals((3 * 80 + 1) * 7500e-6 + 2 * 80 * 1250e-6, busyMs(listeners, "all"), 1e-9);
        assertEquals(2 * 80 * 7500e-6 + 2 * 80 * 1250e-6, busyMs(listeners, "fork-exit"), 1e-9);
        assertEquals(80 * 7500e-6 + 80 * 1250e-6, busyMs(listeners, "exit"), 1e-9);
        assertEquals(80 * 0.025, busyMs(r.designs().get(1), ProcEventsWorkload.PIDFD), 1e-9);
        // The listeners' run lasts as long as the paced processes: 80 fork steps (0..79), the first exit half a
        // step after the last fork, then one exit per step (steps without events are not counted): the last
        // exit at 158.5 ms, handled in 8.75 us. pidfd watches the same paced processes: its last exit is handled
        // in 15 us.
        // (Its time was 2 s more, now and then, when a stream's completion reached the phase on a pool thread
        // while the engine idled.)
        assertEquals(0.1585 + 8.75e-6, listeners.wallSeconds(), 1e-4);
        assertEquals(0.1585 + 15e-6, r.designs().get(1).wallSeconds(), 1e-6);
    }

    /**
     * A connector before v6.6 ({@code accounting = global-count}) ignores a masked subscription, so its listeners
     * subscribe to everything and keep what they want themselves: exactly the unfiltered design's work, with either
     * filter setting (that era has no filter).
     */
    @Test
    public void beforeV66ListenersSubscribeToEverythingAndCostWhatUnfilteredOnesDo() throws Exception {
        RunResult r = run(
                0.01,
                "designs=[none, old, old-filtered]",
                "baseline=none",
                "custom-designs.old.proc-connector { filter = none, accounting = global-count }",
                "custom-designs.old-filtered.proc-connector { filter = per-listener, accounting = global-count }");
        for (String monitor : List.of("all", "fork-exit", "exit", "nonzero-exit")) {
            double none = busyMs(r.designs().get(0), monitor);
            assertEquals(monitor, (3 * 80 + 1) * 7500e-6 + 2 * 80 * 1250e-6, none, 1e-9);
            assertEquals(monitor, none, busyMs(r.designs().get(1), monitor), 0);
            assertEquals(monitor, none, busyMs(r.designs().get(2), monitor), 0);
        }
    }

    /**
     * Listeners whose receive buffer holds two events (so-rcvbuf 2000: sk_rcvbuf 4000, 896 bytes an event) while the
     * 80 processes come all at once drop most of them: the verdict names each design's drops, as its figures are over
     * the 24 events each listener set received.
     */
    @Test
    public void droppedEventsAreNamedInTheVerdict() throws Exception {
        RunResult r = run(
                0.01,
                "designs=[none, per-listener]",
                "baseline=none",
                "workload.process-interval=0ms",
                "model.proc-connector.listener-rcvbuf=2000",
                "model.proc-connector.listener-rcvbuf-option=so-rcvbuf");
        String dropped = org.netnslab.metrics.Losses.EVENTS_DROPPED;
        assertEquals(Long.valueOf(4 * 240 - 24), r.designs().get(0).counters().get(dropped));
        assertEquals(Long.valueOf(488 - 24), r.designs().get(1).counters().get(dropped));
        String console = org.netnslab.report.ConsoleReport.render(
                org.netnslab.report.RunRecord.of(r, org.netnslab.report.RunRecord.Machine.current()));
        org.junit.Assert.assertTrue(
                console,
                console.contains("Lost before the figures: none events_dropped 936, per-listener events_dropped 464."));
    }

    /**
     * An event is received when the recvmsg that returns it ends, its wake-up included. Each listener has a CPU of its
     * own (64), so an event that finds its listener asleep is received 1250 ns (the wake-up) + 7500 ns (recvmsg) after
     * it was made, 8750 ns: every event of the EXIT-only (80), the NONZERO_EXIT (8) and the fork-exit (160) listeners,
     * and the forks (79) and exits (80) of the all-events one. That one's exec waits behind its fork, 16,250 ns (79
     * times), and process 0's fork and exec behind the subscription's ack too, 16,250 and 23,750 ns.
     */
    @Test
    public void anEventIsReceivedWhenItsRecvmsgEnds() throws Exception {
        DesignResult d = run(0.01, "designs=[per-listener]").designs().get(0);
        var latency = d.recorders().get(ProcEventsWorkload.EVENT);
        assertEquals(80 + 8 + 160 + 240, latency.count());
        double sum = 8750.0 * (80 + 8 + 160 + 79 + 80) + 16250.0 * (79 + 1) + 23750;
        assertEquals(sum / 488, latency.meanNanos(), 1e-6);
    }

    /**
     * The /proc scanners watch the paced processes too (80 processes forked 1 ms apart, their exits 1 ms apart after
     * the last fork), ten scans due after each tenth of the events. At 1 us a live entry the 8000-entry scan (8 ms)
     * ends before the next is due and misses no exit; the 100,000-entry one (100 ms) falls behind, its later scans
     * start only as the one before ends, and the processes born and gone meanwhile are missed (20 of 80). Each run
     * lasts as long as its scans need: 0.17 s, as the paced processes, and 1.01 s.
     */
    @Test
    public void aScanThatFallsBehindThePacedProcessesMissesExits() throws Exception {
        RunResult r = run(
                0.01,
                "designs=[proc-scan-8k, proc-scan-100k]",
                "baseline=proc-scan-8k",
                "model.costs.proc.scan-entry=1us");
        DesignResult fast = r.designs().get(0);
        DesignResult slow = r.designs().get(1);
        assertEquals(80L, (long) fast.counters().get("exits"));
        assertEquals(0L, (long) fast.counters().get("exits_missed"));
        assertEquals(20L, (long) slow.counters().get("exits_missed"));
        assertEquals(0.17, fast.wallSeconds(), 0.01);
        assertEquals(1.01, slow.wallSeconds(), 0.01);
    }

    /**
     * {@code costs.proc.exit-switch}: each exit is published from an exiting task that then dies on its CPU, and the
     * listener that runs next there pays 7 us more. The listeners bind by name (all, exit, fork-exit, nonzero-exit)
     * and the connector walks the newest bind first (mc_list), so an exit wakes fork-exit (and, one in ten,
     * nonzero-exit before it) before exit and all: on 2 CPUs the first woken takes the idle CPU and the others queue
     * behind the exiting task: the 72 zero exits charge exit or all (40 and 32, as EEVDF picks), and the 8 non-zero
     * ones, whose first woken is nonzero-exit, charge fork-exit. On 4 CPUs only the 8 non-zero exits, which wake four
     * listeners, leave one (all, walked last) behind it. Off (the default 0), the figures are the other tests'.
     */
    @Test
    public void theListenerAfterAnExitingProcessPaysItsSwitch() throws Exception {
        double all = (3 * 80 + 1) * 7500e-6 + 2 * 80 * 1250e-6;
        double forkExit = 2 * 80 * 7500e-6 + 2 * 80 * 1250e-6;
        double exit = 80 * 7500e-6 + 80 * 1250e-6;
        double nonzero = 8 * 7500e-6 + 8 * 1250e-6;
        long[][] charges = {{2, 32, 8, 40}, {4, 8, 0, 0}};
        for (long[] c : charges) {
            RunResult r =
                    run(0.01, "designs=[per-listener]", "model.costs.proc.exit-switch=7us", "machine.cpus=" + c[0]);
            DesignResult d = r.designs().get(0);
            String cpus = c[0] + " CPUs: ";
            assertEquals(cpus + "all", all + c[1] * 7e-3, busyMs(d, "all"), 1e-9);
            assertEquals(cpus + "fork-exit", forkExit + c[2] * 7e-3, busyMs(d, "fork-exit"), 1e-9);
            assertEquals(cpus + "exit", exit + c[3] * 7e-3, busyMs(d, "exit"), 1e-9);
            assertEquals(cpus + "nonzero-exit", nonzero, busyMs(d, "nonzero-exit"), 1e-9);
        }
    }

    /**
     * With {@code workload.exec-delay} a process's EXEC comes that long after its FORK (here 0.25 ms of the 1 ms
     * interval), so a listener of every event wakes for each of the three, as a host listener does (22,350 to 23,422
     * wake-ups for 24,000 events in the 8000-process calibrate load): its busy time gains a wake-up per process, the
     * EXIT-only listener's does not.
     */
    @Test
    public void anExecDelayedAfterItsForkIsAWakeUpOfItsOwn() throws Exception {
        RunResult r = run(0.01, "designs=[per-listener]", "workload.exec-delay=250us");
        DesignResult listeners = r.designs().get(0);
        // the subscription's ack still shares process 0's fork's wake-up: 3 x 80 wake-ups, less none
        assertEquals((3 * 80 + 1) * 7500e-6 + 3 * 80 * 1250e-6, busyMs(listeners, "all"), 1e-9);
        assertEquals(2 * 80 * 7500e-6 + 2 * 80 * 1250e-6, busyMs(listeners, "fork-exit"), 1e-9);
        assertEquals(80 * 7500e-6 + 80 * 1250e-6, busyMs(listeners, "exit"), 1e-9);
    }

    /**
     * A serial spawner ({@code exit-after-forks = 0}, as calibrate's probe): each process exits half an interval after
     * its own fork, so 80 processes take 80 intervals, where the default's thousand alive put every exit after every
     * fork (79 more: the first exit shares the last fork's interval). The listeners' busy times are the same: each
     * event still comes alone.
     */
    @Test
    public void aSerialSpawnersExitsComeBeforeTheNextFork() throws Exception {
        RunResult serial = run(0.01, "designs=[per-listener]", "workload.exit-after-forks=0");
        RunResult wave = run(0.01, "designs=[per-listener]");
        assertEquals(0.0795, serial.designs().get(0).wallSeconds(), 1e-4);
        assertEquals(0.1585, wave.designs().get(0).wallSeconds(), 1e-4);
        for (String l : List.of("all", "fork-exit", "exit", "nonzero-exit")) {
            assertEquals(
                    l, busyMs(wave.designs().get(0), l), busyMs(serial.designs().get(0), l), 1e-9);
        }
    }

    /**
     * One process, its exec 0.4 ms after its fork and its exit at 0.5 ms: every event reaches the listeners before
     * the run closes their sockets. (A new user's trial set the exec after the exit's slot, 0.9 ms, and lost it: the
     * sockets closed at the last-listed event's time. The parser now refuses an exec-delay of half the interval or
     * more, ScenarioLoaderTest, and the close waits for the latest event.)
     */
    @Test
    public void oneProcessWithALateExecLosesNoEvent() throws Exception {
        RunResult r = run(1, "designs=[per-listener]", "workload.processes=1", "workload.exec-delay=400us");
        DesignResult d = r.designs().get(0);
        assertEquals(3L, (long) d.counters().get("events_generated"));
        assertEquals(3L, (long) d.counters().get("all_handled"));
        assertEquals(1L, (long) d.counters().get("exit_handled"));
        assertEquals(0L, d.invariants().lostWithoutEnobufs());
    }
}
