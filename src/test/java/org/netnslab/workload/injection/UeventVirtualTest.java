package org.netnslab.workload.injection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.netnslab.metrics.Invariants.Counter.SEQNUM_OUT_OF_ORDER;

import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Mutex;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.netnslab.uevent.UeventCosts;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The uevent send path in virtual time (costs.uevent on simulated CPUs under each design's lock), on small
 * TC1- and hazards-shaped runs, on the fifo machine ({@code machine.scheduler = fifo}). Simulated figures are deterministic, so directions are asserted exactly.
 */
public class UeventVirtualTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();
    /** The class's virtual system; its machine's locks are read after a run. */
    @ClassRule
    public static final VirtualRuns RUNS = new VirtualRuns("uevent-virtual");

    private RunResult run(String netns, int listeners, int injectors, int cpus, String designs) throws Exception {
        String text = String.join(
                "\n",
                "name = uevent-virtual",
                "description = \"uevent costs in virtual time\"",
                "seed = \"TC1 in miniature\"",
                "workload {",
                "  type = uevent-injection",
                "  netns { " + netns + " }",
                "  listeners-per-netns = " + listeners,
                "  injections-per-netns = 400",
                "  warmup-per-netns = 20",
                "  injectors = " + injectors,
                "}",
                "execution = virtual",
                // the fifo machine of kernel steps only, whose exact directions these tests assert (the fair
                // scheduler's are FairInjectionTest's)
                "machine { cpus = " + cpus + ", scheduler = fifo }",
                "designs = [" + designs + "]",
                "");
        return RUNS.run(tmp, text);
    }

    private static DesignResult design(RunResult r, String name) {
        return VirtualRuns.design(r, name);
    }

    private static double mean(RunResult r, String name) {
        return design(r, name)
                .recorders()
                .get(UeventInjectionWorkload.TRANSACTION)
                .meanNanos();
    }

    private static long outOfOrder(RunResult r, String name) {
        return design(r, name).invariants().get(SEQNUM_OUT_OF_ORDER);
    }

    /** TC1's shape: the global mutex loses to per-netns locks once CPUs run senders at once, not on one CPU. */
    @Test
    public void perNetnsBeatsGlobalMutexWithCpusAndTiesOnOne() throws Exception {
        RunResult eight = run("userns-owned = 16", 1, 16, 8, "kernel-4.18, per-netns-2018");
        double global8 = mean(eight, "kernel-4.18");
        double own8 = mean(eight, "per-netns-2018");
        assertTrue("8 CPUs: per-netns " + own8 + " ns must beat kernel-4.18 " + global8 + " ns", own8 < 0.8 * global8);
        RunResult one = run("userns-owned = 16", 1, 16, 1, "kernel-4.18, per-netns-2018");
        double global1 = mean(one, "kernel-4.18");
        double own1 = mean(one, "per-netns-2018");
        assertTrue(
                "1 CPU: per-netns " + own1 + " ns within 5% of kernel-4.18 " + global1 + " ns",
                Math.abs(own1 / global1 - 1) <= 0.05);
    }

    /** The same scenario twice: identical simulated figures. */
    @Test
    public void sameInputsSameFigures() throws Exception {
        double a = mean(run("userns-owned = 4", 1, 8, 4, "kernel-6.9"), "kernel-6.9");
        double b = mean(run("userns-owned = 4", 1, 8, 4, "kernel-6.9"), "kernel-6.9");
        assertEquals(a, b, 0.0);
    }

    /** Two senders per netns on several CPUs: v6.9 delivers out of order, the mutex designs never. */
    @Test
    public void locklessReordersMutexDesignsNever() throws Exception {
        RunResult r = run(
                "userns-owned = 4, init-owned = 2",
                2,
                12,
                4,
                "kernel-4.18, per-netns-2018, per-netns-2018-fixed, kernel-6.9");
        assertTrue("kernel-6.9 out of order", outOfOrder(r, "kernel-6.9") > 0);
        assertEquals(0, outOfOrder(r, "kernel-4.18"));
        assertEquals(0, outOfOrder(r, "per-netns-2018"));
        assertEquals(0, outOfOrder(r, "per-netns-2018-fixed"));
    }

    /** uevent_sock_mutex: contended under kernel-4.18, never taken for userns-owned netns under per-netns-2018. */
    @Test
    public void globalMutexContendedOnlyUnderKernel418() throws Exception {
        run("userns-owned = 8", 1, 8, 8, "kernel-4.18");
        Mutex global = Machine.get(RUNS.system()).mutex("uevent_sock_mutex");
        assertTrue("acquisitions " + global.acquisitions(), global.acquisitions() >= 8 * 420);
        assertTrue("contended " + global.contended(), global.contended() > global.acquisitions() / 2);
        run("userns-owned = 8", 1, 8, 8, "per-netns-2018");
        Mutex again = Machine.get(RUNS.system()).mutex("uevent_sock_mutex");
        assertEquals(0, again.acquisitions());
        assertEquals(0, again.contended());
    }

    /** The broadcast walk is charged per listener socket bound in the whole system, not per netns. */
    @Test
    public void insideCostScalesWithSystemWideListeners() {
        UeventCosts c = new UeventCosts(3_000, 2_000, 45, 1_000, 1_000, 2_000);
        assertEquals(2_000 + 1_000 * 45 + 1_000, c.inside(1_000, 1));
        assertEquals(2_000, c.inside(0, 0));
    }

    /** Beyond the cached sockets each bound socket costs the uncached extra on top of the per-socket walk. */
    @Test
    public void insideCostAddsTheUncachedExtraBeyondTheKnee() {
        UeventCosts c = new UeventCosts(3_000, 2_000, 8, 1_000, 1_000, 2_000, 0, 0, 0, 0, 0, 0, 0, 14, 1_000, 0, 0, 0);
        assertEquals(2_000 + 3_000 * 8 + 2_000 * 14 + 1_000, c.inside(3_000, 1));
        assertEquals(2_000 + 1_000 * 8 + 1_000, c.inside(1_000, 1)); // at the knee: no extra yet
        UeventCosts linear =
                new UeventCosts(3_000, 2_000, 8, 1_000, 1_000, 2_000, 0, 0, 0, 0, 0, 0, 0, 0, 1_000, 0, 0, 0);
        assertEquals(2_000 + 3_000 * 8 + 1_000, linear.inside(3_000, 1));
    }
}
