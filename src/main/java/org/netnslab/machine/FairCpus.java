package org.netnslab.machine;

import java.util.BitSet;

/**
 * The fair machine ({@code machine.scheduler = fair}): EEVDF (kernel/sched/fair.c, v6.6+) over one global queue for
 * all CPUs. This class is the core scheduler's part (kernel/sched/core.c: which task is on which CPU, its steps,
 * try_to_wake_up, the tick, resched_curr and the preemption points of {@link Scheduling.Preempt}); {@link FairClass}
 * is the fair class's (the queue, V, the pick and the preemption checks). docs/scheduler.md gives the rules, and why
 * one global queue.
 *
 * <p>A step's continuation runs at its end with its task still on the CPU (holding it): a step the task asks for at
 * that instant continues there unless preempted; at the instant's end (engine quiescence) a task that asked for
 * nothing sleeps. Times are ns. Threading: the engine's driver thread only.
 */
public final class FairCpus extends AbstractCpus {
    private final Placement placement;
    private final Scheduling.Preempt preempt;
    private final FairClass fair;
    /** Each CPU's task, running or holding it, or null; and the task that ran on it last. */
    private final CpuTask[] current;

    private final CpuTask[] last;
    /** Whether each CPU's task holds it between steps (its step ended at this instant). */
    private final boolean[] holding;
    /** When each CPU's task was last accounted (update_curr), or its step starts (after a switch's cost). */
    private final long[] accountedAt;

    /** What the next task switched in on each CPU pays to finish the switch away from a dead task, ns; 0: none. */
    private final long[] deadFinish;

    private final VirtualEngine.Event[] completion;
    private final Runnable[] stepEnds;
    private boolean holdCheckArmed;
    /** {@link #sleepHolders} as one Runnable, made once: a step's end arms it at most once an instant. */
    private final Runnable sleepHoldersAtQuiescence = this::sleepHolders;
    /** The task whose step's continuation is running (it holds its CPU), or null: the waker of a wake-up. */
    private CpuTask waker;

    private VirtualEngine.Event tickEvent;
    /**
     * The CPUs whose {@code holding} is true, so that the instant's end visits those only, not every CPU. Both are
     * kept (by {@link #hold}): the hot path reads {@code holding[c]}, and reading this set there instead made full TC1
     * at --scale 0.2 about 10% slower (15.8 s against 14.0-14.5 s, two rounds).
     */
    private final BitSet held = new BitSet();
    /** CPUs with no task (neither running nor holding). */
    private final BitSet idle = new BitSet();

    /**
     * @param engine the engine whose clock the steps use
     * @param count CPUs, >= 1
     * @param sched how they schedule, whose scheduler is {@link Scheduling.Scheduler#FAIR}
     * @throws IllegalArgumentException when {@code count < 1}, or {@code sched} names the fifo scheduler
     */
    public FairCpus(VirtualEngine engine, int count, Scheduling sched) {
        super(engine, count, sched, Scheduling.Scheduler.FAIR);
        this.placement = new Placement(sched.sliceNanos(count), sched.tickNanos());
        this.preempt = sched.preempt();
        this.current = new CpuTask[count];
        this.last = new CpuTask[count];
        this.holding = new boolean[count];
        this.accountedAt = new long[count];
        this.deadFinish = new long[count];
        this.completion = new VirtualEngine.Event[count];
        this.stepEnds = new Runnable[count];
        for (int c = 0; c < count; c++) {
            int cpu = c;
            stepEnds[c] = () -> stepEnd(cpu);
        }
        idle.set(0, count);
        boolean grouped = sched.taskGroup() == Scheduling.TaskGroup.SESSION;
        this.fair = new FairClass(engine, counters, placement, grouped, current, holding, accountedAt);
    }

    /** @return the slice every task gets, ns */
    public long sliceNanos() {
        return placement.slice();
    }

    @Override
    public boolean fair() {
        return true;
    }

