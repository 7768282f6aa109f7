package org.netnslab.machine;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Exact results of {@link Cpus#exit} on the fair machine: the task switched in after an exiting task is charged the
 * exit's remainder (rq_clock_skip_update counts it to that task's clock, kernel/sched/core.c); a CPU that goes idle
 * instead charges nobody.
 */
public class ExitSwitchTest extends JUnitSuite {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    private static Scheduling noSwitchCost() {
        return new Scheduling(Scheduling.Scheduler.FAIR, Scheduling.Preempt.NONE, 250, 0, 0);
    }

    /**
     * Two CPUs, preempt none, no switch cost. A hog runs user steps of 50 us on one CPU for 1 ms. An exiting task runs
     * 10 us in the kernel on the other and, in that step's continuation, wakes two listeners (100 us of work each)
     * and dies with a 7 us charge. Neither CPU is idle, so the first listener waits for the exiting task's CPU (its
     * sync wake-up) and runs there from 10 us: 7 us of finishing the switch, then its 100 us, to 117 us. The second
     * waits on that same CPU's queue and runs 117 to 217 us, charged nothing (it follows a listener).
     */
    @Test
    public void theTaskAfterAnExitingOneIsChargedItsSwitch() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, 2, noSwitchCost());
            CpuTask hog = cpus.newTask("hog", CpuTask.Kind.OTHER);
            CpuTask exiting = cpus.newTask("exiting", CpuTask.Kind.OTHER, false);
            CpuTask first = cpus.newTask("listener-1", CpuTask.Kind.LISTENER, false);
            CpuTask second = cpus.newTask("listener-2", CpuTask.Kind.LISTENER, false);
            hogFor(cpus, hog, 20);
            long[] ends = {-1, -1};
            cpus.run(exiting, Step.KERNEL, 10 * US, () -> {
                cpus.run(first, Step.KERNEL, 100 * US, () -> ends[0] = e.now());
                cpus.run(second, Step.KERNEL, 100 * US, () -> ends[1] = e.now());
                cpus.exit(exiting, 7 * US);
            });
            FairSchedulerTest.runFor(e, 2 * MS);
            assertEquals("the first listener's step ends after the switch's 7 us and its own 100", 117 * US, ends[0]);
            assertEquals("charged the switch away from the exiting task", 7 * US, first.deadFinishNanos());
            assertEquals("its CPU clock counts it", 107 * US, first.cpuNanos());
            assertEquals("the second follows a listener", 217 * US, ends[1]);
            assertEquals(0, second.deadFinishNanos());
            assertEquals("the exiting task is not charged its own", 10 * US, exiting.cpuNanos());
        } finally {
            e.unregister();
        }
    }

    /**
     * One CPU. A task exits after 10 us with a 7 us charge and nothing waits: the CPU goes idle, and the idle task
     * finishes the switch. A listener woken at 1 ms runs 100 us straight from idle, charged nothing.
     */
    @Test
    public void anIdleCpuLeavesTheChargeToTheIdleTask() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, 1, noSwitchCost());
            CpuTask exiting = cpus.newTask("exiting", CpuTask.Kind.OTHER, false);
            CpuTask listener = cpus.newTask("listener", CpuTask.Kind.LISTENER, false);
            long[] end = {-1};
            cpus.run(exiting, Step.KERNEL, 10 * US, () -> cpus.exit(exiting, 7 * US));
            e.schedule(MS, () -> cpus.run(listener, Step.KERNEL, 100 * US, () -> end[0] = e.now()));
            FairSchedulerTest.runFor(e, 2 * MS);
            assertEquals(MS + 100 * US, end[0]);
            assertEquals(0, listener.deadFinishNanos());
            assertEquals(100 * US, listener.cpuNanos());
        } finally {
            e.unregister();
        }
    }

    private static void hogFor(Cpus cpus, CpuTask t, long steps) {
        if (steps > 0) {
            cpus.run(t, Step.USER, 50 * US, () -> hogFor(cpus, t, steps - 1));
        }
    }
}
