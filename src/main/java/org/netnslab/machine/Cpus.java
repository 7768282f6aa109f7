package org.netnslab.machine;

/**
 * The simulated machine's CPUs, on which the model runs its steps of CPU work in virtual execution. {@link
 * Scheduling#newCpus} picks the implementation once per design run from {@code machine.scheduler}: {@link FifoCpus}
 * (one FIFO queue of steps, none preempted) or {@link FairCpus} (EEVDF, kernel/sched/fair.c). docs/scheduler.md
 * gives the rules.
 *
 * <p>Times are ns of simulated time. Threading: the engine's driver thread only.
 */
public interface Cpus {
    /** @return the number of CPUs */
    int count();

    /** @return the scheduling rules */
    Scheduling scheduling();

    /** @return true under the fair scheduler (tasks, user steps, preemption) */
    boolean fair();

    /**
     * Time to the {@code ticks}-th tick from now (the next one is the first): ticks are counted from this machine's
     * start, as the tick preemption's are, so a timer on the tick fires with it.
     *
     * @param ticks ticks, >= 1
     * @return ns of simulated time, in ((ticks - 1) x tick, ticks x tick]
     * @throws IllegalArgumentException when {@code ticks < 1}
     */
    long nanosToTick(int ticks);

    /**
     * @param name the task's name
     * @param kind what it is
     * @return a new task of this machine, not yet runnable, whose first step is its fork
     */
    default CpuTask newTask(String name, CpuTask.Kind kind) {
        return newTask(name, kind, true);
    }

    /**
     * @param name the task's name
     * @param kind what it is
     * @param forked true when its first step is its fork (kernel/sched/core.c wake_up_new_task ->
     *     activate_task(ENQUEUE_INITIAL): placed at V with half a slice, fair.c place_entity's PLACE_DEADLINE_INITIAL);
     *     false for a process set up before and asleep until its first step (try_to_wake_up: placed at V as a task
     *     whose lag is 0, with a whole slice)
     * @return a new task of this machine, not yet runnable
     */
    CpuTask newTask(String name, CpuTask.Kind kind, boolean forked);

    /**
     * A per-CPU kernel thread (ksoftirqd/N, a per-CPU kworker: kthread_bind), which runs on CPU {@code cpu} only: it
     * waits for that CPU however idle the others are, and its wake-ups and the tick preempt that CPU's task only.
     *
     * @param name the task's name
     * @param kind what it is
     * @param forked as {@link #newTask(String, CpuTask.Kind, boolean)}
     * @param cpu the CPU, 0..count-1
     * @return a new task of this machine, not yet runnable
     * @throws IllegalArgumentException for a CPU this machine does not have, or a kind that is not a kernel thread
     */
    CpuTask newTask(String name, CpuTask.Kind kind, boolean forked, int cpu);

    /**
     * Runs a kernel step of {@code nanos} on a CPU for a one-off task of its own, then {@code then}.
     *
     * @param nanos the step's CPU time, ns (0 still waits for a CPU)
     * @param then what follows the step, on the engine
     */
    void run(long nanos, Runnable then);

    /**
     * Runs a step of {@code task} on a CPU, then {@code then} at the step's end. A task's steps run in the order asked
     * for. Under fifo the task is ignored.
     *
     * @param task the task doing the work
     * @param step what kind of work (user or kernel, and what its end is)
     * @param nanos its CPU time, ns (negative counts as 0)
     * @param then what follows the step, typically a tell to the task's actor
     */
    void run(CpuTask task, Step step, long nanos, Runnable then);

    /**
     * As {@link #run(CpuTask, Step, long, Runnable)}, plus {@code extra}'s ns read when the step starts: what the step
     * costs more by what ran while it waited behind the task's earlier steps (fifo: read at once).
     *
     * @param task the task doing the work
     * @param step what kind of work
     * @param nanos its CPU time known now, ns (negative counts as 0)
     * @param extra its CPU time more, ns, read at its start (negative counts as 0)
     * @param then what follows the step
     */
    void run(CpuTask task, Step step, long nanos, java.util.function.LongSupplier extra, Runnable then);

    /**
     * The task dies at the end of its current step (do_exit's do_task_dead, called from that step's continuation, with
     * no step asked for after it), and the next task switched in on its CPU is charged {@code finishNanos} of CPU time
     * before its step: the exit's remainder. A wake-up that preempts the exiting task skips the next clock update
     * (wakeup_preempt -> rq_clock_skip_update, kernel/sched/core.c), so its time from that wake-up to its final
     * switch is counted to the task after it (finish_task_switch's own cleanup of the dead task was measured at no
     * cost). The model charges whichever task follows it; when the CPU goes idle instead, nobody is charged. Under
     * fifo nothing is charged.
     *
     * @param task a task of this machine, from its step's continuation
     * @param finishNanos what finishing the switch away from it costs the next task, ns (negative counts as 0)
     */
    default void exit(CpuTask task, long finishNanos) {}

    /**
     * Whether {@code task}, whose step has just ended (called from the step's continuation), would go on at once with
     * a step of kind {@code next}: false when it is marked need_resched and the boundary is a preemption point, i.e. it
     * would wait for a CPU first. A task times its system call up to its return to user space; when this is false for
     * {@link Step#USER}, the return includes that wait.
     *
     * @param task a task of this machine
     * @param next the kind of its next step
     * @return true under fifo, or when it keeps its CPU
     */
    boolean continuesNow(CpuTask task, Step next);

    /**
     * @param task a task of this machine
     * @return true under the fair scheduler when the task is asleep (not on a CPU, not queued, no step asked for), so
     *     that the next step asked of it wakes it (try_to_wake_up); false under fifo
     */
    boolean asleep(CpuTask task);

    /** @return steps (fifo) or tasks (fair) waiting for a CPU now */
    int queued();

    /** @return what the CPUs have done so far: busy time, steps, switches, preemptions */
    CpuCounters counters();
}
