package org.netnslab.machine;

import java.util.Locale;

/**
 * What both machines share: their size, scheduling rules, tick phase, tasks and counters.
 *
 * <p>Threading: the engine's driver thread only.
 */
abstract class AbstractCpus implements Cpus {
    final VirtualEngine engine;
    final int count;
    final Scheduling sched;
    final CpuCounters counters = new CpuCounters();
    /** When this machine started (the engine's clock then): the ticks' phase. */
    private final long epoch;

    private long taskIds;

    /**
     * @param engine the engine whose clock the steps use
     * @param count CPUs, >= 1
     * @param sched how they schedule
     * @param scheduler the scheduler the subclass implements
     * @throws IllegalArgumentException when {@code count < 1} or {@code sched} names another scheduler
     */
    AbstractCpus(VirtualEngine engine, int count, Scheduling sched, Scheduling.Scheduler scheduler) {
        if (count < 1) {
            throw new IllegalArgumentException("machine.cpus must be >= 1, got " + count);
        }
        if (sched.scheduler() != scheduler) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " schedules "
                    + scheduler.name().toLowerCase(Locale.ROOT) + ", got machine.scheduler = "
                    + sched.scheduler().name().toLowerCase(Locale.ROOT));
        }
        this.engine = engine;
        this.count = count;
        this.sched = sched;
        this.epoch = engine.now();
    }

    @Override
    public final int count() {
        return count;
    }

    @Override
    public final Scheduling scheduling() {
        return sched;
    }

    @Override
    public final long nanosToTick(int ticks) {
        if (ticks < 1) {
            throw new IllegalArgumentException("the " + ticks + "-th tick from now");
        }
        long tick = sched.tickNanos();
        long since = engine.now() - epoch;
        return (since / tick + ticks) * tick - since;
    }

    @Override
    public final CpuTask newTask(String name, CpuTask.Kind kind, boolean forked) {
        return stamped(new CpuTask(name, kind, taskIds++, forked));
    }

    @Override
    public final CpuTask newTask(String name, CpuTask.Kind kind, boolean forked, int cpu) {
        if (cpu < 0 || cpu >= count) {
            throw new IllegalArgumentException(
                    name + ": bound to CPU " + cpu + ", the machine has CPUs 0.." + (count - 1));
        }
        if (!kind.kernelThread()) { // a bound load task would need its group entity bound too
            throw new IllegalArgumentException(
                    name + ": only a kernel thread (kworker, rcu, device) is bound to a CPU, got "
                            + kind.name().toLowerCase(Locale.ROOT));
        }
        return stamped(new CpuTask(name, kind, taskIds++, forked, cpu));
    }

    /** A new task last ran, for {@link ColdSwitch}, when it was made: its first switch-in counts the switches since. */
    private CpuTask stamped(CpuTask t) {
        t.switchStamp = counters.switches();
        return t;
    }

    @Override
    public final CpuCounters counters() {
        return counters;
    }
}