    @Override
    public void run(long nanos, Runnable then) {
        run(newTask("step", CpuTask.Kind.OTHER), Step.KERNEL, nanos, then);
    }

    @Override
    public void run(CpuTask task, Step step, long nanos, Runnable then) {
        run(task, step, nanos, null, then);
    }

    @Override
    public void run(CpuTask task, Step step, long nanos, java.util.function.LongSupplier extra, Runnable then) {
        long n = Math.max(0, nanos);
        if (task.step != null || task.queued || !task.pending.isEmpty()) {
            task.pending.add(new CpuTask.Request(step, n, then, extra));
            return;
        }
        begin(task, step, n + extraNanos(extra), then);
    }

    /** @return what a step costs more when it starts ({@link CpuTask.Request#extra}), ns; 0 for none */
    private static long extraNanos(java.util.function.LongSupplier extra) {
        return extra == null ? 0 : Math.max(0, extra.getAsLong());
    }

    @Override
    public void exit(CpuTask task, long finishNanos) {
        task.exitFinishNanos = Math.max(0, finishNanos);
    }

    @Override
    public boolean continuesNow(CpuTask task, Step next) {
        return task.cpu >= 0 && holding[task.cpu] && !(task.needResched && preempt.preemptsAt(task.lastStep, next));
    }

    @Override
    public boolean asleep(CpuTask task) {
        return task.cpu < 0 && !task.queued && task.step == null && task.pending.isEmpty();
    }

    @Override
    public int queued() {
        return fair.queued();
    }

    /** Starts {@code task}'s next step (none in progress or queued): on its CPU, or by waking it. */
    private void begin(CpuTask task, Step step, long n, Runnable then) {
        task.step = step;
        task.remaining = n;
        task.then = then;
        int c = task.cpu;
        if (c < 0) {
            wake(task);
        } else if (task.needResched && preempt.preemptsAt(task.lastStep, step)) {
            leave(c, task);
            placement.renewIfPast(task);
            enqueue(task);
            dispatch(c);
            fillIdle();
        } else {
            fair.off(c);
            hold(c, false);
            fair.on(c);
            startStep(c, 0);
        }
    }

    /** try_to_wake_up: places the woken task, then runs it on an idle CPU, or queues it with a preemption check. */
    private void wake(CpuTask t) {
        fair.place(t);
        int free = t.bound < 0 ? idle.nextSetBit(0) : idle.get(t.bound) ? t.bound : -1;
        if (free >= 0 && !fair.anyQueued()) { // straight onto an idle CPU, as pick_eevdf over one task would
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
            // a sync wake-up: the wakee joins the waker's CPU queue (wake_affine_idle), which another CPU leaves to it
            t.wokenOn = waker.cpu;
            preemptOnWakeup(waker.cpu, t);
            return;
        }
        // no waker on a CPU (a timer, a grace period's end): the first CPU that yields
        for (int c = 0; c < count; c++) {
            if (current[c] != null && preemptOnWakeup(c, t)) {
                return;
            }
        }
    }

    /**
     * check_preempt_wakeup_fair for the task on CPU {@code c} when {@code woken} has just been queued: update_curr (a
     * task past its deadline gets a new one and is rescheduled), then the pick ({@link FairClass#wakeupPreempts}).
     * Under preempt none the mark takes effect at the current task's next preemption point.
     *
     * @return true when the current task was marked
     */
    private boolean preemptOnWakeup(int c, CpuTask woken) {
        if (mark(c)) {
            return true;
        }
        if (!fair.wakeupPreempts(c, woken)) {
            return false;
        }
        resched(c);
        return true;
    }

    /**
     * update_curr + update_deadline: marks CPU {@code c}'s task need_resched when it is past its deadline and another
     * task waits for that CPU ({@link FairClass#deadlinePreempts}).
     *
     * @return true when it was marked
     */
    private boolean mark(int c) {
        boolean marked = fair.deadlinePreempts(c);
        if (marked) {
            resched(c);
        }
        return marked;
    }

