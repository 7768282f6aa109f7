package org.netnslab.machine;

import java.util.ArrayDeque;

/**
 * The simulated machine's CPUs and their scheduler ({@link Scheduling}). Longer than ~300 lines because
 * the fair scheduler's dispatch, tick, wake-up and preemption rules share the per-CPU state and are read
 * best together.
 *
 * <p><b>fifo</b> (the machine before issue #20): one FIFO run queue of steps; a step starts when a CPU is
 * free, is never preempted, and frees its CPU at its end. Tasks are ignored.
 *
 * <p><b>fair</b>: EEVDF (kernel/sched/fair.c since v6.6) over one global queue for all P CPUs. Each {@link
 * CpuTask} has a virtual runtime (its CPU time: every task has nice 0) and a virtual deadline (vruntime + slice,
 * renewed when the vruntime passes it: update_deadline). A free CPU takes the eligible task (vruntime <= V, the
 * average over runnable tasks: avg_vruntime/entity_eligible) with the earliest deadline (pick_eevdf). A running
 * task keeps its CPU (RUN_TO_PARITY) until it sleeps, or until it is marked need_resched and reaches a preemption
 * point. It is marked at a tick (every 1/HZ: the tick's update_curr) when it is past its deadline and another task
 * is queued, and at a wake-up (check_preempt_wakeup_fair) when it is past its deadline, or when it is no longer
 * eligible and the woken task is the eligible one with the earliest deadline (an eligible task inside its slice is
 * protected: protect_slice). A wake-up done by a task's step (a sync wake-up, e.g. sk_data_ready in a sendmsg) is
 * checked against the waker's CPU only; one from a timer against the first CPU whose task yields. Preemption
 * points ({@link Step}): the end of a user step or the return to user space always; in a system call, as {@link
 * Scheduling.Preempt} allows. A user step is preempted at once (the timer interrupt returns to user mode through
 * schedule()). A sleeping task keeps its lag (V - vruntime, clamped to the larger of two slices and a tick as
 * place_entity does); negative lag decays while it sleeps (the v6.12 DELAY_DEQUEUE feature keeps it queued until
 * eligible), and on wake-up it is placed at V - lag (place_entity, PLACE_LAG), so a task that slept long is
 * eligible at once and its deadline is at most a slice away. A new task starts at V: with half a slice when its
 * first step is its fork (PLACE_DEADLINE_INITIAL, which only wake_up_new_task's ENQUEUE_INITIAL asks for), with a
 * whole one when it is a process that was set up before and sleeps until its first step (a probe's injector at its
 * start gate: a plain wake-up, placed as a task whose lag is 0, about what one that ran only its set-up keeps). A
 * switch from one task to another costs {@code context-switch} ns of kernel time for
 * the incoming task; a CPU leaving idle for a woken task charges none (that wake-up latency is the waker's cost to
 * model, e.g. {@code costs.mutex-handoff} for a mutex waiter).
 *
 * <p>A step's continuation runs at its end; when it asks for the task's next step at the same instant
 * (through any number of zero-time actor messages), the task is still on its CPU and continues there
 * unless preempted. When the instant is over (engine quiescence) and it asked for nothing, it sleeps.
 *
 * <p>Why one global queue and not per-CPU queues with load balancing: the targets are rates and
 * latency tails of closed loops over 2..64 CPUs; one queue gives each task the fair share the kernel's
 * balancer converges to, without modelling migration costs and imbalance windows no target measures. A task
 * may be bound to one CPU ({@link #newTask(String, CpuTask.Kind, boolean, int)}: a per-CPU kernel thread such as
 * ksoftirqd/N): only that CPU picks it, its wake-ups preempt only that CPU's task, and that CPU's tick alone
 * renews the group entity's slice for it. With nothing bound the schedule is as without binding.
 *
 * <p><b>Task groups</b> ({@link Scheduling.TaskGroup#SESSION}, CONFIG_FAIR_GROUP_SCHED with sched_autogroup or a
 * cpu cgroup): the kernel threads ({@link CpuTask.Kind#kernelThread}) are in the root group with one entity for the
 * load's group, every other task in that group, scheduled there as above. The group entity's vruntime grows by its
 * tasks' CPU time on any CPU (weight 1024); it is placed, and keeps its lag, as a task when the group goes idle and
 * comes back; it is in the root queue while one of its tasks waits. A free CPU picks at the root (a kernel thread or
 * the group), then in the group; a wake-up across the levels compares the kernel thread with the group entity
 * (check_preempt_wakeup_fair's find_matching_se); at the tick, a load task yields for a waiting kernel thread when
 * the group is past its deadline and the root pick is then the kernel thread. One global entity, where the kernel
 * has one per CPU whose weight is the group's 1024 split by its load there (calc_group_shares): a kworker here gets
 * a whole CPU against a group running on two, the kernel's about two thirds of one until its balancer moves the
 * group's tasks away. With no kernel thread runnable the schedule is exactly the root group's.
 *
 * <p>Threading: the engine's driver thread only (virtual execution).
 */
