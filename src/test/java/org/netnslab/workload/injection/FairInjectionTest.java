package org.netnslab.workload.injection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.netnslab.metrics.Invariants.Counter.SEQNUM_DUPLICATES;
import static org.netnslab.metrics.Invariants.Counter.SEQNUM_OUT_OF_ORDER;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.machine.Machine;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.SharingCounters;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The uevent send path under the fair scheduler ({@code machine.scheduler = fair}) on 2 CPUs: M senders
 * into one netns; and load-tests/uevent-hazards.conf (64 CPUs). Simulated figures are deterministic, so they
 * are asserted exactly where they can be.
 */
public class FairInjectionTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @ClassRule
    public static final VirtualRuns RUNS = new VirtualRuns("fair-injection");

    private RunResult run(int senders, String designs) throws Exception {
        return run(senders, designs, "");
    }

    private RunResult run(int senders, String designs, String more) throws Exception {
        String text = String.join(
                "\n",
                "name = fair-injection",
                "description = \"M senders into one netns on 2 CPUs, fair scheduler\"",
                "seed = \"none\"",
                "workload {",
                "  type = uevent-injection",
                "  netns { userns-owned = 1 }",
                "  listeners-per-netns = 1",
                "  injections-per-netns = 4000",
                "  warmup-per-netns = 40",
                "  injectors = " + senders,
                "}",
                "execution = virtual",
                "machine { cpus = 2, scheduler = fair, preempt = none }",
                "designs = [" + designs + "]",
                more,
                "");
        return RUNS.run(tmp, text);
    }

    private static RunResult run(Path file, double scale) throws Exception {
        return RUNS.run(file, scale);
    }

    private static DesignResult design(RunResult r, String name) {
        return VirtualRuns.design(r, name);
    }

    /**
     * v6.9's lockless send reorders two senders' messages into one netns at M = 2, 4, 8 on 2 CPUs; the
     * mutex designs never do. (Whether the share grows with M is a prediction for the calibrate issue to
     * check; this model's counts are in the failure message.)
     */
    @Test
    public void locklessReordersAtEveryMMutexDesignsNever() throws Exception {
        StringBuilder counts = new StringBuilder();
        for (int m : new int[] {2, 4, 8}) {
            RunResult r = run(m, "kernel-6.9, kernel-4.18, per-netns-2018");
            long lockless = design(r, "kernel-6.9").invariants().get(SEQNUM_OUT_OF_ORDER);
            counts.append(" M=").append(m).append(": ").append(lockless);
            assertTrue("kernel-6.9 out of order" + counts, lockless > 0);
            assertEquals(0, (long) design(r, "kernel-4.18").invariants().get(SEQNUM_OUT_OF_ORDER));
            assertEquals(0, (long) design(r, "per-netns-2018").invariants().get(SEQNUM_OUT_OF_ORDER));
        }
    }

    /**
     * The slice-sized tail at workload level: 8 lockless senders on 2 CPUs; the median send is one call's
     * cost (about 7 us), the longest waited for other senders' slices (at least one slice, 1.5 ms). Cut at their
     * slices (13 preemptions), the senders share the CPUs to the end: all 8 finish in the last quarter.
     */
    @Test
    public void sendersBeyondTheCpusShowTheSliceTail() throws Exception {
        RunResult r = run(8, "kernel-6.9");
        Histogram h = design(r, "kernel-6.9")
                .recorders()
                .get(UeventInjectionWorkload.TRANSACTION)
                .histogram();
        assertTrue("p50 " + h.getValueAtPercentile(50), h.getValueAtPercentile(50) < 20_000);
        assertTrue("max " + h.getMaxValue(), h.getMaxValue() >= 1_500_000);
        var counters = design(r, "kernel-6.9").counters();
        assertEquals(Long.valueOf(13), counters.get(SharingCounters.INJECTOR_PREEMPTIONS));
        assertEquals(Long.valueOf(8), counters.get(SharingCounters.INJECTORS_ENDING_LAST_QUARTER));
    }

    /**
     * TC1's shape: 40 injectors each into its own netns and listener, 20 sends each (about 0.1 ms of CPU, far inside
     * a slice), on 2 CPUs with no jitter. A listener was set up before the load and sleeps until its first message, so
     * that wake-up places it with lag 0 and a whole slice: its deadline is not earlier than the waiting injectors',
     * and no injector is preempted after its first send. (With a fork's half slice, every listener's first wake-up was
     * the earliest deadline and its injector, run past V, yielded at the send's return and waited for the others:
     * the longest send took 2.7 ms.)
     */
    @Test
    public void aListenersFirstWakeUpDoesNotPreemptItsInjector() throws Exception {
        RunResult r = run(
                40,
                "kernel-6.9",
                String.join(
                        "\n",
                        "workload.netns.userns-owned = 40",
                        "workload.injections-per-netns = 20",
                        "workload.warmup-per-netns = 0",
                        "machine.jitter = 0"));
        Histogram h = design(r, "kernel-6.9")
                .recorders()
                .get(UeventInjectionWorkload.TRANSACTION)
                .histogram();
        assertEquals(800, h.getTotalCount());
        assertTrue("the longest send " + h.getMaxValue() + " ns", h.getMaxValue() < 20_000);
        // none preempted, each running its sends out in one turn, one after another: a quarter end in the last quarter
        var counters = design(r, "kernel-6.9").counters();
        assertEquals(Long.valueOf(0), counters.get(SharingCounters.INJECTOR_PREEMPTIONS));
        assertEquals(Long.valueOf(10), counters.get(SharingCounters.INJECTORS_ENDING_LAST_QUARTER));
    }

    /**
     * costs.uevent.wake-listener: one sender on 2 CPUs finds its listener asleep at every send (the listener's
     * recvmsg and handling, 3 us, end before the sender's next call), so with no jitter every send takes exactly
     * the wake-up's 5 us longer; the listener's own work is unchanged.
     */
    @Test
    public void aSendThatFindsItsListenerAsleepPaysTheWakeUp() throws Exception {
        RunResult r = run(
                1,
                "kernel-6.9, waking",
                String.join(
                        "\n",
                        "custom-designs.waking { uevent { serialization = lockless, seqnum-scope = global },"
                                + " costs.uevent.wake-listener = 5us }",
                        "machine.jitter = 0"));
        double plain = design(r, "kernel-6.9")
                .recorders()
                .get(UeventInjectionWorkload.TRANSACTION)
                .meanNanos();
        double waking = design(r, "waking")
                .recorders()
                .get(UeventInjectionWorkload.TRANSACTION)
                .meanNanos();
        assertEquals(5_000.0, waking - plain, 0.0);
    }

    /**
     * costs.uevent.injector-exit: two senders and their listener on one CPU; the sender that finishes first exits (1 ms
     * on its CPU) while the other still sends, so the counted phase lasts 1 ms longer (and at most two task switches
     * more), and the injectors' CPU, read before their exits as a probe's clock is, does not change.
     */
    @Test
    public void aFinishedInjectorsExitTakesTheCpuButIsNotItsCpu() throws Exception {
        RunResult r = run(
                2,
                "kernel-6.9, exiting",
                String.join(
                        "\n",
                        "custom-designs.exiting { uevent { serialization = lockless, seqnum-scope = global },"
                                + " costs.uevent.injector-exit = 1ms }",
                        "machine.jitter = 0",
                        "machine.cpus = 1"));
        DesignResult plain = design(r, "kernel-6.9");
        DesignResult exiting = design(r, "exiting");
        assertEquals(plain.counters().get("injector_cpu_us"), exiting.counters().get("injector_cpu_us"));
        double longer = exiting.wallSeconds() - plain.wallSeconds();
        long sw = com.typesafe.config.ConfigFactory.defaultReference()
                .getDuration("netns-lab.machine.context-switch")
                .toNanos();
        assertTrue(
                "the phase " + longer * 1e6 + " us longer",
                longer >= 1e-3 - 1e-9 && longer <= 1e-3 + 2 * sw / 1e9 + 1e-9);
    }

    /**
     * An injector's exit hands its frees to kernel threads (rcu.ExitFrees): four senders on 2 CPUs, no jitter, free
     * task switches; each exit's callbacks (7 us) run on a ksoftirqd and its stack's vfree (3 us) on a kworker after a
     * grace period, so the run's RCU threads spent exactly 4 x 7 us (the grace-period kthread costs nothing here) and
     * its kworkers 4 x 3 us more than without them (the teardown's cleanup_net kworker is the same in both).
     */
    @Test
    public void theInjectorsExitsWakeKernelThreads() throws Exception {
        long[] rcu = new long[2];
        long[] kworker = new long[2];
        for (int i = 0; i < 2; i++) {
            String costs = i == 0
                    ? ""
                    : ", costs.uevent.injector-exit-callbacks = 7us, costs.uevent.injector-exit-vfree = 3us";
            run(
                    4,
                    "freeing",
                    String.join(
                            "\n",
                            "custom-designs.freeing { uevent { serialization = lockless, seqnum-scope = global },"
                                    + " costs.uevent.injector-exit = 100us" + costs + " }",
                            "machine.jitter = 0",
                            "machine.context-switch = 0"));
            Machine m = Machine.get(RUNS.system()); // the design run's machine, as the run left it
            rcu[i] = m.cpuNanos(org.netnslab.machine.CpuTask.Kind.RCU);
            kworker[i] = m.cpuNanos(org.netnslab.machine.CpuTask.Kind.KWORKER);
        }
        assertEquals(0, rcu[0]);
        assertEquals(4 * 7_000, rcu[1]);
        assertEquals(4 * 3_000, kworker[1] - kworker[0]);
    }

    /**
     * costs.uevent.table-waiter: a finished injector's exit releases its socket (netlink_release ->
     * netlink_table_grab), which waits while a broadcast walks; each broadcast that ends with no other in flight then
     * walks the queued release (nl_table_wait's wake-up). On 2 CPUs, four senders: the others' broadcasts pay for the
     * waiting exits, lockless and under uevent_sock_mutex alike. On 1 CPU no broadcast walks while an exit runs (preempt
     * none: a send's steps keep the CPU), so no release ever waits and the cost changes nothing.
     */
    @Test
    public void aReleaseWaitingForTheTableCostsTheBroadcastsThatWalkIt() throws Exception {
        String designs = "custom-designs { exiting { uevent { serialization = lockless, seqnum-scope = global },"
                + " costs.uevent.injector-exit = 100us }, walking { uevent { serialization = lockless, seqnum-scope = global },"
                + " costs.uevent.injector-exit = 100us, costs.uevent.table-waiter = 10us },"
                + " locked { uevent { serialization = global-owner, seqnum-scope = global }, costs.uevent.send-inside = 200us,"
                + " costs.uevent.injector-exit = 100us }, locked-walking { uevent { serialization = global-owner,"
                + " seqnum-scope = global }, costs.uevent.send-inside = 200us, costs.uevent.injector-exit = 100us,"
                + " costs.uevent.table-waiter = 10us } }";
        RunResult two =
                run(4, "exiting, walking, locked, locked-walking", String.join("\n", designs, "machine.jitter = 0"));
        long without = design(two, "exiting").counters().get("injector_cpu_us");
        long with = design(two, "walking").counters().get("injector_cpu_us");
        long lockedWithout = design(two, "locked").counters().get("injector_cpu_us");
        long lockedWith = design(two, "locked-walking").counters().get("injector_cpu_us");
        // lockless: the run is deterministic and the waits change nothing else it counts: sixteen walks of one waiter
        // (eight while a uevent listener's first wake-up was placed as a fork's: the exits then met other broadcasts)
        assertEquals("lockless", 16 * 10, with - without);
        // under uevent_sock_mutex (its inside part made long, so a release finds it walking): the walks are paid under
        // the
        // lock, and the woken release moves the other tasks' timing a little, so at least one walk's 10 us
        assertTrue("locked " + lockedWithout + " -> " + lockedWith, lockedWith - lockedWithout >= 10);
        RunResult one =
                run(4, "exiting, walking", String.join("\n", designs, "machine.jitter = 0", "machine.cpus = 1"));
        assertEquals(
                design(one, "exiting").counters().get("injector_cpu_us"),
                design(one, "walking").counters().get("injector_cpu_us"));
    }

    /**
     * A refused send (EPERM: the injector lacks CAP_SYS_ADMIN over the netns's owner) broadcasts nothing, so under a
     * lock it wakes no listener either: the same figures with and without the wake-up's cost.
     */
    @Test
    public void aRefusedSendUnderALockPaysNoWakeUp() throws Exception {
        RunResult r = run(
                1,
                "kernel-4.18, waking",
                String.join(
                        "\n",
                        "custom-designs.waking { uevent { serialization = global-owner, seqnum-scope = global },"
                                + " costs.uevent.wake-listener = 5us }",
                        "workload.injectors-privileged = false",
                        "machine.jitter = 0"));
        // refused sends record no transaction; the injector's CPU shows what they cost
        long plain = design(r, "kernel-4.18").counters().get("injector_cpu_us");
        long waking = design(r, "waking").counters().get("injector_cpu_us");
        assertTrue("the refused sends' CPU " + plain, plain > 0);
        assertEquals(plain, waking);
    }

    /**
     * A device task's kernel uevents carry no sender to check: under a lock (kernel-4.18) and lockless they are
     * broadcast like injections, none refused, and under the lock none out of order.
     */
    @Test
    public void kernelUeventsUnderALockNeedNoSender() throws Exception {
        RunResult r = run(1, "kernel-4.18, kernel-6.9", "workload.kernel-uevents-per-netns = 50");
        for (String d : List.of("kernel-4.18", "kernel-6.9")) {
            assertEquals(d, 0L, (long) design(r, d).invariants().get(org.netnslab.metrics.Invariants.Counter.EPERM));
            assertTrue(
                    d,
                    design(r, d)
                                    .recorders()
                                    .get(UeventInjectionWorkload.TRANSACTION)
                                    .histogram()
                                    .getTotalCount()
                            > 0);
        }
        assertEquals(0L, (long) design(r, "kernel-4.18").invariants().get(SEQNUM_OUT_OF_ORDER)); // lockless may reorder
    }

    /**
     * Determinism under the fair scheduler: the same inputs give the same figures, also when the second run
     * starts at a later simulated clock (the ticks count from the design run's machine, not from 0).
     */
    @Test
    public void sameInputsSameFiguresUnderFair() throws Exception {
        DesignResult a = design(run(4, "kernel-6.9"), "kernel-6.9");
        DesignResult b = design(run(4, "kernel-6.9"), "kernel-6.9"); // on a clock that starts later
        assertEquals(
                a.recorders().get(UeventInjectionWorkload.TRANSACTION).meanNanos(),
                b.recorders().get(UeventInjectionWorkload.TRANSACTION).meanNanos(),
                0.0);
        assertEquals(a.invariants().get(SEQNUM_OUT_OF_ORDER), b.invariants().get(SEQNUM_OUT_OF_ORDER));
    }

    /** @return load-tests/uevent-hazards.conf as it stands at --scale 0.005, per design: {out of order, duplicates} */
    private static Map<String, List<Long>> hazards() throws Exception {
        Map<String, List<Long>> counts = new LinkedHashMap<>();
        for (DesignResult d :
                run(Path.of("load-tests/uevent-hazards.conf"), 0.005).designs()) {
            counts.put(
                    d.name(),
                    List.of(
                            d.invariants().get(SEQNUM_OUT_OF_ORDER),
                            d.invariants().get(SEQNUM_DUPLICATES)));
        }
        return counts;
    }

    /**
     * load-tests/uevent-hazards.conf (virtual, 64 CPUs, fair): kernel-4.18 bumps uevent_seqnum and broadcasts
     * under uevent_sock_mutex on every path, in order. per-netns-2018 (the patch as posted): a
     * user-namespace-owned netns's injections bump its counter under its own mutex, its device's tagged kernel
     * uevents under uevent_sock_mutex; a bump under one lock falls between the other path's bump and broadcast and
     * its broadcast comes first: out of order. The fixed form takes the netns's own mutex for both: in order.
     * kernel-6.9: atomic64_inc_return and no lock, four injectors and a device task per netns: out of order most of
     * all. No duplicates: a virtual bump is one instant, never two CPUs inside one {@code ++}. Twice: the same
     * counts.
     */
    @Test
    public void theTwoLockRaceAndTheLocklessReorderingShowOnEveryHazardsRun() throws Exception {
        Map<String, List<Long>> expected = new LinkedHashMap<>();
        expected.put("kernel-4.18", List.of(0L, 0L));
        expected.put("per-netns-2018", List.of(2L, 0L));
        expected.put("per-netns-2018-fixed", List.of(0L, 0L));
        expected.put("kernel-6.9", List.of(177L, 0L));
        assertEquals(expected, hazards());
        assertEquals("the same inputs: the same counts", expected, hazards());
    }
}
