package org.netnslab.machine;

import java.util.Comparator;
import java.util.TreeSet;

/**
 * The queued (runnable, not running) tasks of the fair scheduler, ordered by virtual deadline as the
 * kernel's cfs_rq tree is (kernel/sched/fair.c, __pick_eevdf over the deadline-ordered, augmented rbtree).
 * All tasks have weight 1024 (nice 0), so a task's virtual time is its CPU time.
 *
 * <p>Threading: the engine's driver thread only.
 */
final class EevdfQueue {
    private final TreeSet<CpuTask> tree =
            new TreeSet<>(Comparator.<CpuTask>comparingLong(t -> t.deadline).thenComparingLong(t -> t.id));
    private long sumVruntime;

    void add(CpuTask t) {
        tree.add(t);
        t.queued = true;
        sumVruntime += t.vruntime;
    }

    void remove(CpuTask t) {
        if (!tree.remove(t)) {
            throw new IllegalStateException(t + " is not queued"); // the sums would go wrong silently
        }
        t.queued = false;
        sumVruntime -= t.vruntime;
    }

    /** @return whether {@code t} is on CPU {@code c}'s queue: it is neither bound to nor woken onto another CPU */
    private static boolean allowed(CpuTask t, int c) {
        return pullable(t, c) && (t.wokenOn < 0 || t.wokenOn == c);
    }

    /** @return whether {@code t} may run on CPU {@code c}: it is not bound to another CPU */
    private static boolean pullable(CpuTask t, int c) {
        return t.bound < 0 || t.bound == c;
    }

    /**
     * @param c a CPU
     * @param except a task not to count (the group entity), or null
     * @return whether a queued task other than {@code except} may run on {@code c} (is not bound to another CPU)
     */
    boolean hasAllowed(int c, CpuTask except) {
        for (CpuTask t : tree) {
            if (t != except && allowed(t, c)) {
                return true;
            }
        }
        return false;
    }

    boolean isEmpty() {
        return tree.isEmpty();
    }

    int size() {
        return tree.size();
    }

    /** @return the sum of the queued tasks' virtual runtimes (for avg_vruntime) */
    long sumVruntime() {
        return sumVruntime;
    }

    /**
     * pick_eevdf on CPU {@code c}'s queue: over the tasks on it (a task bound to another CPU, or woken onto another
     * CPU's queue, is on that CPU's queue in the kernel), the eligible one (vruntime <= the average V) with the
     * earliest virtual deadline; when none is eligible (the eligible ones are running), the earliest deadline.
     *
     * @param avgVruntime V, the weighted average virtual runtime of all runnable tasks
     * @param c the CPU
     * @return the task, or null when none queued is on {@code c}'s queue
     */
    CpuTask pick(long avgVruntime, int c) {
        return pick(avgVruntime, c, false);
    }

    /**
     * {@link #pick}, and when it finds none, sched_balance_newidle's pull (kernel/sched/fair.c): the CPU that would
     * otherwise go idle takes a task woken onto another CPU's queue, by the same pick.
     *
     * @return the task, or null when none queued may run on {@code c}
     */
    CpuTask pickOrPull(long avgVruntime, int c) {
        CpuTask t = pick(avgVruntime, c, false);
        return t != null ? t : pick(avgVruntime, c, true);
    }

    private CpuTask pick(long avgVruntime, int c, boolean pull) {
        CpuTask earliest = null;
        for (CpuTask t : tree) {
            if (!(pull ? pullable(t, c) : allowed(t, c))) {
                continue;
            }
            if (t.vruntime <= avgVruntime) {
                return t;
            }
            if (earliest == null) {
                earliest = t;
            }
        }
        return earliest;
    }
}