public final class Cpus {
    private final VirtualEngine engine;
    private final int count;
    private final Scheduling sched;
    private final long slice;
    private final long lagLimit;
    // fifo
    private final ArrayDeque<FifoStep> runQueue = new ArrayDeque<>();
    private int free;
    // fair
    private final EevdfQueue queue = new EevdfQueue();
    private final CpuTask[] current;
    private final CpuTask[] last;
    private final boolean[] holding;
    private final long[] accountedAt;
    private final VirtualEngine.Event[] completion;
    private final Runnable[] stepEnds;
    private boolean holdCheckArmed;
    /** The task whose step's continuation is running (it holds its CPU), or null: the waker of a wake-up. */
    private CpuTask waker;

    private VirtualEngine.Event tickEvent;
    private long lastAvg;
    /** When this machine started (the engine's clock then): the ticks' phase. */
    private final long epoch;
    /**
     * The CPUs whose {@code holding} is true, so that the instant's end visits those only, not every CPU. Both are
     * kept (by {@link #hold}): the hot path reads {@code holding[c]}, and reading this set there instead made full TC1
     * at --scale 0.2 about 10% slower (15.8 s against 14.0-14.5 s, two rounds).
     */
    private final java.util.BitSet held = new java.util.BitSet();
    /** CPUs with no task (neither running nor holding). */
    private final java.util.BitSet idle = new java.util.BitSet();
    /** Over the CPUs with a task: how many, the sum of their vruntimes as accounted, and of those in a step
     * (not holding) how many and the sum of their accountedAt, so V is O(1): {@link #avgVruntime}. */
    private int runningCount;

    private long runSumV;
    private int inStepCount;
    private long inStepSumAt;
    private long taskIds;
    // fair, machine.task-group = session: the root task group's level (see the class comment)
    private final boolean grouped;
    /** The root group's queued entities: kernel threads and, while any of its tasks is queued, {@link #group}. */
    private final EevdfQueue rootQueue = new EevdfQueue();
    /** The load's group entity in the root group; its vruntime grows by its tasks' CPU time (weight 1024). */
    private final CpuTask group = new CpuTask("task-group", CpuTask.Kind.OTHER, -1, false);
    /** Whether any task of the load's group is queued or on a CPU (the group entity is enqueued). */
    private boolean groupActive;

    private long lastRootAvg;
    // figures
    private long busyNanos;
    /** {@link #busyNanos} by the kind of task that spent it (fair). */
    private final long[] busyByKind = new long[CpuTask.Kind.values().length];

    private long steps;
    private long switches;
    private long preemptions;

    private record FifoStep(long nanos, Runnable then) {}

    /**
     * A FIFO machine (the machine before issue #20).
     *
     * @param engine the engine whose clock the steps use
     * @param count CPUs, >= 1
     * @throws IllegalArgumentException when {@code count < 1}
     */
    public Cpus(VirtualEngine engine, int count) {
        this(engine, count, Scheduling.FIFO);
    }

    /**
     * @param engine the engine whose clock the steps use
     * @param count CPUs, >= 1
     * @param sched how they schedule
     * @throws IllegalArgumentException when {@code count < 1}
     */
    public Cpus(VirtualEngine engine, int count, Scheduling sched) {
        if (count < 1) {
            throw new IllegalArgumentException("machine.cpus must be >= 1, got " + count);
        }
        this.engine = engine;
        this.count = count;
        this.sched = sched;
        this.free = count;
        this.slice = sched.sliceNanos(count);
        this.lagLimit = Math.max(2 * slice, sched.tickNanos());
        this.current = new CpuTask[count];
        this.last = new CpuTask[count];
        this.holding = new boolean[count];
        this.accountedAt = new long[count];
        this.completion = new VirtualEngine.Event[count];
        this.stepEnds = new Runnable[count];
        for (int c = 0; c < count; c++) {
            int cpu = c;
            stepEnds[c] = () -> stepEnd(cpu);
        }
        idle.set(0, count);
        this.epoch = engine.now();
        this.grouped =
                sched.scheduler() == Scheduling.Scheduler.FAIR && sched.taskGroup() == Scheduling.TaskGroup.SESSION;
    }

