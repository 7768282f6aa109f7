package org.netnslab.machine;

import java.util.ArrayDeque;

/**
 * A kernel mutex as a simulated resource (kernel/locking/mutex.c): one holder, FIFO waiters that sleep
 * (hold no CPU), and a hand-off cost {@code handoffNanos}, the wake-up latency of a sleeping waiter.
 * Models uevent_sock_mutex, a per-netns mutex, rtnl_mutex and net_mutex in virtual execution.
 *
 * <p>Under the fair scheduler, a waiter that names its task is woken as the kernel wakes it, and the lock
 * is not held for it while it waits for a CPU:
 * <ul>
 *   <li>__mutex_unlock_slowpath releases the lock and wakes the first waiter; the lock is free until that
 *       waiter runs, and a task that calls lock() meanwhile takes it (__mutex_trylock: a free lock goes to
 *       whoever tries first, waiters or not);</li>
 *   <li>the woken waiter, once on a CPU, tries (__mutex_trylock_or_handoff): it takes a free lock; one taken
 *       meanwhile gets MUTEX_FLAG_HANDOFF and the waiter sleeps again, still first;</li>
 *   <li>an unlock that finds HANDOFF set hands the lock to the first waiter (__mutex_handoff), which picks
 *       it up when it runs: no one can take it meanwhile.</li>
 * </ul>
 * The optimistic spinning of mutex_optimistic_spin (a locker or the first waiter spinning on a CPU while the
 * owner runs) is not modelled: a waiter sleeps at once. Under fifo, or for a waiter without a task, the first
 * waiter owns the lock at the unlock and runs after {@code handoffNanos}.
 *
 * <p>Threading: the engine's driver thread only.
 */
public final class Mutex {
    private final VirtualEngine engine;
    private final Cpus cpus;
    private final String name;
    private final long handoffNanos;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private boolean held;
    /** MUTEX_FLAG_HANDOFF: the first waiter found the lock taken after its wake-up; the next unlock is its. */
    private boolean handoff;

    private long acquisitions;
    private long contended;
    private long stolen;

    /** A sleeping locker; {@code woken}: woken to try, not yet on a CPU. */
    private static final class Waiter {
        final CpuTask task;
        final Runnable granted;
        boolean woken;

        Waiter(CpuTask task, Runnable granted) {
            this.task = task;
            this.granted = granted;
        }
    }

    /**
     * A mutex whose waiters are handed the lock at the unlock (no tasks: the FIFO machine, and tests of it).
     *
     * @param engine the engine whose clock it uses
     * @param name the kernel lock's name, for messages
     * @param handoffNanos wake-up latency of a waiter granted the lock, ns, >= 0
     */
    public Mutex(VirtualEngine engine, String name, long handoffNanos) {
        this(engine, null, name, handoffNanos);
    }

    /**
     * @param engine the engine whose clock it uses
     * @param cpus the machine's CPUs, whose fair scheduler runs a woken waiter's try; null: none
     * @param name the kernel lock's name, for messages
     * @param handoffNanos wake-up latency of a woken waiter, ns, >= 0
     */
    public Mutex(VirtualEngine engine, Cpus cpus, String name, long handoffNanos) {
        this.engine = engine;
        this.cpus = cpus;
        this.name = name;
        this.handoffNanos = Math.max(0, handoffNanos);
    }

    /**
     * Takes the lock with no task of its own: runs {@code granted} at once when it is free, else when it is
     * handed over.
     *
     * @param granted what the new holder does (it must call {@link #unlock} once)
     */
    public void lock(Runnable granted) {
        lock(null, granted);
    }

    /**
     * mutex_lock: runs {@code granted} at once when the lock is free, else sleeps in the wait list until it
     * gets the lock (see the class comment).
     *
     * @param task the locking task, whose CPU a woken waiter needs to try again; null: handed over at the unlock
     * @param granted what the new holder does (it must call {@link #unlock} once)
     */
    public void lock(CpuTask task, Runnable granted) {
        acquisitions++;
        if (!held) {
            if (!waiters.isEmpty()) {
                stolen++;
            }
            held = true;
            granted.run();
        } else {
            contended++;
            waiters.add(new Waiter(task, granted));
        }
    }

    /**
     * mutex_unlock: releases the lock and wakes the first waiter, or hands the lock to it (see the class
     * comment).
     *
     * @throws IllegalStateException when the lock is not held
     */
    public void unlock() {
        if (!held) {
            throw new IllegalStateException(name + ": unlock of an unlocked mutex");
        }
        Waiter next = waiters.peek();
        if (next == null) {
            held = false;
            return;
        }
        boolean tasked = next.task != null && cpus != null && cpus.fair(); // a task to wake, on a CPU of its own
        if (!tasked || handoff) {
            // the first waiter owns it now (__mutex_handoff, or no task to wake) and picks it up when it runs
            handoff = false;
            waiters.poll();
            engine.schedule(
                    handoffNanos, tasked ? () -> cpus.run(next.task, Step.KERNEL, 0, next.granted) : next.granted);
            return;
        }
        held = false;
        if (!next.woken) { // wake_up_q: a waiter already woken and not yet run is not woken twice
            next.woken = true;
            engine.schedule(handoffNanos, () -> cpus.run(next.task, Step.KERNEL, 0, () -> retry(next)));
        }
    }

    /** The woken first waiter runs: __mutex_trylock_or_handoff. */
    private void retry(Waiter w) {
        w.woken = false;
        if (!held) {
            held = true;
            waiters.remove(w);
            w.granted.run();
        } else {
            handoff = true; // taken while it waited for a CPU: it sleeps again, and the next unlock is its
        }
    }

    /** @return the kernel lock's name */
    public String name() {
        return name;
    }

    /** @return lock calls so far */
    public long acquisitions() {
        return acquisitions;
    }

    /** @return lock calls that had to wait */
    public long contended() {
        return contended;
    }

    /** @return lock calls that took the lock while others waited for it (a woken waiter not yet on a CPU) */
    public long stolen() {
        return stolen;
    }

    /** @return whether MUTEX_FLAG_HANDOFF is set: the next unlock hands the lock to the first waiter (tests) */
    boolean handoffPending() {
        return handoff;
    }

    /** @return tasks waiting now */
    public int waiting() {
        return waiters.size();
    }
}
