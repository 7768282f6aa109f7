package org.netnslab.machine;

/**
 * The root task group's level of {@link FairCpus} under {@code machine.task-group = session} (CONFIG_FAIR_GROUP_SCHED
 * with sched_autogroup or a cpu cgroup): the kernel threads ({@link CpuTask.Kind#kernelThread}) and one entity for
 * the load's group, whose tasks are scheduled below it in {@link FairCpus}'s queue. The group entity's vruntime grows
 * by its tasks' CPU time on any CPU (weight 1024); it is placed, and keeps its lag, as a task when the group goes idle
 * and comes back; it is in the root queue while one of its tasks waits. One global entity, where the kernel has one
 * per CPU (calc_group_shares).
 *
 * <p>Reads the per-CPU state {@link FairCpus} keeps; its callers account the load's CPUs first ({@code
 * accountGroup}), so that the group entity's vruntime holds their progress. Threading: the engine's driver thread.
 */
final class TaskGroupLevel {
    private final VirtualEngine engine;
    private final Placement placement;
    private final CpuTask[] current;
    private final boolean[] holding;
    private final long[] accountedAt;
    /** The root group's queued entities: kernel threads and, while any of its tasks is queued, {@link #group}. */
    private final EevdfQueue rootQueue = new EevdfQueue();
    /** The load's group entity in the root group; its vruntime grows by its tasks' CPU time (weight 1024). */
    private final CpuTask group = new CpuTask("task-group", CpuTask.Kind.OTHER, -1, false);
    /** Whether any task of the load's group is queued or on a CPU (the group entity is enqueued). */
    private boolean active;

    private long lastAvg;

    /**
     * @param engine the engine whose clock the CPUs use
     * @param placement the machine's placement rules
     * @param current each CPU's task, or null (shared with {@link FairCpus})
     * @param holding whether each CPU's task holds it between steps (shared)
     * @param accountedAt when each CPU's task was last accounted (shared)
     */
    TaskGroupLevel(
            VirtualEngine engine, Placement placement, CpuTask[] current, boolean[] holding, long[] accountedAt) {
        this.engine = engine;
        this.placement = placement;
        this.current = current;
        this.holding = holding;
        this.accountedAt = accountedAt;
    }

    /** @return true when {@code t} is a kernel thread, in the root group beside the load's group entity */
    private static boolean inRoot(CpuTask t) {
        return t.kind().kernelThread();
    }

    /** @return true when no entity waits in the root queue */
    boolean isEmpty() {
        return rootQueue.isEmpty();
    }

    /** @return the kernel threads waiting for a CPU */
    int threadsQueued() {
        return rootQueue.size() - (group.queued ? 1 : 0);
    }

    /** Queues a woken or preempted kernel thread. */
    void enqueue(CpuTask kthread) {
        rootQueue.add(kthread);
    }

    /** The group entity is in the root queue exactly while one of its tasks is queued. */
    void syncQueued(boolean loadQueueEmpty) {
        if (loadQueueEmpty == group.queued) {
            if (group.queued) {
                rootQueue.remove(group);
            } else {
                rootQueue.add(group);
            }
        }
    }

    /** The group entity's vruntime grows by {@code d}, a task of the group having run that long. */
    void advance(long d) {
        setGroup(group.vruntime + d, group.deadline);
    }

    /** Sets the group entity's vruntime and deadline, keeping the root queue's order and sums right. */
    private void setGroup(long vruntime, long deadline) {
        boolean q = group.queued;
        if (q) { // the root queue's order (deadline) and sums (vruntime) hold the group's values
            rootQueue.remove(group);
        }
        group.vruntime = vruntime;
        group.deadline = deadline;
        if (q) {
            rootQueue.add(group);
        }
    }

    /** The group's first runnable task enqueues the group entity, placed as a woken task. */
    void activate() {
        if (!active) {
            placement.place(group, avg(), count());
            active = true;
        }
    }

