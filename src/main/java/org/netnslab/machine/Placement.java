package org.netnslab.machine;

/**
 * Where EEVDF puts an entity (a task, or the load's group entity) in its queue's virtual time (kernel/sched/fair.c):
 * at a wake-up (place_entity), at a sleep (update_entity_lag) and when its vruntime passes its deadline
 * (update_deadline). Every entity has weight 1024 (nice 0), so virtual time is CPU time.
 *
 * <p>Times are ns. Threading: the engine's driver thread only.
 */
final class Placement {
    private final long slice;
    /** The most lag an entity keeps across a sleep, either way: two slices, at least a tick (place_entity). */
    private final long lagLimit;

    /**
     * @param slice the slice every task gets, ns
     * @param tick one tick, ns
     */
    Placement(long slice, long tick) {
        this.slice = slice;
        this.lagLimit = Math.max(2 * slice, tick);
    }

    /** @return the slice every task gets, ns */
    long slice() {
        return slice;
    }

    /**
     * place_entity: a new entity at V, with half a slice when forked; a woken one at V less the lag it kept, its
     * negative lag slept off.
     *
     * @param t the task (or the group entity)
     * @param v V of the queue it joins
     * @param n the entities already counted in that V
     */
    void place(CpuTask t, long v, int n) {
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
     * dequeue_entity's update_entity_lag: a sleeping entity keeps its lag, clamped, for {@link #place}.
     *
     * @param t the task (or the group entity)
     * @param v V of the queue it leaves
     */
    void keepLag(CpuTask t, long v) {
        t.vlag = Math.max(-lagLimit, Math.min(lagLimit, v - t.vruntime));
        t.sleptAtV = v;
    }

    /**
     * update_deadline: an entity whose vruntime has reached its deadline gets a new one a slice on.
     *
     * @return true when it did
     */
    boolean renewIfPast(CpuTask t) {
        if (t.vruntime >= t.deadline) {
            t.deadline = t.vruntime + slice;
            return true;
        }
        return false;
    }
}
