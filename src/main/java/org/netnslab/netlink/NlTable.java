package org.netnslab.netlink;

import java.util.ArrayList;
import java.util.List;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Step;

/**
 * netlink's table lock in virtual execution (net/netlink/af_netlink.c, v6.18): {@code nl_table_users} and the
 * wait queue {@code nl_table_wait}, one for the whole system.
 *
 * <ul>
 *   <li>A broadcast counts itself in {@code nl_table_users} for its walk of the mc_list (netlink_lock_table and
 *       netlink_unlock_table around the walk in netlink_broadcast_filtered): {@link #lock}, {@link #unlock}.
 *   <li>A socket's release waits until no broadcast walks (netlink_release -> netlink_remove ->
 *       netlink_table_grab): it adds itself at the tail of {@code nl_table_wait} (add_wait_queue_exclusive), sleeps
 *       TASK_UNINTERRUPTIBLE and, each time it has been woken and runs, checks {@code nl_table_users} again, keeping
 *       its place in the queue: {@link #grab}.
 *   <li>The broadcast that takes {@code nl_table_users} to 0, and a grabber that is done (netlink_table_ungrab),
 *       call wake_up(&amp;nl_table_wait). __wake_up_common walks the queue from its head and calls try_to_wake_up on
 *       each waiter until one wakes: a waiter woken before that has not run yet is TASK_RUNNING, so it is passed
 *       over (its pi_lock taken, its state read) and stays queued. The caller pays {@code perWaiter} ns for every
 *       waiter the walk reaches, the one it wakes included.
 * </ul>
 *
 * <p>Why it matters: under load a woken grabber waits for a CPU behind every runnable sender (it has used its slice,
 * so EEVDF places it late), the queue fills with waiters already woken, and every broadcast that ends with no other
 * in flight walks all of them.
 *
 * <p>Approximations: a broadcast counts itself for its whole inside step (the model's unit), its fixed part with the
 * walk, where the kernel counts only the mc_list walk, so a release here finds one walking somewhat more often; the
 * write lock the grabber holds while it checks (write_lock_irq(&amp;nl_table_lock)) and the queue's own spinlock
 * (nl_table_wait.lock, which serializes two CPUs' wake-ups) are held for a few instructions and not modelled.
 *
 * <p>Threading: the engine's driver thread only (virtual execution). Shared by every injector of a design run on
 * purpose: it is one kernel object ({@link Machine#kernelObject}).
 */
public final class NlTable {
    /** The kernel object's name in {@link Machine#kernelObject}. */
    public static final String NAME = "nl_table_lock";

    /** Runs a step of a task on the simulated CPUs: {@link Machine#compute(CpuTask, Step, long, Runnable)}. */
    @FunctionalInterface
    public interface Steps {
        /**
         * @param task the task
         * @param step the step's kind
         * @param nanos its cost, ns
         * @param then what follows it, at its end
         */
        void run(CpuTask task, Step step, long nanos, Runnable then);
    }

    private static final class Waiter {
        final CpuTask task;
        final long perWaiter;
        final Runnable granted;
        /** Woken and not yet run: TASK_RUNNING, passed over by a wake-up. */
        boolean woken;

        Waiter(CpuTask task, long perWaiter, Runnable granted) {
            this.task = task;
            this.perWaiter = perWaiter;
            this.granted = granted;
        }
    }

    private final Steps steps;
    private final List<Waiter> queue = new ArrayList<>();
    private int users;
    private long grabs;
    private long slept;
    private long passed;

    /**
     * @param steps how its tasks' steps run (a design run's machine: {@link #of})
     */
    public NlTable(Steps steps) {
        this.steps = steps;
    }

    /**
     * @param machine a machine in virtual execution
     * @return its current design run's table lock
     */
    public static NlTable of(Machine machine) {
        return machine.kernelObject(NAME, NlTable.class, () -> new NlTable(machine::compute));
    }

    /** netlink_lock_table: a broadcast starts its walk. */
    public void lock() {
        users++;
    }

    /**
     * netlink_unlock_table: a broadcast's walk is over; the last one out wakes the queue's first sleeping waiter.
     *
     * @param perWaiter ns per waiter the wake-up walks ({@code costs.uevent.table-waiter})
     * @return ns the caller pays for that wake-up (0 when another broadcast still walks or nobody waits)
     * @throws IllegalStateException without a matching {@link #lock}
     */
    public long unlock(long perWaiter) {
        if (users <= 0) {
            throw new IllegalStateException(NAME + ": netlink_unlock_table without netlink_lock_table");
        }
        users--;
        return users == 0 ? wakeUp(perWaiter) : 0;
    }

    /**
     * netlink_table_grab then netlink_table_ungrab, by {@code task} at the end of one of its steps: at once when no
     * broadcast walks, else asleep in the queue until a wake-up and a check find none. Then the task runs ungrab's
     * wake-up (its cost a kernel step of its own) and {@code granted}.
     *
     * @param task the releasing task (fair scheduler), on its CPU now
     * @param perWaiter ns per waiter a wake-up walks
     * @param granted what the task does next
     */
    public void grab(CpuTask task, long perWaiter, Runnable granted) {
        grabs++;
        Waiter w = new Waiter(task, perWaiter, granted);
        if (users == 0) {
            done(w);
        } else {
            slept++;
            queue.add(w); // asks for no step: the task sleeps
        }
    }

    private void done(Waiter w) {
        long cost = wakeUp(w.perWaiter);
        if (cost > 0) {
            steps.run(w.task, Step.KERNEL, cost, w.granted);
        } else {
            w.granted.run();
        }
    }

    /** __wake_up_common with one exclusive wake-up: passes the woken waiters, wakes the first sleeping one. */
    private long wakeUp(long perWaiter) {
        int reached = 0;
        for (Waiter w : queue) {
            reached++;
            if (!w.woken) {
                w.woken = true;
                steps.run(w.task, Step.KERNEL, 0, () -> check(w));
                break;
            }
        }
        passed += reached;
        return reached * perWaiter;
    }

    /** The woken grabber runs: the lock is its when no broadcast walks, else it sleeps again in its place. */
    private void check(Waiter w) {
        if (users == 0) {
            queue.remove(w);
            done(w);
        } else {
            w.woken = false;
            slept++;
        }
    }

    /** @return releases waiting now, woken or asleep */
    public int waiting() {
        return queue.size();
    }

    /** @return grabs so far */
    public long grabs() {
        return grabs;
    }

    /** @return sleeps in netlink_table_grab so far (a grab that found a broadcast walking, and each failed check) */
    public long sleeps() {
        return slept;
    }

    /** @return waiters the wake-ups have walked so far */
    public long passed() {
        return passed;
    }
}
