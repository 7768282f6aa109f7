package org.netnslab.machine;

/**
 * The fair scheduling class of {@link FairCpus} (kernel/sched/fair.c): the one global run queue and its V
 * (avg_vruntime), update_curr, pick_next_entity, and the checks that decide a preemption at a wake-up or a tick.
 * Under {@code machine.task-group = session} the kernel threads and the load's group entity are a level above the
 * load's queue ({@link TaskGroupLevel}). {@link FairCpus} decides which task is on which CPU; this class reads that
 * (the arrays it shares) and never moves a task itself.
 *
 * <p>Times are ns. Threading: the engine's driver thread only.
 */
final class FairClass {
    private final VirtualEngine engine;
    private final CpuCounters counters;
    private final Placement placement;
    private final CpuTask[] current;
    private final boolean[] holding;
    private final long[] accountedAt;
    /** The queued tasks (all of them; under a session group, the load's). */
    private final EevdfQueue queue = new EevdfQueue();
    /** machine.task-group = session: kernel threads in the root group ({@link #level}), the load in a group. */
    private final boolean grouped;

    private final TaskGroupLevel level;
    /**
     * Over the CPUs with a load task: how many, the sum of their vruntimes as accounted, and of those in a step (not
     * holding) how many and the sum of their accountedAt, so V is O(1): {@link #avgVruntime}.
     */
    private int runningCount;

    private long runSumV;
    private int inStepCount;
    private long inStepSumAt;
    private long lastAvg;

    /**
     * @param engine the engine whose clock the CPUs use
     * @param counters the machine's counters
     * @param placement the machine's placement rules
     * @param grouped whether the load is in a task group of its own ({@code machine.task-group = session})
     * @param current each CPU's task, running or holding it, or null (shared with {@link FairCpus})
     * @param holding whether each CPU's task holds it between steps (shared)
     * @param accountedAt when each CPU's task was last accounted, or its step starts (shared)
     */
    FairClass(
            VirtualEngine engine,
            CpuCounters counters,
            Placement placement,
            boolean grouped,
            CpuTask[] current,
            boolean[] holding,
            long[] accountedAt) {
        this.engine = engine;
        this.counters = counters;
        this.placement = placement;
        this.grouped = grouped;
        this.current = current;
        this.holding = holding;
        this.accountedAt = accountedAt;
        this.level = new TaskGroupLevel(engine, placement, current, holding, accountedAt);
    }

    /** @return true when {@code t} is a kernel thread in the root task group beside the load's group entity */
    private boolean inRoot(CpuTask t) {
        return grouped && t.kind().kernelThread();
    }

    /** Removes CPU c's task from the running sums (before a change to its state). */
    void off(int c) {
        CpuTask t = current[c];
        if (t != null && !inRoot(t)) {
            runningCount--;
            runSumV -= t.vruntime;
            if (!holding[c]) {
                inStepCount--;
                inStepSumAt -= accountedAt[c];
            }
        }
    }

    /** Adds CPU c's task to the running sums (after a change to its state). */
    void on(int c) {
        CpuTask t = current[c];
        if (t != null && !inRoot(t)) {
            runningCount++;
            runSumV += t.vruntime;
            if (!holding[c]) {
                inStepCount++;
                inStepSumAt += accountedAt[c];
            }
        }
    }

    /** update_curr: charges CPU {@code c}'s task the CPU time it has run since it was last accounted. */
    void account(int c) {
        CpuTask t = current[c];
        long d = engine.now() - accountedAt[c];
        if (holding[c] || d <= 0) {
            return;
        }
        off(c);
        accountedAt[c] = engine.now();
        advance(t, d);
        on(c);
        t.remaining -= d;
        counters.busy(t.kind(), d);
        if (t.step == Step.USER) {
            t.userNanos += d;
        } else {
            t.kernelNanos += d;
        }
    }

    /**
     * Accounts the load tasks on a CPU up to now, so that the group entity's vruntime holds their progress before a
     * root-level decision compares it with V (update_curr on each CPU's group entity, in the kernel).
     */
    private void accountGroup() {
        for (int c = 0; c < current.length; c++) {
            if (current[c] != null && !inRoot(current[c]) && !holding[c]) {
                account(c);
            }
        }
    }

    /** A task's virtual runtime grows by {@code d}; in the load's group, its group entity's too. */
    void advance(CpuTask t, long d) {
        t.vruntime += d;
        if (grouped && !inRoot(t)) {
            level.advance(d);
        }
    }

