package org.netnslab.machine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.netnslab.machine.FairSchedulerTest.hog;
import static org.netnslab.machine.FairSchedulerTest.runFor;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code machine.task-group}: the load's tasks in a task group of their own (sched_autogroup, a cpu cgroup) against
 * the kernel threads of the root group, driven straight on a {@link VirtualEngine} as {@link FairSchedulerTest}.
 */
public class TaskGroupTest extends JUnitSuite {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    private static Scheduling fair(Scheduling.TaskGroup group) {
        return new Scheduling(Scheduling.Scheduler.FAIR, Scheduling.Preempt.NONE, 250, 0, 0, group);
    }

    /** A kworker's {@code steps} steps of {@code step} ns at cond_resched() points, then the time it finished. */
    private static void work(Cpus cpus, CpuTask t, int steps, long step, long[] done, VirtualEngine e) {
        if (steps == 0) {
            done[0] = e.now();
            return;
        }
        cpus.run(t, Step.COND_RESCHED, step, () -> work(cpus, t, steps - 1, step, done, e));
    }

    /**
     * @return when a kworker that wakes at 100 ms with 20 ms of CPU to do (200 steps of 100 us) finishes, ms after
     *     its wake-up, among {@code hogs} CPU-bound processes on {@code p} CPUs
     */
    private static double kworkerFinishes(Scheduling.TaskGroup group, int p, int hogs) throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus cpus = new FairCpus(e, p, fair(group));
            for (int i = 0; i < hogs; i++) {
                hog(cpus, cpus.newTask("hog-" + i, CpuTask.Kind.UNSHARE), 41 * US + i * US);
            }
            CpuTask kworker = cpus.newTask("kworker/u:netns", CpuTask.Kind.KWORKER);
            long[] done = {-1};
            e.schedule(100 * MS, () -> work(cpus, kworker, 200, 100 * US, done, e));
            runFor(e, 2_000 * MS);
            assertTrue("the kworker finished", done[0] > 0);
            return (done[0] - 100 * MS) / 1e6;
        } finally {
            e.unregister();
        }
    }

    /**
     * In the root group a kworker gets P/(N+1) of a CPU against N processes on P CPUs; with the processes in a group of
     * their own it competes with the group as one entity of the same weight: on 1 CPU it gets half of it, on 2 CPUs a
     * whole one (the model's one global group entity; the kernel's per-CPU ones give it about two thirds of its CPU
     * until the balancer moves the group's tasks away). 20 ms of work: among 8 processes, 180 ms on 1 CPU in the root
     * group (1/9), 40 ms in a session (1/2); on 2 CPUs 90 ms (2/9) and 20 ms; among 2 processes on 2 CPUs, 30 ms
     * (2/3) and 20 ms. In a session within a slice and a tick (1.5 + 4 ms) of those; in the root group within a
     * tenth (the tick's rounding of each slice).
     */
    @Test
    public void aKworkerCompetesWithTheLoadsGroupAsOneEntity() throws Exception {
        double[][] cases = { // cpus, processes, root, session
            {1, 8, 180, 40}, {2, 8, 90, 20}, {2, 2, 30, 20}
        };
        for (double[] c : cases) {
            int p = (int) c[0];
            double root = kworkerFinishes(Scheduling.TaskGroup.ROOT, p, (int) c[1]);
            double session = kworkerFinishes(Scheduling.TaskGroup.SESSION, p, (int) c[1]);
            assertEquals("root group, " + p + " CPU(s): " + root + " ms", c[2], root, Math.max(5.5, c[2] / 10));
            assertEquals("session, " + p + " CPU(s): " + session + " ms", c[3], session, 5.5);
        }
    }

    /**
     * A load task that runs 1 ms and then sleeps 1 ms, against a CPU-bound kworker on 1 CPU: the group goes idle at
     * each sleep and comes back with its lag, and the task gets what it gets in the root group, a third of the CPU
     * (each 1 ms run overruns its 0.75 ms slice, and the negative lag it sleeps with costs it about 1 ms of waiting at
     * its next wake-up).
     */
    @Test
    public void aGroupThatSleepsComesBackWithItsLag() throws Exception {
        double[] share = new double[2];
        for (Scheduling.TaskGroup group : Scheduling.TaskGroup.values()) {
            VirtualEngine e = VirtualEngine.create();
            try {
                Cpus cpus = new FairCpus(e, 1, fair(group));
                CpuTask kworker = cpus.newTask("kworker/u:netns", CpuTask.Kind.KWORKER);
                long[] never = {-1};
                work(cpus, kworker, Integer.MAX_VALUE, 100 * US, never, e);
                CpuTask t = cpus.newTask("sleeper", CpuTask.Kind.UNSHARE);
                sleeper(cpus, t, e);
                runFor(e, 2_000 * MS);
                share[group.ordinal()] = t.cpuNanos() / (2_000.0 * MS);
            } finally {
                e.unregister();
            }
        }
        assertEquals(share[0], share[1], 0.005);
        assertEquals(1 / 3.0, share[1], 0.01);
    }

    private static void sleeper(Cpus cpus, CpuTask t, VirtualEngine e) {
        cpus.run(t, Step.USER, 1 * MS, () -> e.schedule(1 * MS, () -> sleeper(cpus, t, e)));
    }

    /**
     * With no kernel thread running, a load in a group of its own is scheduled exactly as in the root group: every
     * task's CPU time and every switch the same.
     */
    @Test
    public void withoutKernelThreadsTheGroupChangesNothing() throws Exception {
        List<long[]> figures = new ArrayList<>();
        for (Scheduling.TaskGroup group : Scheduling.TaskGroup.values()) {
            VirtualEngine e = VirtualEngine.create();
            try {
                Cpus cpus = new FairCpus(e, 2, fair(group));
                List<CpuTask> tasks = new ArrayList<>();
                for (int i = 0; i < 7; i++) {
                    CpuTask t = cpus.newTask("p-" + i, CpuTask.Kind.INJECTOR);
                    tasks.add(t);
                    hog(cpus, t, 29 * US + 3 * i * US);
                }
                runFor(e, 3_000 * MS);
                long[] f = new long[tasks.size() + 2];
                for (int i = 0; i < tasks.size(); i++) {
                    f[i] = tasks.get(i).cpuNanos();
                }
                f[tasks.size()] = cpus.counters().switches();
                f[tasks.size() + 1] = cpus.counters().preemptions();
                figures.add(f);
            } finally {
                e.unregister();
            }
        }
        assertEquals(java.util.Arrays.toString(figures.get(0)), java.util.Arrays.toString(figures.get(1)));
        assertTrue(figures.get(0)[7] > 100); // they did switch: the comparison is not of idle machines
    }
}
