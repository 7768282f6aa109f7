package org.netnslab.machine;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A sequential discrete-event engine: the one thread that runs every model actor in virtual execution,
 * and the simulated clock. Work is of two kinds: <em>runnables</em> (Akka mailbox runs, submitted
 * through {@link VirtualExecutorConfigurator}) run at the current instant in submission order, and
 * <em>events</em> (scheduler timers, CPU and lock completions) run at a simulated time, ordered by
 * (time, insertion sequence). The clock advances only when nothing is runnable at the current instant
 * (quiescence), to the next event's time. With one thread and deterministic submission order, a run is a
 * function of its inputs.
 *
 * <p>The engine runs only while a driver thread is inside {@link #runUntil}: the runner's thread sends
 * requests (they queue) and then hands its thread to the engine until the answer is there. Runnables
 * submitted by other threads (Akka's logger and internal actors) are taken in as they arrive; the model
 * never waits for those, so they cannot change its figures.
 *
 * <p>Thread-safety: {@link #execute} and {@link #schedule} may be called from any thread; everything else
 * from the driver thread.
 */
public final class VirtualEngine {
    private static final ConcurrentHashMap<String, VirtualEngine> ENGINES = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong();

    private final String id;
    private final ArrayDeque<Runnable> ready = new ArrayDeque<>();
    private final ArrayDeque<Runnable> quiescent = new ArrayDeque<>();
    private final ConcurrentLinkedQueue<Runnable> external = new ConcurrentLinkedQueue<>();
    /** Events other threads scheduled, numbered and added to {@link #events} by the driver, in the order of the calls. */
    private final ConcurrentLinkedQueue<Event> externalEvents = new ConcurrentLinkedQueue<>();
    /** Set after another thread adds to {@link #external} or {@link #externalEvents}; the driver clears it. */
    private volatile boolean externalPending;
    /** The driver's alone: other threads' events wait in {@link #externalEvents}. */
    private final EventQueue events = new EventQueue();

    private final Object signal = new Object();
    private volatile Thread driver;
    /**
     * Written by the driver only, without a fence per event; other threads read it (the Akka scheduler's timers) and
     * may see an older value, as they always could (a long field is read whole on the 64-bit JVMs this runs on).
     */
    private long now;

    private long sequence;
    private long eventsRun;
    private long runnablesRun;
    /** Runnables run, counted so that {@link Watch#check} is called at least every 4096 of them. */
    private int watchSteps;

    private VirtualEngine(String id) {
        this.id = id;
    }

    /**
     * Creates an engine and registers it under a new id, by which Akka's reflective constructors
     * ({@link VirtualScheduler}, {@link VirtualExecutorConfigurator}) find it.
     *
     * @return the new engine, clock at 0 ns
     */
    public static VirtualEngine create() {
        VirtualEngine e = new VirtualEngine("virtual-engine-" + IDS.incrementAndGet());
        ENGINES.put(e.id, e);
        return e;
    }

    /**
     * @param id an engine's {@link #id()}
     * @return the engine
     * @throws IllegalStateException when no engine has that id (the actor system was not built by
     *     {@link VirtualSystem})
     */
    static VirtualEngine lookup(String id) {
        VirtualEngine e = ENGINES.get(id);
        if (e == null) {
            throw new IllegalStateException("no virtual engine " + id + " (build the actor system with VirtualSystem)");
        }
        return e;
    }

    /** Forgets the engine (call once its actor system has terminated). */
    public void unregister() {
        ENGINES.remove(id);
    }

    /** @return the id Akka's configuration names this engine by */
    public String id() {
        return id;
    }

    /** @return the simulated clock, ns since the engine was created */
    public long now() {
        return now;
    }

    /** @return timed events run so far (scheduler timers, CPU and lock steps): the run's "simulated events" */
    public long eventsRun() {
        return eventsRun;
    }

    /** @return mailbox runs and other runnables run so far */
    public long runnablesRun() {
        return runnablesRun;
    }

    /**
     * Runs {@code task} at the current instant, after what is already runnable.
     *
     * @param task a mailbox run or any other step
     */
    public void execute(Runnable task) {
        if (Thread.currentThread() == driver) {
            ready.add(task);
        } else {
            external.add(task);
            externalPending = true;
            synchronized (signal) {
                signal.notifyAll();
            }
        }
    }

    /**
     * Runs {@code task} once nothing is runnable at the current instant, before the clock moves (and before
     * any later event): {@link FairCpus} decides there that a task which asked for no further step at the
     * instant its step ended has gone to sleep. Driver thread only.
     *
     * @param task what to run at the instant's quiescence
     */
    public void atQuiescence(Runnable task) {
        quiescent.add(task);
    }

    /**
     * Runs {@code task} {@code delayNanos} of simulated time from now.
     *
     * @param delayNanos ns, >= 0 (negative counts as 0)
     * @param task what to run then
     * @return a handle that can cancel it; a cancelled event does not move the clock
     */
    public Event schedule(long delayNanos, Runnable task) {
        long delay = Math.max(0, delayNanos);
        if (Thread.currentThread() == driver) {
            Event e = new Event(now + delay, sequence++, task);
            events.add(e, delay);
            return e;
        }
        // Another thread (a runner between its runs, an Akka timer): the driver numbers it at its next step, after
        // every event scheduled before this call and before any scheduled after it by the driver.
        Event e = new Event(now + delay, -1, task);
        externalEvents.add(e);
        externalPending = true;
        synchronized (signal) {
            signal.notifyAll();
        }
        return e;
    }

    /** Why a {@link #runUntil} stopped without its condition holding. */
    public static final class Stalled extends Exception {
        private static final long serialVersionUID = 1L;

        /** @param message what did not happen */
        public Stalled(String message) {
            super(message);
        }
    }

    /** Called between steps of {@link #runUntil} so a caller can report progress and detect stalls. */
    @FunctionalInterface
    public interface Watch {
        /**
         * @param simulatedNanos the clock
         * @throws Stalled to stop the run
         */
        void check(long simulatedNanos) throws Stalled;
    }

    /**
     * Runs the engine on the calling thread until {@code done} holds at a quiescent instant.
     *
     * @param done checked whenever nothing is runnable at the current instant
     * @param watch called at least every 4096 steps and before each clock advance
     * @param idleWallNanos how long to wait for another thread's work when there is neither runnable work
     *     nor an event (ns of wall time); after that the run has deadlocked
     * @throws Stalled when {@code watch} says so, or nothing is left to run and {@code done} does not hold
     */
    public void runUntil(BooleanSupplier done, Watch watch, long idleWallNanos) throws Stalled {
        if (driver != null && driver != Thread.currentThread()) {
            throw new IllegalStateException("virtual engine " + id + " is already driven by " + driver.getName());
        }
        Thread previous = driver;
        driver = Thread.currentThread();
        VirtualEngine clockBefore = Clock.drive(this);
        try {
            // One step per call, in a method of its own: the JIT compiles step() by its calls, and after a
            // deoptimization (another lane's design run ending changes the profiles of the methods lanes share)
            // compiles it again within a few thousand calls. With the loop's body here, a deoptimized loop could only
            // come back through on-stack replacement, and a long design run could spend the rest of its time in
            // profiled code.
            while (!step(done, watch, idleWallNanos)) {
                // step() did one thing
            }
        } finally {
            driver = previous;
            Clock.drive(clockBefore);
        }
    }

    /**
     * Runs one runnable, quiescence task or event, or waits for another thread's work.
     *
     * @return true when {@code done} holds at a quiescent instant
     * @throws Stalled as {@link #runUntil}
     */
    private boolean step(BooleanSupplier done, Watch watch, long idleWallNanos) throws Stalled {
        takeExternal();
        Runnable r = ready.poll();
        if (r != null) {
            runnablesRun++;
            r.run();
            if ((++watchSteps & 4095) == 0) {
                watch.check(now);
            }
            return false;
        }
        Runnable q = quiescent.poll();
        if (q != null) {
            q.run();
            return false;
        }
        if (done.getAsBoolean()) {
            return true;
        }
        Event e = nextEvent();
        if (e != null) {
            if (e.time != now) {
                watch.check(now);
            }
            now = Math.max(now, e.time); // an event scheduled from another thread may carry a stale now
            eventsRun++;
            e.task.run();
            return false;
        }
        if (!waitForExternal(done, idleWallNanos)) {
            throw new Stalled("nothing left to run at simulated " + now / 1000 + " us and the awaited condition"
                    + " does not hold: the model is deadlocked (an actor stopped, or a reply never comes)");
        }
        return false;
    }

    private void takeExternal() {
        if (!externalPending) {
            return;
        }
        externalPending = false; // before the polls: what is added after them sets it again
        Event e;
        while ((e = externalEvents.poll()) != null) {
            e.seq = sequence++;
            events.add(e, e.time - now);
        }
        Runnable r;
        while ((r = external.poll()) != null) {
            ready.add(r);
        }
    }

    private Event nextEvent() {
        Event e;
        while ((e = events.poll()) != null) {
            if (!e.cancelled) {
                return e;
            }
        }
        return null;
    }

    /**
     * Waits for another thread's work. Some answers arrive without any: a Scala future converted to a
     * CompletionStage completes its callbacks on a pool thread, so {@code done} is polled every ms too.
     */
    private boolean waitForExternal(BooleanSupplier done, long idleWallNanos) {
        long deadline = System.nanoTime() + idleWallNanos;
        synchronized (signal) {
            while (external.isEmpty() && !hasEvents() && !done.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    signal.wait(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    private boolean hasEvents() {
        return !events.isEmpty() || !externalEvents.isEmpty();
    }

    /** A timed step; cancel it to drop it without moving the clock. */
    public static final class Event {
        final long time;
        /** The tie-break among equal times: the order of scheduling (numbered by the driver). */
        long seq;

        final Runnable task;
        volatile boolean cancelled;

        Event(long time, long seq, Runnable task) {
            this.time = time;
            this.seq = seq;
            this.task = task;
        }

        /** Drops the event if it has not run. */
        public void cancel() {
            cancelled = true;
        }

        /** @return whether {@link #cancel} was called */
        public boolean isCancelled() {
            return cancelled;
        }
    }
}