    /**
     * resched_curr: marks CPU {@code c}'s task need_resched. A task in a user step yields at once (the interrupt
     * returns to user mode through schedule()); one in a kernel step or holding its CPU at a step's end yields at its
     * next preemption point ({@link #run}, {@link #continuesNow}).
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
     * A task preempted on CPU {@code c} for a thread bound there goes to an idle CPU if there is one (the global queue
     * stands for a balanced machine, where an idle CPU pulls it at once: newidle balance). Without bound tasks an idle
     * CPU means an empty queue, so this moves nothing.
     */
    private void fillIdle() {
        for (int f = idle.nextSetBit(0); f >= 0 && fair.anyQueued(); f = idle.nextSetBit(f + 1)) {
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
        if (tickEvent == null && fair.anyQueued()) {
            // ticks counted from this machine's start: a design run's figures do not depend on the clock it starts at
            tickEvent = engine.schedule(nanosToTick(1), this::tick);
        }
    }

    private void enqueue(CpuTask t) {
        t.runnableSince = engine.now();
        fair.enqueue(t);
        armTick();
    }

    /** The task leaves CPU {@code c} while runnable (preempted). */
    private void leave(int c, CpuTask t) {
        fair.off(c);
        current[c] = null;
        hold(c, false);
        idle.set(c);
        completion[c] = null;
        t.cpu = -1;
        t.needResched = false;
        t.preemptions++;
        counters.preempted();
    }

    private void dispatch(int c) {
        CpuTask next = fair.anyQueued() ? fair.pickNext(c) : null;
        if (next == null) { // nothing queued, or only threads bound to other CPUs
            deadFinish[c] = 0; // the idle task finishes the switch away from a dead task
            fair.off(c);
            current[c] = null;
            idle.set(c);
            return;
        }
        runOn(c, next);
    }

    private void runOn(int c, CpuTask t) {
        t.wokenOn = -1;
        t.waitNanos += engine.now() - t.runnableSince;
        fair.off(c);
        current[c] = t;
        hold(c, false);
        idle.clear(c);
        t.cpu = c;
        long sw = 0;
        if (last[c] != t) {
            last[c] = t;
            t.switchesIn++;
            counters.switched();
            long switches = counters.switches();
            sw = sched.contextSwitchNanos() + sched.coldSwitch().extraNanos(switches - t.switchStamp);
            t.switchStamp = switches;
            sw += deadFinish[c]; // the exit's remainder, on this task's clock (rq_clock_skip_update)
            t.deadFinishNanos += deadFinish[c];
            deadFinish[c] = 0;
            fair.advance(t, sw);
            t.kernelNanos += sw;
            counters.busy(t.kind(), sw);
        }
        accountedAt[c] = engine.now() + sw;
        fair.on(c);
        startStep(c, sw);
    }

    private void startStep(int c, long delay) {
        CpuTask t = current[c];
        counters.step(t.kind());
        fair.off(c);
        accountedAt[c] = engine.now() + delay;
        fair.on(c);
        completion[c] = engine.schedule(delay + t.remaining, stepEnds[c]);
    }

    private void stepEnd(int c) {
        fair.account(c);
        CpuTask t = current[c];
        Runnable then = t.then;
        t.lastStep = t.step;
        t.step = null;
        t.then = null;
        t.remaining = 0;
        fair.off(c);
        hold(c, true);
        fair.on(c);
        completion[c] = null;
        if (!holdCheckArmed) {
            holdCheckArmed = true;
            engine.atQuiescence(sleepHoldersAtQuiescence);
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
            begin(t, r.step(), r.nanos() + extraNanos(r.extra()), r.then());
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
            fair.keepLag(t);
            fair.off(c);
            current[c] = null;
            hold(c, false);
            idle.set(c);
            t.cpu = -1;
            t.needResched = false;
            fair.slept(t);
            deadFinish[c] = t.exitFinishNanos; // 0 but for a task that exited: runOn cleared it when t came on
            dispatch(c);
        }
    }
}