    /** @return the number of CPUs */
    public int count() {
        return count;
    }

    /** @return the scheduling rules */
    public Scheduling scheduling() {
        return sched;
    }

    /**
     * Time to the {@code ticks}-th tick from now (the next one is the first): ticks are counted from this machine's
     * start, as the tick preemption's are, so a timer on the tick fires with it.
     *
     * @param ticks ticks, >= 1
     * @return ns of simulated time, in ((ticks - 1) x tick, ticks x tick]
     * @throws IllegalArgumentException when {@code ticks < 1}
     */
    public long nanosToTick(int ticks) {
        if (ticks < 1) {
            throw new IllegalArgumentException("the " + ticks + "-th tick from now");
        }
        long tick = sched.tickNanos();
        long since = engine.now() - epoch;
        return (since / tick + ticks) * tick - since;
    }

    /** @return the slice every task gets (fair), ns */
    public long sliceNanos() {
        return slice;
    }

    /**
     * @param name the task's name
     * @param kind what it is
     * @return a new task of this machine, not yet runnable
     */
    public CpuTask newTask(String name, CpuTask.Kind kind) {
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
    public CpuTask newTask(String name, CpuTask.Kind kind, boolean forked) {
        return new CpuTask(name, kind, taskIds++, forked);
    }

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
    public CpuTask newTask(String name, CpuTask.Kind kind, boolean forked, int cpu) {
        if (cpu < 0 || cpu >= count) {
            throw new IllegalArgumentException(
                    name + ": bound to CPU " + cpu + ", the machine has CPUs 0.." + (count - 1));
        }
        if (!kind.kernelThread()) { // a bound load task would need its group entity bound too
            throw new IllegalArgumentException(
                    name + ": only a kernel thread (kworker, rcu, device) is bound to a CPU, got "
                            + kind.name().toLowerCase(java.util.Locale.ROOT));
        }
        return new CpuTask(name, kind, taskIds++, forked, cpu);
    }

    /**
     * Runs a kernel step of {@code nanos} on a CPU for a one-off task of its own, then {@code then}.
     *
     * @param nanos the step's CPU time, ns (0 still waits for a CPU)
     * @param then what follows the step, on the engine
     */
    public void run(long nanos, Runnable then) {
        if (sched.scheduler() == Scheduling.Scheduler.FIFO) {
            runFifo(nanos, then);
        } else {
            run(newTask("step", CpuTask.Kind.OTHER), Step.KERNEL, nanos, then);
        }
    }

    /**
     * Runs a step of {@code task} on a CPU, then {@code then} at the step's end. A task's steps run in the
     * order asked for. Under fifo the task is ignored.
     *
     * @param task the task doing the work
     * @param step what kind of work (user or kernel, and what its end is)
     * @param nanos its CPU time, ns (negative counts as 0)
     * @param then what follows the step, typically a tell to the task's actor
     */
    public void run(CpuTask task, Step step, long nanos, Runnable then) {
        long n = Math.max(0, nanos);
        if (sched.scheduler() == Scheduling.Scheduler.FIFO) {
            runFifo(n, then);
            return;
        }
        if (task.step != null || task.queued || !task.pending.isEmpty()) {
            task.pending.add(new CpuTask.Request(step, n, then));
            return;
        }
        begin(task, step, n, then);
    }

    /** Starts {@code task}'s next step (none in progress or queued): on its CPU, or by waking it. */
    private void begin(CpuTask task, Step step, long n, Runnable then) {
        task.step = step;
        task.remaining = n;
        task.then = then;
        int c = task.cpu;
        if (c < 0) {
            wake(task);
        } else if (task.needResched && preemptible(task.lastStep, step)) {
            leave(c, task);
            renewIfPast(task);
            enqueue(task);
            dispatch(c);
            fillIdle();
        } else {
            off(c);
            hold(c, false);
            on(c);
            startStep(c, 0);
        }
    }

    /** Removes CPU c's task from the running sums (before a change to its state). */
    private void off(int c) {
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
    private void on(int c) {
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

    /**
     * Whether {@code task}, whose step has just ended (called from the step's continuation), would go on
     * at once with a step of kind {@code next}: false when it is marked need_resched and the boundary is a
     * preemption point, i.e. it would wait for a CPU first. A task times its system call up to its return
     * to user space; when this is false for {@link Step#USER}, the return includes that wait.
     *
     * @param task a task of this machine
     * @param next the kind of its next step
     * @return true under fifo, or when it keeps its CPU
     */
    public boolean continuesNow(CpuTask task, Step next) {
        if (sched.scheduler() == Scheduling.Scheduler.FIFO) {
            return true;
        }
        return task.cpu >= 0 && holding[task.cpu] && !(task.needResched && preemptible(task.lastStep, next));
    }

    /**
     * @param task a task of this machine
     * @return true under the fair scheduler when the task is asleep (not on a CPU, not queued, no step asked
     *     for), so that the next step asked of it wakes it (try_to_wake_up); false under fifo
     */
    public boolean asleep(CpuTask task) {
        return fair() && task.cpu < 0 && !task.queued && task.step == null && task.pending.isEmpty();
    }

    /** @return true under the fair scheduler (tasks, user steps, preemption) */
    public boolean fair() {
        return sched.scheduler() == Scheduling.Scheduler.FAIR;
    }

    private boolean preemptible(Step prev, Step next) {
        if (prev == Step.USER || next == Step.USER) {
            return true; // user mode, or the return to it (exit_to_user_mode_loop)
        }
        return switch (prev) {
            case COND_RESCHED -> true;
            case MIGHT_SLEEP -> sched.preempt() != Scheduling.Preempt.NONE;
            case KERNEL -> sched.preempt() == Scheduling.Preempt.FULL;
            default -> false;
        };
    }

    private void wake(CpuTask t) {
        boolean root = inRoot(t);
        if (grouped && !root && !groupActive) { // the group's first runnable task enqueues the group entity
            place(group, rootAvg(), rootCount());
            groupActive = true;
        }
        if (root) {
            place(t, rootAvg(), rootCount());
        } else {
            place(t, avgVruntime(), queue.size() + runningCount);
        }
        int free = t.bound < 0 ? idle.nextSetBit(0) : idle.get(t.bound) ? t.bound : -1;
        if (free >= 0 && !anyQueued()) { // straight onto an idle CPU, as pick_eevdf over one task would
            last[free] = t; // out of idle: no switch cost; the wake-up latency is the waker's to charge
            t.runnableSince = engine.now();
            runOn(free, t);
            return;
        }
        enqueue(t);
        if (free >= 0) {
            last[free] = t;
            dispatch(free);
            return;
        }
        if (t.bound >= 0) { // a per-CPU thread is woken on its own CPU
            if (current[t.bound] != null) {
                preemptOnWakeup(t.bound, t);
            }
            return;
        }
        if (waker != null && waker.cpu >= 0 && current[waker.cpu] == waker) {
            preemptOnWakeup(waker.cpu, t); // a sync wake-up: the wakee joins the waker's CPU (wake_affine)
            return;
        }
        for (int c = 0;
                c < count;
                c++) { // no waker on a CPU (a timer, a grace period's end): the first CPU that yields
            if (current[c] != null && preemptOnWakeup(c, t)) {
                return;
            }
        }
    }

    /**
     * place_entity (kernel/sched/fair.c): a new entity at V, with half a slice when forked; a woken one at V less
     * the lag it kept, its negative lag slept off.
     *
     * @param t the task (or the group entity)
     * @param v V of the queue it joins
     * @param n the entities already counted in that V
     */
    private void place(CpuTask t, long v, int n) {
        if (!t.placed) {
            t.placed = true;
            t.vruntime = v;
            t.deadline = v + (t.forked ? slice / 2 : slice);
        } else {
            long lag = t.vlag;
            if (lag < 0) {
                lag = Math.min(0, lag + (v - t.sleptAtV)); // negative lag is slept off (DELAY_DEQUEUE)
            }
            if (n > 0) {
                lag = lag * (n + 1) / n; // place_entity: the lag the task keeps once it is counted in V
            }
            t.vruntime = v - lag;
            t.deadline = t.vruntime + slice;
        }
    }

    /**
     * check_preempt_wakeup_fair (kernel/sched/fair.c, v6.6+; protect_slice as in v6.17+) for the task on CPU
     * {@code c} when {@code woken} has just been queued: update_curr (a task past its deadline gets a new one
     * and is rescheduled), then __pick_eevdf with the current task's slice protected: a current task that is
     * eligible (vruntime <= V) keeps its CPU while inside its slice (vprot is its deadline, every slice being
     * equal); one that is not eligible yields when {@code woken} is now the eligible task with the earliest
     * deadline. Under preempt none the mark takes effect at the current task's next preemption point, e.g.
     * the waker's return to user space.
     *
     * @return true when the current task was marked
     */
    private boolean preemptOnWakeup(int c, CpuTask woken) {
        if (mark(c)) {
            return true;
        }
        CpuTask curr = current[c];
        if (grouped && (inRoot(curr) || inRoot(woken))) {
            // at the root level: the load's tasks are its group entity there (check_preempt_wakeup_fair's
            // find_matching_se walks both up to the level they share)
            accountGroup();
            CpuTask currEntity = inRoot(curr) ? curr : group;
            long v = rootAvg();
            if (currEntity.vruntime <= v || rootQueue.pick(v, c) != (inRoot(woken) ? woken : group)) {
                return false;
            }
        } else {
            long v = avgVruntime();
            if (curr.vruntime <= v || queue.pick(v, c) != woken) {
                return false;
            }
        }
        resched(c);
        return true;
    }

    /**
     * update_curr + update_deadline: a running task past its deadline gets a new one and, when another task is
     * queued, need_resched.
     *
     * @return true when it was marked
     */
    private boolean mark(int c) {
        CpuTask t = current[c];
        account(c);
        boolean marked = false;
        if (t.vruntime >= t.deadline) {
            t.deadline = t.vruntime + slice;
            marked = inRoot(t) ? rootQueue.hasAllowed(c, null) : queue.hasAllowed(c, null);
        }
        // a kernel thread that may run on c waits (the group entity's slice renewed only then: a thread bound to
        // another CPU waits for that CPU's tick)
        if (grouped && !inRoot(t) && rootQueue.hasAllowed(c, group)) {
            accountGroup();
            if (group.vruntime >= group.deadline) { // the group entity past its deadline: update_deadline at the root
                setGroup(group.vruntime, group.vruntime + slice);
                // the load task yields only if the root pick is now the kernel thread (else pick_eevdf keeps curr)
                marked |= rootQueue.pick(rootAvg(), c) != group;
            }
        }
        if (marked) {
            resched(c);
        }
        return marked;
    }

    /**
     * resched_curr: marks CPU {@code c}'s task need_resched. A task in a user step yields at once (the
     * interrupt returns to user mode through schedule()); one in a kernel step or holding its CPU at a
     * step's end yields at its next preemption point ({@link #run}, {@link #continuesNow}).
     */
    private void resched(int c) {
        CpuTask t = current[c];
        t.needResched = true;
        if (t.step == Step.USER && !holding[c]) {
            completion[c].cancel();
            leave(c, t);
            enqueue(t);
            dispatch(c);
            fillIdle();
        }
    }

    /**
     * A task preempted on CPU {@code c} for a thread bound there goes to an idle CPU if there is one (the global
     * queue stands for a balanced machine, where an idle CPU pulls it at once: newidle balance). Without bound tasks
     * an idle CPU means an empty queue, so this never moves anything and the schedule is as before.
     */
    private void fillIdle() {
        for (int f = idle.nextSetBit(0); f >= 0 && anyQueued(); f = idle.nextSetBit(f + 1)) {
            dispatch(f);
        }
    }

    private void tick() {
        tickEvent = null;
        for (int c = 0; c < count; c++) {
            if (current[c] != null && !holding[c]) {
                mark(c);
            }
        }
        armTick();
    }

    private void armTick() {
        if (tickEvent == null && anyQueued()) {
            // ticks counted from this machine's start: a design run's figures do not depend on the clock it starts at
            tickEvent = engine.schedule(nanosToTick(1), this::tick);
        }
    }

    private void enqueue(CpuTask t) {
        t.runnableSince = engine.now();
        if (inRoot(t)) {
            rootQueue.add(t);
        } else {
            queue.add(t);
            syncGroupQueued();
        }
        armTick();
    }

    /** @return true when a task waits for a CPU */
    private boolean anyQueued() {
        return !queue.isEmpty() || !rootQueue.isEmpty();
    }

    /** @return true when {@code t} is a kernel thread in the root task group beside the load's group entity */
    private boolean inRoot(CpuTask t) {
        return grouped && t.kind().kernelThread();
    }

    /** The group entity is in the root queue exactly while one of its tasks is queued. */
    private void syncGroupQueued() {
        if (grouped && queue.isEmpty() == group.queued) {
            if (group.queued) {
                rootQueue.remove(group);
            } else {
                rootQueue.add(group);
            }
        }
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

    /** A task's virtual runtime grows by {@code d}; in a group of its own, its group entity's too. */
    private void advance(CpuTask t, long d) {
        t.vruntime += d;
        if (grouped && !inRoot(t)) {
            setGroup(group.vruntime + d, group.deadline);
        }
    }

    /**
     * Accounts the load tasks on a CPU up to now, so that the group entity's vruntime holds their progress before a
     * root-level decision compares it with V (update_curr on each CPU's group entity, in the kernel).
     */
    private void accountGroup() {
        for (int c = 0; c < count; c++) {
            if (current[c] != null && !inRoot(current[c]) && !holding[c]) {
                account(c);
            }
        }
    }

    /** @return the CPU time CPU {@code c}'s task has run since it was last accounted, ns */
    private long progress(int c) {
        return holding[c] ? 0 : Math.max(0, engine.now() - accountedAt[c]);
    }

    /** @return the root group's runnable entities: its kernel threads queued or on a CPU, and the load's group */
    private int rootCount() {
        int n = rootQueue.size() + (groupActive && !group.queued ? 1 : 0);
        for (int c = 0; c < count; c++) {
            if (current[c] != null && inRoot(current[c])) {
                n++;
            }
        }
        return n;
    }

    /** avg_vruntime of the root group: its kernel threads and the load's group entity, at their progress. */
    private long rootAvg() {
        long sum = rootQueue.sumVruntime();
        long groupProgress = 0;
        for (int c = 0; c < count; c++) {
            CpuTask t = current[c];
            if (t != null && inRoot(t)) {
                sum += t.vruntime + progress(c);
            } else if (t != null) {
                groupProgress += progress(c);
            }
        }
        if (group.queued || groupActive) {
            sum += groupProgress + (group.queued ? 0 : group.vruntime);
        }
        int n = rootCount();
        if (n > 0) {
            lastRootAvg = Math.floorDiv(sum, n);
        }
        return lastRootAvg;
    }

    /** The task leaves CPU {@code c} while runnable (preempted). */
    private void leave(int c, CpuTask t) {
        off(c);
        current[c] = null;
        hold(c, false);
        idle.set(c);
        completion[c] = null;
        t.cpu = -1;
        t.needResched = false;
        t.preemptions++;
        preemptions++;
    }

    private void dispatch(int c) {
        CpuTask next = anyQueued() ? pickNext(c) : null;
        if (next == null) { // nothing queued, or only threads bound to other CPUs
            off(c);
            current[c] = null;
            idle.set(c);
            return;
        }
        runOn(c, next);
    }

    /** pick_next_entity down the levels: at the root a kernel thread or the load's group, then in the group. */
    private CpuTask pickNext(int c) {
        if (grouped) {
            accountGroup();
            CpuTask e = rootQueue.pick(rootAvg(), c);
            if (e != null && e != group) {
                rootQueue.remove(e);
                return e;
            }
        }
        CpuTask t = queue.pick(avgVruntime(), c);
        if (t != null) {
            queue.remove(t);
            syncGroupQueued();
        }
        return t;
    }

    private void runOn(int c, CpuTask t) {
        t.waitNanos += engine.now() - t.runnableSince;
        off(c);
        current[c] = t;
        hold(c, false);
        idle.clear(c);
        t.cpu = c;
        long sw = 0;
        if (last[c] != t) {
            sw = sched.contextSwitchNanos();
            last[c] = t;
            t.switchesIn++;
            switches++;
            advance(t, sw);
            t.kernelNanos += sw;
            busyNanos += sw;
            busyByKind[t.kind().ordinal()] += sw;
        }
        accountedAt[c] = engine.now() + sw;
        on(c);
        startStep(c, sw);
    }

    private void startStep(int c, long delay) {
        CpuTask t = current[c];
        steps++;
        off(c);
        accountedAt[c] = engine.now() + delay;
        on(c);
        completion[c] = engine.schedule(delay + t.remaining, stepEnds[c]);
    }

    private void account(int c) {
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
        busyNanos += d;
        busyByKind[t.kind().ordinal()] += d;
        if (t.step == Step.USER) {
            t.userNanos += d;
        } else {
            t.kernelNanos += d;
        }
    }

    private void stepEnd(int c) {
        account(c);
        CpuTask t = current[c];
        Runnable then = t.then;
        t.lastStep = t.step;
        t.step = null;
        t.then = null;
        t.remaining = 0;
        off(c);
        hold(c, true);
        on(c);
        completion[c] = null;
        if (!holdCheckArmed) {
            holdCheckArmed = true;
            engine.atQuiescence(this::sleepHolders);
        }
        CpuTask outer = waker;
        waker = t; // the continuation runs on t's CPU: a wake-up it does is t's (a sync wake-up)
        try {
            then.run();
        } finally {
            waker = outer;
        }
        if (t.step == null && !t.queued && t.cpu == c && !t.pending.isEmpty()) {
            CpuTask.Request r = t.pending.poll(); // the oldest request goes first, however many wait behind it
            begin(t, r.step(), r.nanos(), r.then());
        }
    }

    private void hold(int c, boolean h) {
        holding[c] = h;
        held.set(c, h);
    }

    /** At the instant's end: a task still holding its CPU asked for no step; it sleeps (dequeue_entity). */
    private void sleepHolders() {
        holdCheckArmed = false;
        for (int c = held.nextSetBit(0); c >= 0; c = held.nextSetBit(c + 1)) { // in CPU order, as a visit of all
            CpuTask t = current[c];
            keepLag(t, inRoot(t) ? rootAvg() : avgVruntime());
            off(c);
            current[c] = null;
            hold(c, false);
            idle.set(c);
            t.cpu = -1;
            t.needResched = false;
            if (grouped && !inRoot(t) && queue.isEmpty() && runningCount == 0) { // the group's last task sleeps
                keepLag(group, rootAvg());
                groupActive = false;
            }
            dispatch(c);
        }
    }

    /**
     * dequeue_entity's update_entity_lag: a sleeping entity keeps its lag, clamped, for {@link #place}.
     *
     * @param t the task (or the group entity)
     * @param v V of the queue it leaves
     */
    private void keepLag(CpuTask t, long v) {
        t.vlag = Math.max(-lagLimit, Math.min(lagLimit, v - t.vruntime));
        t.sleptAtV = v;
    }

    private void renewIfPast(CpuTask t) {
        if (t.vruntime >= t.deadline) {
            t.deadline = t.vruntime + slice;
        }
    }

    /** avg_vruntime: V over the queued and the running tasks (the running at their progress so far). */
    private long avgVruntime() {
        long n = queue.size() + runningCount;
        if (n > 0) {
            long sum = queue.sumVruntime() + runSumV + inStepCount * engine.now() - inStepSumAt;
            lastAvg = Math.floorDiv(sum, n);
        }
        return lastAvg;
    }

    private void runFifo(long nanos, Runnable then) {
        FifoStep s = new FifoStep(Math.max(0, nanos), then);
        if (free > 0) {
            free--;
            startFifo(s);
        } else {
            runQueue.add(s);
        }
    }

    private void startFifo(FifoStep s) {
        steps++;
        busyNanos += s.nanos;
        engine.schedule(s.nanos, () -> {
            FifoStep next = runQueue.poll();
            if (next != null) {
                startFifo(next);
            } else {
                free++;
            }
            s.then.run();
        });
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

    /** @return context switches so far (fair) */
    public long switches() {
        return switches;
    }

    /** @return preemptions so far (fair) */
    public long preemptions() {
        return preemptions;
    }

    /** @return steps (fifo) or tasks (fair) waiting for a CPU now */
    public int queued() {
        return sched.scheduler() == Scheduling.Scheduler.FIFO
                ? runQueue.size()
                : queue.size() + rootQueue.size() - (group.queued ? 1 : 0);
    }
}
