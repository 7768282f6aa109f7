package org.netnslab.machine;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.Extension;
import akka.actor.typed.ExtensionId;
import akka.actor.typed.javadsl.Adapter;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The machine an actor system's model runs on, as an Akka extension: {@code Machine.get(system)}.
 *
 * <p>Live execution (any ordinary actor system): the clock is {@link System#nanoTime()}, kernel work costs
 * what the JVM spends on it, and {@link #isVirtual()} is false; model code then takes its live path and
 * never calls {@link #cpus()} or {@link #mutex}. Virtual execution (an actor system built by
 * {@link VirtualSystem}): the clock is the {@link VirtualEngine}'s, and kernel work is charged on the
 * simulated {@link Cpus} and {@link Mutex}es of the current design run ({@link #configure}).
 *
 * <p>Threading: in virtual execution every method runs on the engine's driver thread.
 */
public final class Machine implements Extension {
    private static final ExtensionId<Machine> ID = new ExtensionId<>() {
        @Override
        public Machine createExtension(ActorSystem<?> system) {
            return new Machine(Adapter.toClassic(system).scheduler() instanceof VirtualScheduler v ? v.engine() : null);
        }
    };

    private final VirtualEngine engine;
    private MachineSettings settings;
    private Cpus cpus;
    private SplittableRandom random;
    private final Map<String, Mutex> mutexes = new HashMap<>();
    private final Map<Object, CpuTask> tasks = new java.util.IdentityHashMap<>();
    private final Map<String, Object> kernelObjects = new HashMap<>();
    private long handoffNanos;
    /** Timed model steps started (grace periods, setup/exit costs), for waits that follow progress. */
    private final AtomicLong timedSteps = new AtomicLong();
    /** When the latest-ending timed step started so far ends, on {@link #nanoTime()}. */
    private final AtomicLong busyUntil = new AtomicLong(Long.MIN_VALUE);
    /** Sockets the broadcasts have walked on this machine so far (virtual: driven by the engine's thread). */
    private long socketsWalked;

    private Machine(VirtualEngine engine) {
        this.engine = engine;
        if (engine != null) {
            configure(new MachineSettings(1, 0, 0), 0);
        }
    }

    /**
     * @param system an actor system
     * @return its machine
     */
    public static Machine get(ActorSystem<?> system) {
        return ID.apply(system);
    }

    /** @return true in virtual execution */
    public boolean isVirtual() {
        return engine != null;
    }

    /** @return the engine (virtual execution), or null (live) */
    public VirtualEngine engine() {
        return engine;
    }

    /** @return the run's clock, ns: simulated in virtual execution, {@link System#nanoTime()} in live */
    public long nanoTime() {
        return engine != null ? engine.now() : System.nanoTime();
    }

    /**
     * Records that the model started a step that takes {@code nanos} of the run's clock by design (an RCU
     * grace period, netns.setup-cost, netns.exit-cost): a runner waiting for the model then knows it is slow,
     * not stalled, until the step's end ({@link #busyUntil()}). Thread-safe (live: any actor's thread).
     *
     * @param nanos the step's length, ns
     */
    public void timedStep(long nanos) {
        timedSteps.incrementAndGet();
        long end = nanoTime() + Math.max(0, nanos);
        busyUntil.accumulateAndGet(end, Math::max);
    }

    /**
     * @return model steps started so far: timed steps ({@link #timedStep}) plus, in virtual execution, CPU
     *     steps other than the host's ({@link HostBackgroundTask}). A runner's wait sees progress when this moves.
     *     Virtual: read on the engine's driver thread.
     */
    public long modelSteps() {
        return timedSteps.get()
                + (cpus != null ? cpus.counters().steps() - cpus.counters().hostSteps() : 0);
    }

    /** @return when the last-ending timed step started so far ends, on {@link #nanoTime()} (MIN_VALUE: none) */
    public long busyUntil() {
        return busyUntil.get();
    }

    /**
     * Starts a fresh machine for the next design run: new CPUs, no mutex held, the jitter reseeded, so a
     * design's figures do not depend on the runs before it. Call between design runs only.
     *
     * @param s the machine
     * @param lockHandoffNanos the hand-off (wake-up) cost of every {@link Mutex}, ns
     * @throws IllegalStateException in live execution
     */
    public void configure(MachineSettings s, long lockHandoffNanos) {
        requireVirtual();
        this.settings = s;
        this.cpus = s.scheduling().newCpus(engine, s.cpus());
        this.random = new SplittableRandom(s.randomSeed());
        this.handoffNanos = lockHandoffNanos;
        this.mutexes.clear();
        this.tasks.clear();
        this.kernelObjects.clear();
    }

    /**
     * @return true in virtual execution under the fair scheduler: model code then runs its steps as
     *     tasks, with user-space parts; otherwise (fifo) as one-off kernel steps
     */
    public boolean fair() {
        return engine != null && cpus != null && cpus.fair();
    }

    /**
     * The task of a model object that has no actor of its own (a listener socket's reader), created on first
     * use for this design run. It is a process set up before the load and asleep until its first step (a listener
     * blocked in recvmsg or poll since its set-up): that step is a plain wake-up, placed as a task whose lag is 0
     * with a whole slice ({@link Cpus#newTask(String, CpuTask.Kind, boolean)} with {@code forked} false), not a
     * fork's half slice, whose earlier deadline would make every uevent listener's first wake-up preempt its
     * injector after one send (TC1 N=1000 on 2 CPUs: 257 injectors begun in the first 10 ms, each then waiting
     * about 114 ms, where the host's probe begins 12, one after another).
     *
     * @param owner the object (identity)
     * @param name the task's name, asked only if it is new
     * @param kind its kind if it is new
     * @return the task
     */
    public CpuTask taskFor(Object owner, Supplier<String> name, CpuTask.Kind kind) {
        requireVirtual();
        CpuTask task = tasks.get(owner);
        if (task == null) { // the name is built once: this runs at every receive of every listener
            task = cpus.newTask(name.get(), kind, false);
            tasks.put(owner, task);
        }
        return task;
    }

    /** @return the current design run's machine settings (virtual execution) */
    public MachineSettings settings() {
        requireVirtual();
        return settings;
    }

    /** @return the current design run's CPUs (virtual execution) */
    public Cpus cpus() {
        requireVirtual();
        return cpus;
    }

    /**
     * @param name a system-wide kernel lock, e.g. {@code uevent_sock_mutex}
     * @return that lock of the current design run, created on first use (virtual execution)
     */
    public Mutex mutex(String name) {
        requireVirtual();
        return mutexes.computeIfAbsent(name, n -> new Mutex(engine, cpus, n, handoffNanos));
    }

    /**
     * A system-wide kernel object other than a mutex (e.g. netlink's nl_table lock), one per design run.
     *
     * @param name the kernel object's name, e.g. {@code nl_table_lock}
     * @param type its class
     * @param make makes it on first use in this design run
     * @param <T> its type
     * @return that object of the current design run (virtual execution)
     * @throws ClassCastException when {@code name} is already another type's
     */
    public <T> T kernelObject(String name, Class<T> type, Supplier<T> make) {
        requireVirtual();
        return type.cast(kernelObjects.computeIfAbsent(name, n -> make.get()));
    }

    /**
     * @param name the lock's name, for messages
     * @return a new lock, e.g. one netns's own mutex (virtual execution)
     */
    public Mutex newMutex(String name) {
        requireVirtual();
        return new Mutex(engine, cpus, name, handoffNanos);
    }

    /**
     * @param nanos a cost from the cost block, ns
     * @return the cost with this run's seeded jitter applied, ns
     */
    public long jittered(long nanos) {
        requireVirtual();
        double j = settings.jitter();
        if (j == 0 || nanos == 0) {
            return nanos;
        }
        return Math.round(nanos * (1 - j + 2 * j * random.nextDouble()));
    }

    /**
     * Runs a step of kernel work costing {@code nanos} (jittered) on a simulated CPU, then {@code then}: a
     * one-off task of its own under the fair scheduler (prefer {@link #compute(CpuTask, Step, long, Runnable)}).
     *
     * @param nanos the cost, ns
     * @param then what follows, on the engine
     */
    public void compute(long nanos, Runnable then) {
        cpus().run(jittered(nanos), then);
    }

    /**
     * Runs a step of {@code task} costing {@code nanos} (jittered) on a simulated CPU, then {@code then}
     * ({@link Cpus#run(CpuTask, Step, long, Runnable)}).
     *
     * @param task the task doing the work (from {@link #newTask})
     * @param step user or kernel work, and what its end is
     * @param nanos the cost, ns
     * @param then what follows, on the engine
     */
    public void compute(CpuTask task, Step step, long nanos, Runnable then) {
        cpus().run(task, step, jittered(nanos), then);
    }

    /**
     * Runs a step of {@code task} costing {@code nanos} (jittered now) plus {@code extra} of the sockets the broadcasts
     * walked between now and the step's start ({@link #walked}), then {@code then}: a receive whose message waited.
     *
     * @param task the task doing the work
     * @param step user or kernel work
     * @param nanos the cost known now, ns
     * @param extra the cost more, ns, of the sockets walked while the step waited
     * @param then what follows, on the engine
     */
    public void computeAfterWalks(
            CpuTask task, Step step, long nanos, java.util.function.LongUnaryOperator extra, Runnable then) {
        long queued = socketsWalked;
        cpus().run(task, step, jittered(nanos), () -> extra.applyAsLong(socketsWalked - queued), then);
    }

    /** @param n bound sockets a broadcast walks (netlink_broadcast's mc_list walk) */
    public void walked(long n) {
        socketsWalked += n;
    }

    /** @return the sockets the broadcasts have walked so far, over the whole machine */
    public long socketsWalked() {
        return socketsWalked;
    }

    /**
     * @param name the task's name, e.g. {@code injector-3}
     * @param kind what it is
     * @return a new task on the current design run's CPUs (virtual execution)
     */
    public CpuTask newTask(String name, CpuTask.Kind kind) {
        return cpus().newTask(name, kind);
    }

    /**
     * @param name the task's name, e.g. {@code injector-3}
     * @param kind what it is
     * @param forked whether its first step is its fork ({@link Cpus#newTask(String, CpuTask.Kind, boolean)})
     * @return a new task on the current design run's CPUs (virtual execution)
     */
    public CpuTask newTask(String name, CpuTask.Kind kind, boolean forked) {
        return cpus().newTask(name, kind, forked);
    }

    /**
     * A per-CPU kernel thread of the current design run (ksoftirqd/N, kworker/N: kthread_bind).
     *
     * @param name the task's name, e.g. {@code ksoftirqd/0}
     * @param kind what it is, a kernel thread
     * @param forked as {@link #newTask(String, CpuTask.Kind, boolean)}
     * @param cpu the one CPU it runs on ({@link Cpus#newTask(String, CpuTask.Kind, boolean, int)})
     * @return a new per-CPU task on the current design run's CPUs (virtual execution)
     * @throws IllegalArgumentException for a CPU the machine does not have, or a kind that is not a kernel thread
     * @throws IllegalStateException in live execution
     */
    public CpuTask newTask(String name, CpuTask.Kind kind, boolean forked, int cpu) {
        return cpus().newTask(name, kind, forked, cpu);
    }

    /**
     * The CPU time the current design run's tasks of one kind have spent so far (user and kernel steps, and
     * the task switches into them), e.g. every injector's, to put beside a host's per-process CPU clocks
     * ({@link CpuCounters#busyNanos(CpuTask.Kind)}).
     *
     * @param kind the tasks' kind
     * @return their CPU time, ns of simulated time; 0 under fifo (no tasks)
     * @throws IllegalStateException in live execution
     */
    public long cpuNanos(CpuTask.Kind kind) {
        return cpus().counters().busyNanos(kind);
    }

    private void requireVirtual() {
        if (engine == null) {
            throw new IllegalStateException(
                    "the simulated machine exists only in virtual execution (execution = virtual)");
        }
    }
}