    /** place_entity for a waking task, in its level's V; the load's first runnable task enqueues its group. */
    void place(CpuTask t) {
        if (inRoot(t)) {
            level.place(t);
        } else {
            if (grouped) {
                level.activate();
            }
            placement.place(t, avgVruntime(), queue.size() + runningCount);
        }
    }

    /** Queues a runnable task in its level (enqueue_entity). */
    void enqueue(CpuTask t) {
        if (inRoot(t)) {
            level.enqueue(t);
        } else {
            queue.add(t);
            syncGroupQueued();
        }
    }

    private void syncGroupQueued() {
        if (grouped) {
            level.syncQueued(queue.isEmpty());
        }
    }

    /** @return true when a task waits for a CPU */
    boolean anyQueued() {
        return !queue.isEmpty() || !level.isEmpty();
    }

    /** @return the tasks waiting for a CPU */
    int queued() {
        return queue.size() + level.threadsQueued();
    }

    /**
     * pick_next_entity down the levels for CPU {@code c}: at the root a kernel thread or the load's group, then in the
     * group; with nothing on {@code c}'s queues, a task woken onto another CPU's (sched_balance_newidle's pull).
     *
     * @return the task, taken off its queue, or null when none queued may run on {@code c}
     */
    CpuTask pickNext(int c) {
        if (grouped) {
            accountGroup();
            CpuTask k = level.pickThread(c);
            if (k != null) {
                return k;
            }
        }
        CpuTask t = queue.pickOrPull(avgVruntime(), c);
        if (t != null) {
            queue.remove(t);
            syncGroupQueued();
        } else if (grouped) {
            t = level.pullThread(c);
        }
        return t;
    }

    /**
     * update_curr + update_deadline for CPU {@code c}'s task: past its deadline, it gets a new one and is to
     * be rescheduled when another task that may run on {@code c} is queued. A load task also yields when a kernel
     * thread waits and the group entity, past its deadline, is no longer the root pick.
     *
     * @return true when the task is to be rescheduled
     */
    boolean deadlinePreempts(int c) {
        CpuTask t = current[c];
        account(c);
        boolean marked = false;
        if (placement.renewIfPast(t)) {
            marked = inRoot(t) ? level.anyWaits(c) : queue.hasAllowed(c, null);
        }
        // a kernel thread that may run on c waits (the group entity's slice renewed only then: a thread bound to
        // another CPU waits for that CPU's tick)
        if (grouped && !inRoot(t) && level.threadWaits(c)) {
            accountGroup();
            marked |= level.deadlinePreempts(c);
        }
        return marked;
    }

    /**
     * check_preempt_wakeup_fair's pick (v6.6+; protect_slice as in v6.17+), after {@link #deadlinePreempts} found nothing:
     * an eligible current task (vruntime <= V) keeps its CPU while inside its slice; one that is not eligible yields
     * when {@code woken} is now the eligible task with the earliest deadline, compared at the level the two share.
     *
     * @return true when CPU {@code c}'s task is to be rescheduled
     */
    boolean wakeupPreempts(int c, CpuTask woken) {
        CpuTask curr = current[c];
        if (grouped && (inRoot(curr) || inRoot(woken))) {
            accountGroup();
            return level.wakeupPreempts(curr, woken, c);
        }
        long v = avgVruntime();
        return curr.vruntime > v && queue.pick(v, c) == woken;
    }

    /** dequeue_entity's update_entity_lag for a task about to sleep: it keeps its lag in its level's V. */
    void keepLag(CpuTask t) {
        if (inRoot(t)) {
            level.keepLag(t);
        } else {
            placement.keepLag(t, avgVruntime());
        }
    }

    /** A task has left its CPU to sleep: when it was the load's last runnable task, the group entity sleeps too. */
    void slept(CpuTask t) {
        if (grouped && !inRoot(t) && queue.isEmpty() && runningCount == 0) {
            level.deactivate();
        }
    }

    /** avg_vruntime: V over the queued and the running load tasks (the running at their progress so far). */
    private long avgVruntime() {
        long n = queue.size() + runningCount;
        if (n > 0) {
            long sum = queue.sumVruntime() + runSumV + inStepCount * engine.now() - inStepSumAt;
            lastAvg = Math.floorDiv(sum, n);
        }
        return lastAvg;
    }
}
