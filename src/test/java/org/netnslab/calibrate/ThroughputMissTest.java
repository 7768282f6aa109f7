package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A TC1 throughput miss says whose the machine's busy time was: the probe's processes, and, where the probe's line
 * times them, PID 1's threads, DAMON's kdamond and the kernel threads, each the median share over the runs.
 */
public class ThroughputMissTest extends JUnitSuite {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode run(double busy, double own, double init, double kdamond, double kthreads) {
        ObjectNode l = JSON.createObjectNode();
        l.put("machine_busy_ns", busy);
        l.put("machine_idle_ns", 0.01 * busy);
        l.put("injector_cpu_ns", own * 0.9);
        l.put("listener_cpu_ns", own * 0.1);
        l.put("window_rcu_gp_kthread_ns", kthreads / 2);
        l.put("window_ksoftirqd_ns", kthreads / 4);
        l.put("window_kworker_ns", kthreads / 4);
        l.put("window_kdamond_ns", kdamond);
        l.put("window_init_ns", init);
        return l;
    }

    @Test
    public void theBusyTimeOutsideTheProbeIsSplitByWhoseItIs() {
        List<ObjectNode> runs = List.of(
                run(8e9, 6e9, 1.6e9, 0.4e9, 0.08e9), // 75%, 20%, 5%, 1%
                run(8e9, 5.6e9, 1.2e9, 0.48e9, 0.16e9), // 70%, 15%, 6%, 2%
                run(10e9, 8e9, 1.8e9, 0.4e9, 0.1e9)); // 80%, 18%, 4%, 1%
        String why = MissReasons.throughput(runs, Double.NaN).text();
        assertEquals(
                "the host's CPUs were busy the whole run, and its injectors and listeners spend more CPU per message"
                        + " under contention than the pair probe's (the CPU rows below); of the machine's busy time"
                        + " (medians) the probe's own processes took 75%, PID 1's threads (the host's init: on a VM, its"
                        + " agent) 18%, DAMON's kdamond 5%, the RCU grace-period kthread, ksoftirqd and the per-CPU"
                        + " kworkers 1%: the model runs none of PID 1's or kdamond's work, which is the host's and not"
                        + " the kernel's netns work",
                why);
    }

    @Test
    public void aLineOfAnOlderProbeGetsNoSplit() {
        ObjectNode old = run(8e9, 6e9, 0, 0, 0.08e9);
        old.remove("window_kdamond_ns");
        old.remove("window_init_ns");
        String why = MissReasons.throughput(List.of(old), Double.NaN).text();
        assertTrue(
                why,
                why.endsWith(
                        "the probe's own processes account for 75% of the machine's busy time (median),"
                                + " the rest is kernel and other work (interrupts, kworkers, task switches, exits) the model does not run"));
    }

    /**
     * Where every run has its sends and messages, the host's CPU per message is set against the model's: 9 + 1 us
     * against 9.5 is about the same, so the CPU went to other work; against 8 us it is more.
     */
    @Test
    public void theHostsCpuPerMessageIsSetAgainstTheModels() {
        ObjectNode r = run(8e9, 6e9, 1.6e9, 0.4e9, 0.08e9).put("sends", 600_000).put("received", 600_000);
        String same = MissReasons.throughput(List.of(r), 9.5).text();
        assertTrue(
                same,
                same.startsWith("the host's CPUs were busy the whole run, and its injectors and listeners cost about"
                        + " what the model's do per message (10.0 against 9.50 us: the CPU rows below), so its CPUs went"
                        + " to other work; of the machine's busy time"));
        String more = MissReasons.throughput(List.of(r), 8).text();
        assertTrue(
                more,
                more.contains("spend more CPU per message under contention than the model's (10.0 against 8.00 us"));
    }
}
