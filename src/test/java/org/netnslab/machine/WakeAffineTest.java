package org.netnslab.machine;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Exact results of a sync wake-up's placement on the fair machine (select_task_rq_fair -> wake_affine_idle,
 * kernel/sched/fair.c): the wakee joins its waker's CPU queue and waits there, and another CPU takes it only when it
 * would otherwise go idle (sched_balance_newidle).
 */
public class WakeAffineTest extends JUnitSuite {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    /**
     * Two CPUs, preempt none, HZ 250, slice 1.5 ms. A waker on CPU 0 runs 1 ms in the kernel, wakes a reader with
     * 100 us of work and goes on in the kernel for 9 ms (no preemption point in between); a hog on CPU 1 runs user steps of
     * 50 us, for {@code hogNanos} in all. With the hog busy throughout, the reader waits on CPU 0's queue: CPU 1's tick
     * at 4 ms finds the hog past its slice but nothing on its own queue, and the reader runs 10.0 to 10.1 ms on CPU 0
     * when the waker sleeps. With the hog done at 6 ms, CPU 1 pulls the reader rather than idle: 6.0 to 6.1 ms.
     */
    @Test
    public void aSyncWakeeWaitsOnItsWakersCpuUnlessTheOtherWouldIdle() throws Exception {
        long[][] expected = {{0, 10 * MS + 100 * US}, {1, 6 * MS + 100 * US}};
        long[] hogNanos = {20 * MS, 6 * MS};
        for (int i = 0; i < 2; i++) {
            VirtualEngine e = VirtualEngine.create();
            try {
                Cpus cpus = new FairCpus(
                        e, 2, new Scheduling(Scheduling.Scheduler.FAIR, Scheduling.Preempt.NONE, 250, 0, 0));
                CpuTask waker = cpus.newTask("injector", CpuTask.Kind.INJECTOR);
                CpuTask hog = cpus.newTask("hog", CpuTask.Kind.OTHER);
                CpuTask reader = cpus.newTask("listener", CpuTask.Kind.LISTENER);
                long[] ran = {-1, -1};
                cpus.run(waker, Step.KERNEL, MS, () -> {
                    cpus.run(reader, Step.KERNEL, 100 * US, () -> {
                        ran[0] = reader.cpu();
                        ran[1] = e.now();
                    });
                    cpus.run(waker, Step.KERNEL, 9 * MS, () -> {});
                });
                hogFor(cpus, hog, hogNanos[i] / (50 * US));
                FairSchedulerTest.runFor(e, 20 * MS);
                assertEquals("hog for " + hogNanos[i] + " ns: the reader's CPU", expected[i][0], ran[0]);
                assertEquals("hog for " + hogNanos[i] + " ns: the reader's step end", expected[i][1], ran[1]);
                assertEquals(
                        "woken at 1 ms, it waited until it ran", expected[i][1] - 100 * US - MS, reader.waitNanos());
            } finally {
                e.unregister();
            }
        }
    }

    private static void hogFor(Cpus cpus, CpuTask t, long steps) {
        if (steps > 0) {
            cpus.run(t, Step.USER, 50 * US, () -> hogFor(cpus, t, steps - 1));
        }
    }
}
