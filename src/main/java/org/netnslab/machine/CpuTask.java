package org.netnslab.machine;

import java.util.ArrayDeque;

/**
 * A simulated process or kernel thread: what the scheduler of {@link FairCpus} runs, keeps a virtual runtime
 * for, and preempts. A model actor that does CPU work owns one task and runs its steps through
 * {@link Machine#compute(CpuTask, Step, long, Runnable)}; consecutive steps requested at the instant the
 * previous one ends continue on the same CPU (the task is still running), and a task that requests
 * nothing more at that instant has gone to sleep (waits for a lock, a reply, a message) and gives its
 * CPU up.
 *
 * <p>Threading: the engine's driver thread only.
 */
public final class CpuTask {
    /**
     * What a task is in the modelled system: for figures and names, and under {@link Scheduling.TaskGroup#SESSION}
     * for its task group ({@link #kernelThread}); otherwise the scheduler treats all alike.
     */
    public enum Kind {
        /** A uevent injector process (sendmsg loop). */
        INJECTOR,
        /** A uevent or proc connector listener process (recvmsg loop). */
        LISTENER,
        /** A device's kernel task sending kernel uevents. */
        DEVICE,
        /** An {@code unshare -n} process or churn worker. */
        UNSHARE,
        /** The {@code netns} workqueue's kworker running cleanup_net. */
        KWORKER,
        /** RCU callbacks (rcuc/rcuo kthreads or softirq). */
        RCU,
        /** A proc monitor (pidfd poller, /proc scanner). */
        MONITOR,
        /** Anything else: a test's task, or a one-off step with no task of its own. */
        OTHER,
        /** The host's own work beside the load ({@link HostBackground}): its init or an agent, not the model's. */
        HOST;

        /**
         * @return true for a kernel thread (kworker, RCU, device task): in the root task group, whatever the
         *     load's group ({@link Scheduling.TaskGroup})
         */
        public boolean kernelThread() {
            // the host's task sits outside the load's session as the kernel threads do
            return this == KWORKER || this == RCU || this == DEVICE || this == HOST;
        }
    }

    private static final long NEVER = Long.MIN_VALUE;

    private final String name;
    private final Kind kind;
    final long id;
    /** Its first step is its fork (wake_up_new_task): placed with half a slice; else a woken sleeper's whole slice. */
    final boolean forked;

    // scheduler state (package-private: the fair machine's classes)
    long vruntime;
    long deadline;
    long vlag;
    long sleptAtV = NEVER;
    boolean placed;
    /** Index of the CPU the task runs on or holds, -1: none. */
    int cpu = -1;
    /** The one CPU it may run on (a per-CPU kernel thread, kthread_bind), -1: any. */
    final int bound;
    /**
     * The CPU whose run queue a sync wake-up put it on (wake_affine_idle), until it next runs; -1: none. The kernel
     * queues such a wakee behind its waker, and another CPU takes it only when it would otherwise go idle
     * (sched_balance_newidle).
     */
    int wokenOn = -1;

    boolean queued;
    boolean needResched;
    /** The step in progress or waiting for a CPU. */
    Step step;

    long remaining;
    Runnable then;
    /** The kind of the last step that ended (its end is the current boundary). */
    Step lastStep = Step.USER;
    /** A step asked for while another of the task's was in progress or waiting. */
    /** A step asked for while the task had one: its cost, plus {@code extra}'s at its start where that is set. */
    record Request(Step step, long nanos, Runnable then, java.util.function.LongSupplier extra) {}

    /** Steps asked for while one was in progress (a task's requests run in order). */
    final ArrayDeque<Request> pending = new ArrayDeque<>(2);

    long runnableSince;

    // figures
    long userNanos;
    long kernelNanos;
    long waitNanos;
    long switchesIn;
    /** The machine's switch count when this task last switched in, or when it was made ({@link ColdSwitch}). */
    long switchStamp;

    long preemptions;

    /** What the next task on its CPU pays once this task has died ({@link Cpus#exit}), ns; 0 for a live task. */
    long exitFinishNanos;
    /** CPU time this task was charged for finishing switches away from dead tasks, ns ({@link Cpus#exit}). */
    long deadFinishNanos;

    /**
     * @param name the task's name, e.g. {@code injector-3} or {@code kworker/u:netns}
     * @param kind what it is
     * @param id a unique number within its machine, for a deterministic tie-break
     * @param forked whether its first step is its fork (see {@link Cpus#newTask(String, Kind, boolean)})
     */
    CpuTask(String name, Kind kind, long id, boolean forked) {
        this(name, kind, id, forked, -1);
    }

    /**
     * @param name as above
     * @param kind as above
     * @param id as above
     * @param forked as above
     * @param bound the one CPU it may run on, -1: any
     */
    CpuTask(String name, Kind kind, long id, boolean forked, int bound) {
        this.name = name;
        this.kind = kind;
        this.id = id;
        this.forked = forked;
        this.bound = bound;
    }

    /** @return the task's name */
    public String name() {
        return name;
    }

    /** @return what the task is */
    public Kind kind() {
        return kind;
    }

    /** @return the one CPU it may run on (a per-CPU kernel thread), or -1: any */
    public int bound() {
        return bound;
    }

    /** @return the CPU it runs on or holds, 0..cpus-1; -1 when it has none (asleep or waiting for one) */
    public int cpu() {
        return cpu;
    }

    /** @return CPU time in user-space steps so far, ns */
    public long userNanos() {
        return userNanos;
    }

    /** @return CPU time in kernel steps (and context switches into it) so far, ns */
    public long kernelNanos() {
        return kernelNanos;
    }

    /** @return CPU time so far, ns: user and kernel steps and the switches into the task (its CPU clock) */
    public long cpuNanos() {
        return userNanos + kernelNanos;
    }

    /** @return time spent runnable but waiting for a CPU so far, ns (fair scheduler) */
    public long waitNanos() {
        return waitNanos;
    }

    /** @return times the task was switched in from another task */
    public long switchesIn() {
        return switchesIn;
    }

    /**
     * @return CPU time this task was charged, once switched in, for the exiting task it followed ({@link Cpus#exit}:
     *     the exit's remainder, which rq_clock_skip_update counts to it), ns: part of {@link #kernelNanos()}
     */
    public long deadFinishNanos() {
        return deadFinishNanos;
    }

    /** @return times it was preempted (at a tick, a wake-up or a preemption point) */
    public long preemptions() {
        return preemptions;
    }

    @Override
    public String toString() {
        return name + " (" + kind.name().toLowerCase(java.util.Locale.ROOT) + ")";
    }
}
