package org.netnslab.machine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Exact results of the fair (EEVDF) scheduler and the preemption models of {@link Cpus}, driven straight on
 * a {@link VirtualEngine} (no actors: a task's next step is asked for in its step's continuation, which is
 * what a model actor's zero-time tells amount to).
 */
public class FairSchedulerTest extends JUnitSuite {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    private static Scheduling fair(Scheduling.Preempt p, int hz, long slice) {
        return new Scheduling(Scheduling.Scheduler.FAIR, p, hz, slice, 0);
    }

    /** Runs the engine up to {@code until} ns (also for {@link TaskGroupTest}). */
    static void runFor(VirtualEngine e, long until) throws Exception {
        e.schedule(until - e.now(), () -> {});
        e.runUntil(() -> e.now() >= until, t -> {}, 1_000_000_000L);
    }

    /** A CPU-bound task: user steps of {@code step} ns back to back, forever. */
    static void hog(Cpus cpus, CpuTask t, long step) {
        cpus.run(t, Step.USER, step, () -> hog(cpus, t, step));
    }

    /**
     * N CPU-bound tasks on P CPUs get equal CPU time over 20 s, within one slice as the tick enforces it
     * (without HRTICK a slice ends at the first tick past it: the slice rounded up to whole ticks).
     */
    @Test
    public void cpuBoundTasksGetEqualSharesWithinOneSlice() throws Exception {
        int[][] cases = {{1, 3}, {2, 5}, {2, 16}, {4, 7}, {8, 40}};
        for (int[] pn : cases) {
            VirtualEngine e = VirtualEngine.create();
            try {
                FairCpus cpus = new FairCpus(e, pn[0], fair(Scheduling.Preempt.NONE, 250, 0));
                List<CpuTask> tasks = new ArrayList<>();
                for (int i = 0; i < pn[1]; i++) {
                    CpuTask t = cpus.newTask("hog-" + i, CpuTask.Kind.OTHER);
                    tasks.add(t);
                    hog(cpus, t, 37 * US + i * US); // unequal step lengths, so no lock-step
                }
                long run = 20_000 * MS;
                runFor(e, run);
                double share = (double) cpus.counters().busyNanos() / pn[1];
                long tick = cpus.scheduling().tickNanos();
                long slice = (cpus.sliceNanos() + tick - 1) / tick * tick;
                for (CpuTask t : tasks) {
                    long cpu = t.userNanos() + t.kernelNanos();
                    assertTrue(
                            "P=" + pn[0] + " N=" + pn[1] + " " + t + " ran " + cpu + " ns, fair share " + share
                                    + ", slice " + slice,
                            Math.abs(cpu - share) <= slice);
                }
                // the CPUs were never idle
                assertTrue(cpus.counters().busyNanos() >= (long) pn[0] * run - (long) pn[0] * 100 * US);
            } finally {
                e.unregister();
            }
        }
    }

    /**
     * A per-CPU kernel thread (kthread_bind) runs on its CPU only: one busy process on CPU 0 and CPU 1 idle, a thread
     * bound to CPU 0 woken at 1 ms with 100 us of work waits for CPU 0 (the process is inside its slice, so it is not
     * preempted at the wake-up) until the tick at 4 ms finds the process past its 1.5 ms slice: it runs 4.0 to 4.1 ms
     * on CPU 0. An unbound thread woken at the same time takes the idle CPU 1 at once: 1.0 to 1.1 ms.
     */
    @Test
    public void aBoundTaskWaitsForItsCpuWhileAnotherIsIdle() throws Exception {
        for (boolean bound : new boolean[] {true, false}) {
            VirtualEngine e = VirtualEngine.create();
            try {
                Cpus cpus = new FairCpus(e, 2, fair(Scheduling.Preempt.NONE, 250, 0));
                hog(cpus, cpus.newTask("busy", CpuTask.Kind.OTHER), 50 * US);
                CpuTask k = bound
                        ? cpus.newTask("ksoftirqd/0", CpuTask.Kind.RCU, false, 0)
                        : cpus.newTask("kworker/u", CpuTask.Kind.KWORKER, false);
                long[] ran = {-1, -1};
                e.schedule(
                        MS,
                        () -> cpus.run(k, Step.KERNEL, 100 * US, () -> {
                            ran[0] = k.cpu();
                            ran[1] = e.now();
                        }));
                runFor(e, 10 * MS);
                assertEquals(bound ? "bound to CPU 0" : "unbound", bound ? 0 : 1, ran[0]);
                assertEquals(bound ? 4 * MS + 100 * US : MS + 100 * US, ran[1]);
                assertEquals(bound ? 0 : -1, k.bound());
            } finally {
                e.unregister();
            }
        }
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, 2, fair(Scheduling.Preempt.NONE, 250, 0));
            IllegalArgumentException x = org.junit.Assert.assertThrows(
                    IllegalArgumentException.class, () -> cpus.newTask("ksoftirqd/2", CpuTask.Kind.RCU, false, 2));
            assertEquals("ksoftirqd/2: bound to CPU 2, the machine has CPUs 0..1", x.getMessage());
            x = org.junit.Assert.assertThrows(
                    IllegalArgumentException.class, () -> cpus.newTask("injector-0", CpuTask.Kind.INJECTOR, false, 0));
            assertEquals(
                    "injector-0: only a kernel thread (kworker, rcu, device) is bound to a CPU, got injector",
                    x.getMessage());
        } finally {
            e.unregister();
        }
    }

    /**
     * A task preempted for a thread bound to its CPU goes on at once on an idle CPU (the global queue stands for a
     * balanced machine): one busy process on CPU 0, CPU 1 idle, ksoftirqd/0 woken at 1 ms with 2 ms of work preempts
     * it at the 4 ms tick (the process is past its slice) and the process is on CPU 1 the same instant, waiting a
     * context switch's nothing (0 here): it loses no CPU time to the thread.
     */
    @Test
    public void aTaskPreemptedForABoundThreadTakesAnIdleCpu() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, 2, fair(Scheduling.Preempt.NONE, 250, 0));
            CpuTask busy = cpus.newTask("busy", CpuTask.Kind.OTHER);
            hog(cpus, busy, 50 * US);
            CpuTask k = cpus.newTask("ksoftirqd/0", CpuTask.Kind.RCU, false, 0);
            e.schedule(MS, () -> cpus.run(k, Step.KERNEL, 2 * MS, () -> {}));
            runFor(e, 10 * MS);
            assertEquals("the thread ran its 2 ms", 2 * MS, k.kernelNanos());
            assertEquals("the process never waited for a CPU", 0, busy.waitNanos());
            // all of the 10 ms but its step in progress (steps are accounted when they end)
            assertEquals(10 * MS - 50 * US, busy.userNanos());
        } finally {
            e.unregister();
        }
    }

    /**
     * Under task-group session, two busy processes on two CPUs: ksoftirqd/1 woken at 1 ms waits for CPU 1's own tick,
     * however CPU 0's tick goes (the load's group entity is past its slice at the 4 ms tick: CPU 0 is looked at first,
     * has no thread that may run there, and leaves the group's slice for CPU 1 to renew): it runs on CPU 1 at 4 ms.
     */
    @Test
    public void aBoundThreadIsTakenByItsOwnCpusTickInATaskGroup() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(
                    e,
                    2,
                    new Scheduling(
                            Scheduling.Scheduler.FAIR,
                            Scheduling.Preempt.NONE,
                            250,
                            0,
                            0,
                            Scheduling.TaskGroup.SESSION));
            hog(cpus, cpus.newTask("busy-0", CpuTask.Kind.OTHER), 50 * US);
            hog(cpus, cpus.newTask("busy-1", CpuTask.Kind.OTHER), 50 * US);
            CpuTask k = cpus.newTask("ksoftirqd/1", CpuTask.Kind.RCU, false, 1);
            long[] ran = {-1, -1};
            e.schedule(
                    MS,
                    () -> cpus.run(k, Step.KERNEL, 100 * US, () -> {
                        ran[0] = k.cpu();
                        ran[1] = e.now();
                    }));
            runFor(e, 10 * MS);
            assertEquals(1, ran[0]);
            assertEquals(4 * MS + 100 * US, ran[1]);
        } finally {
            e.unregister();
        }
    }

    /**
     * A task that slept 1 s wakes among CPU-bound tasks and gets a CPU within one slice of the others'
     * running (the tick marks them, then the return to user mode switches): at most slice + tick. The sleeper
     * first runs among the hogs for 100 ms, so it wakes through the lag path (place_entity with the lag it kept),
     * not a new task's placement.
     */
    @Test
    public void taskWokenAfterLongSleepRunsWithinASlice() throws Exception {
        for (int n : new int[] {3, 10, 50}) {
            long[] waited = wakeAfterASecond(n, null);
            assertTrue("N=" + n + ": it kept a lag from its runs (" + waited[1] + " ns)", waited[1] != 0);
            long bound = 1_500 * US + 4 * MS; // the slice at 2 CPUs and a tick at HZ 250
            assertTrue(
                    "N=" + n + ": waited " + waited[0] + " ns for a CPU, bound " + bound,
                    waited[0] >= 0 && waited[0] <= bound);
        }
    }

    /**
     * A task that went to sleep ahead of V (negative lag, here the most the model keeps: max(2 slices, a tick) =
     * 4 ms at 2 CPUs) has slept it off after a second (DELAY_DEQUEUE keeps such a task queued until it is eligible):
     * it waits for a CPU exactly as long as one that went to sleep with lag 0. Kept, that lag would place it 4 ms
     * of vruntime past V, to wait for V to catch up (at 2 CPUs over N hogs, 2N ms of real time and more).
     */
    @Test
    public void aNegativeLagIsSleptOff() throws Exception {
        for (int n : new int[] {3, 10, 50}) {
            assertEquals("N=" + n, wakeAfterASecond(n, 0L)[0], wakeAfterASecond(n, -4 * MS)[0]);
        }
    }

    /**
     * N hogs on 2 CPUs; a task that runs 1 ms steps among them to 100 ms, sleeps and wakes at 1 s for a 10 us step.
     *
     * @param lag null, or the lag (ns) to give it while it sleeps, in place of the one it kept
     * @return {the wait from its wake-up to its step's start, the lag it kept when it went to sleep}, ns
     */
    private static long[] wakeAfterASecond(int n, Long lag) throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, 2, fair(Scheduling.Preempt.NONE, 250, 0));
            for (int i = 0; i < n; i++) {
                hog(cpus, cpus.newTask("hog-" + i, CpuTask.Kind.OTHER), 50 * US + i * 100);
            }
            CpuTask sleeper = cpus.newTask("sleeper", CpuTask.Kind.OTHER);
            hogUntil(e, cpus, sleeper, 100 * MS);
            long[] kept = new long[1];
            e.schedule(500 * MS, () -> {
                kept[0] = sleeper.vlag;
                if (lag != null) {
                    sleeper.vlag = lag;
                }
            });
            long[] wokeAt = new long[1];
            long[] ranAt = new long[1];
            e.schedule(1_000 * MS, () -> {
                wokeAt[0] = e.now();
                cpus.run(sleeper, Step.USER, 10 * US, () -> ranAt[0] = e.now() - 10 * US);
            });
            runFor(e, 1_100 * MS);
            return new long[] {ranAt[0] - wokeAt[0], kept[0]};
        } finally {
            e.unregister();
        }
    }

    /** User steps of 1 ms back to back until {@code until} ns, then it sleeps. */
    private static void hogUntil(VirtualEngine e, Cpus cpus, CpuTask t, long until) {
        cpus.run(t, Step.USER, 1 * MS, () -> {
            if (e.now() < until) {
                hogUntil(e, cpus, t, until);
            }
        });
    }

    /**
     * The tick preempts only a task past its slice: A (slice 10 ms, first deadline at half a slice, 5 ms) runs
     * a 20 ms user step; B wakes at 1 ms. The ticks at 4 ms (A not past its deadline) leave A; the tick at
     * 8 ms preempts it, so B runs from 8 ms exactly.
     */
    @Test
    public void tickPreemptsOnlyATaskPastItsSlice() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, 1, fair(Scheduling.Preempt.NONE, 250, 10 * MS));
            CpuTask a = cpus.newTask("A", CpuTask.Kind.OTHER);
            CpuTask b = cpus.newTask("B", CpuTask.Kind.OTHER);
            long[] bDone = new long[1];
            long[] aDone = new long[1];
            cpus.run(a, Step.USER, 20 * MS, () -> aDone[0] = e.now());
            e.schedule(1 * MS, () -> cpus.run(b, Step.USER, 100 * US, () -> bDone[0] = e.now()));
            runFor(e, 50 * MS);
            assertEquals(8 * MS + 100 * US, bDone[0]);
            assertEquals(20 * MS + 100 * US, aDone[0]);
            assertEquals(1, a.preemptions());
            assertEquals(0, b.preemptions());
        } finally {
            e.unregister();
        }
    }

    /**
     * PLACE_DEADLINE_INITIAL is for a fork only: the same as {@link #tickPreemptsOnlyATaskPastItsSlice} with A a process
     * that slept until its first step (not forked), so its first deadline is a whole slice away, 10 ms. The ticks at 4
     * and 8 ms leave it; the tick at 12 ms preempts it, so B runs from 12 ms exactly.
     */
    @Test
    public void aTaskAsleepBeforeItsFirstStepStartsWithAWholeSlice() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, 1, fair(Scheduling.Preempt.NONE, 250, 10 * MS));
            CpuTask a = cpus.newTask("A", CpuTask.Kind.OTHER, false);
            CpuTask b = cpus.newTask("B", CpuTask.Kind.OTHER);
            long[] bDone = new long[1];
            cpus.run(a, Step.USER, 20 * MS, () -> {});
            e.schedule(1 * MS, () -> cpus.run(b, Step.USER, 100 * US, () -> bDone[0] = e.now()));
            runFor(e, 50 * MS);
            assertEquals(12 * MS + 100 * US, bDone[0]);
            assertEquals(1, a.preemptions());
        } finally {
            e.unregister();
        }
    }

    /**
     * A runs a system call of ten 300 us kernel steps then returns to user space; B wakes at 0.5 ms, when A
     * (slice 1 ms, first deadline 0.5 ms) is past its deadline and is marked. Under none A is never preempted
     * inside the call: B runs at the return, 3 ms. Under full A is preempted at the next step boundary,
     * 0.6 ms. Under voluntary, plain kernel steps are no preemption point; cond_resched() ends are, under
     * none too.
     */
    @Test
    public void preemptionModelsDecideWhereASystemCallYields() throws Exception {
        assertEquals(3 * MS, bStart(Scheduling.Preempt.NONE, Step.KERNEL));
        assertEquals(3 * MS, bStart(Scheduling.Preempt.VOLUNTARY, Step.KERNEL));
        assertEquals(600 * US, bStart(Scheduling.Preempt.FULL, Step.KERNEL));
        assertEquals(3 * MS, bStart(Scheduling.Preempt.FULL, Step.ATOMIC)); // a held spinlock
        assertEquals(600 * US, bStart(Scheduling.Preempt.NONE, Step.COND_RESCHED));
        assertEquals(3 * MS, bStart(Scheduling.Preempt.NONE, Step.MIGHT_SLEEP));
        assertEquals(600 * US, bStart(Scheduling.Preempt.VOLUNTARY, Step.MIGHT_SLEEP));
    }

    private static long bStart(Scheduling.Preempt p, Step kind) throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, 1, fair(p, 1000, 1 * MS));
            CpuTask a = cpus.newTask("A", CpuTask.Kind.OTHER);
            CpuTask b = cpus.newTask("B", CpuTask.Kind.OTHER);
            long[] bDone = new long[1];
            syscall(cpus, a, kind, 10);
            e.schedule(500 * US, () -> cpus.run(b, Step.USER, 0, () -> bDone[0] = e.now()));
            runFor(e, 20 * MS);
            return bDone[0];
        } finally {
            e.unregister();
        }
    }

    private static void syscall(Cpus cpus, CpuTask t, Step kind, int left) {
        if (left == 0) {
            cpus.run(t, Step.USER, 5 * MS, () -> {});
        } else {
            cpus.run(t, kind, 300 * US, () -> syscall(cpus, t, kind, left - 1));
        }
    }

    /**
     * The slice-sized tail: N closed loops (user 100 us, then a 200 us system call, timed from before the
     * call to the return to user space) on 2 CPUs. p50 stays one call; p99 grows with N/P slices.
     */
    @Test
    public void closedLoopShowsTheSliceSizedTail() throws Exception {
        long prevP99 = 0;
        for (int n : new int[] {8, 32, 128}) {
            long[] lat = closedLoop(2, n, 2_000 * MS);
            Arrays.sort(lat);
            long p50 = lat[lat.length / 2];
            long p99 = lat[(int) (lat.length * 0.99)];
            long slice = fair(Scheduling.Preempt.NONE, 250, 0).sliceNanos(2);
            // without HRTICK a slice ends at the first tick past it, and under preempt=none at the call's return: one
            // task's turn is at most a slice, a tick (4 ms) and a call
            long turn = slice + 4 * MS + 200 * US;
            assertEquals("N=" + n + " p50", 200 * US, p50);
            assertTrue(
                    "N=" + n + " p99 " + p99 + " should be about (N/P - 1) slices",
                    p99 >= (n / 2 - 1) * slice && p99 > prevP99);
            assertTrue(
                    "N=" + n + " p99 " + p99 + " at most the N/P turns of the others and its own call",
                    p99 <= n / 2 * turn);
            prevP99 = p99;
        }
    }

    /** The base slice as Linux derives it at boot: 0.75 ms x (1 + ilog2(min(CPUs, 8))); a configured one wins. */
    @Test
    public void theSliceIsDerivedFromTheCpuCountAsLinuxDoes() {
        Scheduling derived = fair(Scheduling.Preempt.NONE, 250, 0);
        // ilog2 rounds down: 3 CPUs as 2 (1.5 ms), 5-7 as 4 (2.25 ms)
        long[] expected = {
            750 * US, 1_500 * US, 1_500 * US, 2_250 * US, 2_250 * US, 2_250 * US, 2_250 * US, 3 * MS, 3 * MS, 3 * MS
        };
        int[] counts = {1, 2, 3, 4, 5, 6, 7, 8, 16, 64};
        for (int i = 0; i < counts.length; i++) {
            assertEquals(counts[i] + " CPUs", expected[i], derived.sliceNanos(counts[i]));
        }
        assertEquals(5 * MS, fair(Scheduling.Preempt.NONE, 250, 5 * MS).sliceNanos(64));
    }

    /**
     * A switch to another task costs the incoming task {@code machine.context-switch} of kernel time; a CPU leaving
     * idle for a task costs nothing. Two user-mode hogs on one CPU: each one's kernel time is exactly the cost times
     * its switches in; a task that wakes twice to an idle CPU, another task having run there in between, has none.
     */
    @Test
    public void aSwitchCostsTheIncomingTaskAndLeavingIdleNothing() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(
                    e, 1, new Scheduling(Scheduling.Scheduler.FAIR, Scheduling.Preempt.NONE, 250, 0, 10 * US));
            CpuTask a = cpus.newTask("A", CpuTask.Kind.OTHER);
            CpuTask b = cpus.newTask("B", CpuTask.Kind.OTHER);
            hog(cpus, a, 500 * US);
            hog(cpus, b, 500 * US);
            runFor(e, 100 * MS);
            assertTrue(a.switchesIn() + " and " + b.switchesIn(), a.switchesIn() >= 10 && b.switchesIn() >= 10);
            assertEquals(10 * US * a.switchesIn(), a.kernelNanos());
            assertEquals(10 * US * b.switchesIn(), b.kernelNanos());
        } finally {
            e.unregister();
        }
        VirtualEngine idle = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(
                    idle, 1, new Scheduling(Scheduling.Scheduler.FAIR, Scheduling.Preempt.NONE, 250, 0, 10 * US));
            CpuTask s = cpus.newTask("sleeper", CpuTask.Kind.OTHER);
            CpuTask other = cpus.newTask("other", CpuTask.Kind.OTHER);
            cpus.run(s, Step.USER, 100 * US, () -> {});
            idle.schedule(5 * MS, () -> cpus.run(other, Step.USER, 100 * US, () -> {})); // another ran last on the CPU
            idle.schedule(10 * MS, () -> cpus.run(s, Step.USER, 100 * US, () -> {}));
            runFor(idle, 20 * MS);
            assertEquals(200 * US, s.userNanos());
            assertEquals(0, s.kernelNanos());
            assertEquals(0, s.switchesIn());
            assertEquals(0, other.kernelNanos());
        } finally {
            idle.unregister();
        }
    }

    private static long[] closedLoop(int p, int n, long run) throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, p, fair(Scheduling.Preempt.NONE, 250, 0));
            long[][] lat = {new long[1 << 16]};
            int[] count = {0};
            for (int i = 0; i < n; i++) {
                CpuTask t = cpus.newTask("loop-" + i, CpuTask.Kind.OTHER);
                loop(cpus, e, t, lat, count);
            }
            runFor(e, run);
            return Arrays.copyOf(lat[0], count[0]);
        } finally {
            e.unregister();
        }
    }

    private static void loop(Cpus cpus, VirtualEngine e, CpuTask t, long[][] lat, int[] count) {
        cpus.run(t, Step.USER, 100 * US, () -> {
            long before = e.now();
            cpus.run(
                    t,
                    Step.KERNEL,
                    200 * US,
                    () -> cpus.run(t, Step.USER, 0, () -> {
                        if (count[0] == lat[0].length) {
                            lat[0] = Arrays.copyOf(lat[0], count[0] * 2);
                        }
                        lat[0][count[0]++] = e.now() - before;
                        loop(cpus, e, t, lat, count);
                    }));
        });
    }

    /**
     * A task asked for many steps while it waits for a CPU (a listener whose messages arrive faster than it
     * is scheduled: one recvmsg per message, each followed by its handling) runs every one, in the order
     * asked for, and its CPU time is their sum. A backlog of two or more once stalled the task for good.
     */
    @Test
    public void backlogOfStepsRunsInOrder() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, 1, fair(Scheduling.Preempt.NONE, 250, 0));
            CpuTask hog = cpus.newTask("hog", CpuTask.Kind.OTHER);
            CpuTask listener = cpus.newTask("listener", CpuTask.Kind.LISTENER);
            hog(cpus, hog, 50 * US);
            List<String> order = new ArrayList<>();
            int messages = 500;
            e.schedule(1 * MS, () -> {
                for (int m = 0; m < messages; m++) { // all arrive at once, while the hog runs
                    int id = m;
                    cpus.run(listener, Step.KERNEL, 1 * US, () -> {
                        order.add("recv-" + id);
                        cpus.run(listener, Step.USER, 100, () -> order.add("handle-" + id));
                    });
                }
            });
            runFor(e, 200 * MS);
            assertEquals(2 * messages, order.size());
            assertEquals("recv-0", order.get(0));
            assertEquals("recv-" + (messages - 1), order.get(messages - 1));
            assertEquals("handle-0", order.get(messages));
            assertEquals(messages * 1 * US, listener.kernelNanos());
            assertEquals(messages * 100L, listener.userNanos());
        } finally {
            e.unregister();
        }
    }

    /**
     * Wake-up preemption as check_preempt_wakeup_fair does it: an injector alone on one CPU sends (user 10 us,
     * then a 5 us system call whose end wakes its listener, as sk_data_ready does), and the listener reads
     * (3 us) and sleeps. The first wake-up finds the injector eligible and inside its slice (the listener, new,
     * is placed at V): it keeps its CPU until the tick after its deadline (4 ms). From then on the listener
     * has slept with positive lag, so the injector is not eligible at each wake-up and is preempted at its
     * return to user space: the listener reads each message at once and the two alternate, as a traced 6.18
     * host shows for an injector and its listener alone on a CPU.
     */
    @Test
    public void wokenListenerPreemptsAnIneligibleWakerAtItsReturn() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, 1, fair(Scheduling.Preempt.NONE, 250, 0));
            CpuTask injector = cpus.newTask("injector", CpuTask.Kind.INJECTOR);
            CpuTask listener = cpus.newTask("listener", CpuTask.Kind.LISTENER);
            List<long[]> reads = new ArrayList<>(); // {sent at, read at}
            send(cpus, e, injector, listener, reads, 400);
            runFor(e, 100 * MS);
            assertEquals(400, reads.size());
            // the messages sent before the tick at 4 ms wait for it (the injector is protected inside its slice), then
            // are read in one go; every later one is read as soon as its send returns
            int waited = 0;
            for (long[] r : reads) {
                if (r[0] < 4 * MS) {
                    waited++;
                    assertEquals("message sent at " + r[0], 4 * MS + waited * 3 * US, r[1]);
                } else {
                    assertEquals("message sent at " + r[0], r[0] + 3 * US, r[1]);
                }
            }
            assertEquals(4 * MS / (15 * US), waited); // a send ends every 15 us from 15 us
            assertEquals(1 + 400 - waited, listener.switchesIn()); // the batch, then one switch per message
            assertEquals(400 - waited, injector.preemptions()); // the tick, then every wake-up but the last (it sleeps)
        } finally {
            e.unregister();
        }
    }

    private static void send(
            Cpus cpus, VirtualEngine e, CpuTask injector, CpuTask listener, List<long[]> reads, int left) {
        if (left == 0) {
            return;
        }
        cpus.run(
                injector,
                Step.USER,
                10 * US,
                () -> cpus.run(injector, Step.KERNEL, 5 * US, () -> {
                    long sent = e.now();
                    cpus.run(listener, Step.KERNEL, 3 * US, () -> reads.add(new long[] {sent, e.now()}));
                    send(cpus, e, injector, listener, reads, left - 1);
                }));
    }
}
