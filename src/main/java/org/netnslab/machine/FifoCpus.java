package org.netnslab.machine;

import java.util.ArrayDeque;

/**
 * The FIFO machine ({@code machine.scheduler = fifo}): one FIFO run queue of steps; a step starts when a CPU is free,
 * is never preempted, and frees its CPU at its end. Tasks are ignored and all CPU time is kernel time. The closed
 * network tests check the engine against queueing theory on it.
 *
 * <p>Threading: the engine's driver thread only.
 */
public final class FifoCpus extends AbstractCpus {
    private final ArrayDeque<FifoStep> runQueue = new ArrayDeque<>();
    private int free;

    private record FifoStep(long nanos, Runnable then) {}

    /**
     * @param engine the engine whose clock the steps use
     * @param count CPUs, >= 1
     * @throws IllegalArgumentException when {@code count < 1}
     */
    public FifoCpus(VirtualEngine engine, int count) {
        this(engine, count, Scheduling.FIFO);
    }

    /**
     * @param engine the engine whose clock the steps use
     * @param count CPUs, >= 1
     * @param sched the scheduling rules, whose scheduler is {@link Scheduling.Scheduler#FIFO} (the rest is not used)
     * @throws IllegalArgumentException when {@code count < 1}, or {@code sched} names the fair scheduler
     */
    public FifoCpus(VirtualEngine engine, int count, Scheduling sched) {
        super(engine, count, sched, Scheduling.Scheduler.FIFO);
        this.free = count;
    }

    @Override
    public boolean fair() {
        return false;
    }

    @Override
    public void run(long nanos, Runnable then) {
        FifoStep s = new FifoStep(Math.max(0, nanos), then);
        if (free > 0) {
            free--;
            start(s);
        } else {
            runQueue.add(s);
        }
    }

    @Override
    public void run(CpuTask task, Step step, long nanos, Runnable then) {
        run(nanos, then);
    }

    @Override
    public void run(CpuTask task, Step step, long nanos, java.util.function.LongSupplier extra, Runnable then) {
        run(nanos + Math.max(0, extra.getAsLong()), then);
    }

    private void start(FifoStep s) {
        counters.step();
        counters.busy(s.nanos);
        engine.schedule(s.nanos, () -> {
            FifoStep next = runQueue.poll();
            if (next != null) {
                start(next);
            } else {
                free++;
            }
            s.then.run();
        });
    }

    @Override
    public boolean continuesNow(CpuTask task, Step next) {
        return true;
    }

    @Override
    public boolean asleep(CpuTask task) {
        return false;
    }

    @Override
    public int queued() {
        return runQueue.size();
    }
}
