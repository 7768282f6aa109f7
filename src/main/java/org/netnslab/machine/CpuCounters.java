package org.netnslab.machine;

/**
 * What a machine's {@link Cpus} have done so far: CPU time spent in steps, over all CPUs and by the kind of task that
 * spent it, steps started, context switches and preemptions. The fair machine accounts a running step's CPU time as
 * it goes (at its end, a tick, a wake-up), so a figure read mid-step leaves out what that step ran since.
 *
 * <p>Times are ns of simulated time. Threading: the engine's driver thread only.
 */
public final class CpuCounters {
    private long busyNanos;
    private final long[] busyByKind = new long[CpuTask.Kind.values().length];
    private long steps;
    private long hostSteps;
    private long switches;
    private long preemptions;

    /** A step started (a preempted step counts again when it resumes). */
    void step() {
        steps++;
    }

    /** A step of a task of kind {@code kind} started (a preempted step counts again when it resumes). */
    void step(CpuTask.Kind kind) {
        steps++;
        if (kind == CpuTask.Kind.HOST) {
            hostSteps++;
        }
    }

    /** {@code nanos} of CPU time spent with no task to charge (fifo). */
    void busy(long nanos) {
        busyNanos += nanos;
    }

    /** {@code nanos} of CPU time spent by a task of kind {@code kind}. */
    void busy(CpuTask.Kind kind, long nanos) {
        busyNanos += nanos;
        busyByKind[kind.ordinal()] += nanos;
    }

    /** A CPU switched to another task. */
    void switched() {
        switches++;
    }

    /** A task left its CPU while runnable. */
    void preempted() {
        preemptions++;
    }

    /** @return CPU time spent in steps so far, ns (over all CPUs; fair: as accounted so far) */
    public long busyNanos() {
        return busyNanos;
    }

    /**
     * @param kind a kind of task
     * @return CPU time the tasks of that kind spent so far, as accounted so far (user and kernel steps and the
     *     switches into them), ns; 0 under fifo, which has no tasks
     */
    public long busyNanos(CpuTask.Kind kind) {
        return busyByKind[kind.ordinal()];
    }

    /** @return steps started so far (fair: a preempted step counts again when it resumes) */
    public long steps() {
        return steps;
    }

    /** @return the steps of {@link CpuTask.Kind#HOST} tasks among {@link #steps()}: the host's, not the model's */
    public long hostSteps() {
        return hostSteps;
    }

    /** @return context switches so far (fair) */
    public long switches() {
        return switches;
    }

    /** @return preemptions so far (fair) */
    public long preemptions() {
        return preemptions;
    }
}
