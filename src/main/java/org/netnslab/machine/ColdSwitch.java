package org.netnslab.machine;

/**
 * What a switch to a task costs beyond {@code machine.context-switch} when other tasks ran since it last ran
 * ({@code machine.cold-switch}): context_switch (kernel/sched/core.c) loads the incoming task's mm and page tables
 * (switch_mm_irqs_off) and its kernel stack and task_struct (__switch_to), and the task's own first steps touch its
 * socket and its user memory; the tasks that ran in between evicted those lines. Measured by sched_probe's ring (K
 * processes on one CPU passing one byte round a ring of pipes): a hop beyond K = 2's hop is this extra at K.
 *
 * <p>The form, in the switches the machine made since the task last switched in (K; a ring of K tasks makes K): 0 up
 * to K = 2 (the pair {@code machine.context-switch} is measured on), else {@code base + evicted x max(0, 1 -
 * cachedTasks / K)}: {@code base} for the lines each other task's run evicts from the core's own caches, and the
 * share of {@code evicted} for the task's lines past the last-level cache, which holds about {@code cachedTasks}
 * tasks' footprints. The switch count is the machine's, over all CPUs: the last-level cache is shared.
 *
 * @param baseNanos what any switch-in after others ran costs more, ns, 0..1 ms
 * @param evictedNanos what a switch-in whose task's lines all left the last-level cache costs more again, ns,
 *     0..1 ms
 * @param cachedTasks how many tasks' footprints the last-level cache holds, 0..10^9 (0: none, every switch-in
 *     beyond K = 2 pays all of {@code evictedNanos})
 */
public record ColdSwitch(long baseNanos, long evictedNanos, long cachedTasks) {
    /** No extra: every switch costs {@code machine.context-switch} (reference.conf's default). */
    public static final ColdSwitch NONE = new ColdSwitch(0, 0, 0);

    /** The most any part may be, ns (as {@code machine.context-switch}'s bound). */
    public static final long MAX_NANOS = 1_000_000L;

    /** The most {@code cached-tasks} may be. */
    public static final long MAX_TASKS = 1_000_000_000L;

    /** Checks the ranges. */
    public ColdSwitch {
        if (baseNanos < 0 || baseNanos > MAX_NANOS) {
            throw new IllegalArgumentException("machine.cold-switch.base must be in 0..1ms, got " + baseNanos + " ns");
        }
        if (evictedNanos < 0 || evictedNanos > MAX_NANOS) {
            throw new IllegalArgumentException(
                    "machine.cold-switch.evicted must be in 0..1ms, got " + evictedNanos + " ns");
        }
        if (cachedTasks < 0 || cachedTasks > MAX_TASKS) {
            throw new IllegalArgumentException(
                    "machine.cold-switch.cached-tasks must be in 0..1000000000, got " + cachedTasks);
        }
    }

    /** @return whether every switch-in costs the same (no extra at any K) */
    public boolean none() {
        return baseNanos == 0 && evictedNanos == 0;
    }

    /**
     * @param switchesSince the machine's switches since the incoming task last switched in, counting this one (a ring
     *     of K tasks on one CPU: K)
     * @return the extra this switch-in costs, ns
     */
    public long extraNanos(long switchesSince) {
        if (switchesSince <= 2 || none()) {
            return 0;
        }
        double evicted = Math.max(0, 1 - (double) cachedTasks / switchesSince);
        return baseNanos + Math.round(evictedNanos * evicted);
    }
}