    /** The group's last task sleeps: the group entity leaves with its lag. */
    void deactivate() {
        placement.keepLag(group, avg());
        active = false;
    }

    /** Places a woken kernel thread in the root queue's V. */
    void place(CpuTask kthread) {
        placement.place(kthread, avg(), count());
    }

    /** A kernel thread goes to sleep with its lag. */
    void keepLag(CpuTask kthread) {
        placement.keepLag(kthread, avg());
    }

    /**
     * pick_eevdf at the root for CPU {@code c}: a kernel thread, taken off the queue, or null when the pick is the
     * load's group (or nothing), whose own queue is then picked from.
     */
    CpuTask pickThread(int c) {
        return take(rootQueue.pick(avg(), c));
    }

    /**
     * {@link #pickThread}, for a CPU that found nothing on its own queues: it pulls a kernel thread woken onto another
     * CPU's queue (sched_balance_newidle).
     */
    CpuTask pullThread(int c) {
        return take(rootQueue.pickOrPull(avg(), c));
    }

    private CpuTask take(CpuTask e) {
        if (e != null && e != group) {
            rootQueue.remove(e);
            return e;
        }
        return null;
    }

    /** @return whether a queued kernel thread may run on CPU {@code c} */
    boolean threadWaits(int c) {
        return rootQueue.hasAllowed(c, group);
    }

    /** @return whether a queued entity (a kernel thread or the group) may run on CPU {@code c} */
    boolean anyWaits(int c) {
        return rootQueue.hasAllowed(c, null);
    }

    /**
     * update_deadline at the root for CPU {@code c}, whose load task runs while a kernel thread that may run there
     * waits: the group entity, past its deadline, gets a new one.
     *
     * @return true when the load task yields: the root pick is then the kernel thread (else pick_eevdf keeps curr)
     */
    boolean deadlinePreempts(int c) {
        if (group.vruntime >= group.deadline) {
            setGroup(group.vruntime, group.vruntime + placement.slice());
            return rootQueue.pick(avg(), c) != group;
        }
        return false;
    }

    /**
     * check_preempt_wakeup_fair at the root level, when {@code curr} or {@code woken} is a kernel thread: the load's
     * tasks are its group entity there (find_matching_se walks both up to the level they share). The current entity
     * yields when it is not eligible and the woken one's entity is the root pick.
     *
     * @return true when CPU {@code c}'s task is to be rescheduled
     */
    boolean wakeupPreempts(CpuTask curr, CpuTask woken, int c) {
        CpuTask currEntity = inRoot(curr) ? curr : group;
        long v = avg();
        return currEntity.vruntime > v && rootQueue.pick(v, c) == (inRoot(woken) ? woken : group);
    }

    /** @return the CPU time CPU {@code c}'s task has run since it was last accounted, ns */
    private long progress(int c) {
        return holding[c] ? 0 : Math.max(0, engine.now() - accountedAt[c]);
    }

    /** @return the root group's runnable entities: its kernel threads queued or on a CPU, and the load's group */
    private int count() {
        int n = rootQueue.size() + (active && !group.queued ? 1 : 0);
        for (CpuTask t : current) {
            if (t != null && inRoot(t)) {
                n++;
            }
        }
        return n;
    }

    /** avg_vruntime of the root group: its kernel threads and the load's group entity, at their progress. */
    private long avg() {
        long sum = rootQueue.sumVruntime();
        long groupProgress = 0;
        for (int c = 0; c < current.length; c++) {
            CpuTask t = current[c];
            if (t != null && inRoot(t)) {
                sum += t.vruntime + progress(c);
            } else if (t != null) {
                groupProgress += progress(c);
            }
        }
        if (group.queued || active) {
            sum += groupProgress + (group.queued ? 0 : group.vruntime);
        }
        int n = count();
        if (n > 0) {
            lastAvg = Math.floorDiv(sum, n);
        }
        return lastAvg;
    }
}
