package org.netnslab.machine;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@link Mutex} under the fair scheduler: released with a waiter woken but not yet on a CPU, the lock goes to
 * whoever tries first (__mutex_trylock); the woken waiter that then finds it taken sets HANDOFF, and the next
 * unlock is its (__mutex_handoff). Exact times on 2 CPUs, preempt none, no switch cost, no hand-off latency.
 */
public class MutexTest extends JUnitSuite {
    private static final long US = 1_000;

    /** 2 CPUs, preempt none, no switch cost. */
    private static Cpus twoCpus(VirtualEngine e) {
        return new FairCpus(e, 2, new Scheduling(Scheduling.Scheduler.FAIR, Scheduling.Preempt.NONE, 250, 0, 0));
    }

    /**
     * {@code t} runs {@code before} ns, locks {@code m}, runs {@code granted} and then {@code hold} ns holding it,
     * unlocks, and goes on with {@code after}: every step a kernel step.
     */
    private static void lockOnce(
            Cpus cpus, Mutex m, CpuTask t, long before, long hold, Runnable granted, Runnable after) {
        cpus.run(
                t,
                Step.KERNEL,
                before,
                () -> m.lock(t, () -> {
                    granted.run();
                    cpus.run(t, Step.KERNEL, hold, () -> {
                        m.unlock();
                        after.run();
                    });
                }));
    }

    /**
     * A holds the lock from 10 to 1010 us and then stays in a kernel step to 1510; B waits from 20 us; C, in a kernel
     * step on the other CPU until 1100, takes the free lock there although B waited first (B has no CPU). B runs at
     * 1510, finds C holding it and sets HANDOFF. C unlocks at 4100 and asks again at 4150: the lock was handed to B,
     * which gets a CPU only when C sleeps on the lock (F holds the other CPU), so B has it at 4150 and C after B's
     * 100 us.
     */
    @Test
    public void aFreedLockGoesToARunningTaskUntilTheWokenWaiterFindsItTaken() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = twoCpus(e);
            Mutex m = new Mutex(e, cpus, "m", 0);
            CpuTask a = cpus.newTask("a", CpuTask.Kind.OTHER);
            CpuTask b = cpus.newTask("b", CpuTask.Kind.OTHER);
            CpuTask c = cpus.newTask("c", CpuTask.Kind.OTHER);
            CpuTask f = cpus.newTask("f", CpuTask.Kind.OTHER);
            long[] at = new long[3]; // C's first hold, B's, C's second
            lockOnce(cpus, m, a, 10 * US, 1000 * US, () -> {}, () -> cpus.run(a, Step.KERNEL, 500 * US, () -> {}));
            lockOnce(cpus, m, b, 20 * US, 100 * US, () -> at[1] = e.now(), () -> {});
            lockOnce(
                    cpus,
                    m,
                    c,
                    1080 * US,
                    3000 * US,
                    () -> at[0] = e.now(),
                    () -> lockOnce(cpus, m, c, 50 * US, 10 * US, () -> at[2] = e.now(), () -> {}));
            e.schedule(1600 * US, () -> cpus.run(f, Step.KERNEL, 4400 * US, () -> {}));
            e.schedule(7000 * US, () -> {});
            e.runUntil(() -> e.now() >= 7000 * US, t -> {}, 1_000_000L);
            assertEquals("C took the lock B waited for", 1100 * US, at[0]);
            assertEquals("B had it handed over", 4150 * US, at[1]);
            assertEquals("C again after B", 4250 * US, at[2]);
            assertEquals(1, m.stolen());
            assertEquals(4, m.acquisitions()); // lock calls: A, B, C, C
            assertEquals(2, m.contended()); // B at 20 us, C at 4150
            assertEquals(0, m.waiting());
        } finally {
            e.unregister();
        }
    }

    /**
     * A lock released twice while its first waiter is woken but not yet on a CPU wakes it once (a wake-up of a
     * runnable task is a no-op in wake_up_q): A unlocks at 1010 us, C takes the free lock at 1100 and releases it at
     * 1200, B gets a CPU at 1700 (when C sleeps), takes the lock once and leaves no HANDOFF behind.
     */
    @Test
    public void aWokenWaiterIsWokenOnce() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = twoCpus(e);
            Mutex m = new Mutex(e, cpus, "m", 0);
            CpuTask a = cpus.newTask("a", CpuTask.Kind.OTHER);
            CpuTask b = cpus.newTask("b", CpuTask.Kind.OTHER);
            CpuTask c = cpus.newTask("c", CpuTask.Kind.OTHER);
            long[] granted = new long[2]; // B's grants, and when the last was
            lockOnce(cpus, m, a, 10 * US, 1000 * US, () -> {}, () -> cpus.run(a, Step.KERNEL, 2000 * US, () -> {}));
            lockOnce(
                    cpus,
                    m,
                    b,
                    20 * US,
                    100 * US,
                    () -> {
                        granted[0]++;
                        granted[1] = e.now();
                    },
                    () -> {});
            lockOnce(cpus, m, c, 1080 * US, 100 * US, () -> {}, () -> cpus.run(c, Step.KERNEL, 500 * US, () -> {}));
            e.schedule(5000 * US, () -> {});
            e.runUntil(() -> e.now() >= 5000 * US, t -> {}, 1_000_000L);
            assertEquals("B's grants", 1, granted[0]);
            assertEquals(1700 * US, granted[1]);
            assertEquals(1, m.stolen());
            assertEquals(false, m.handoffPending());
            assertEquals(0, m.waiting());
        } finally {
            e.unregister();
        }
    }

    /** Without tasks (or under fifo) the first waiter owns the lock at the unlock. */
    @Test
    public void withoutATaskTheFirstWaiterIsHandedTheLock() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Mutex m = new Mutex(e, "m", 5 * US);
            StringBuilder order = new StringBuilder();
            m.lock(() -> order.append('a'));
            m.lock(() -> order.append('b'));
            m.unlock(); // b owns it now, and runs after the hand-off
            m.lock(() -> order.append('c')); // queued behind b: nobody takes a handed-over lock
            e.schedule(10 * US, m::unlock);
            e.schedule(20 * US, m::unlock);
            e.runUntil(() -> e.now() >= 20 * US, t -> {}, 1_000L);
            assertEquals("abc", order.toString());
            assertEquals(0, m.stolen());
        } finally {
            e.unregister();
        }
    }
}
