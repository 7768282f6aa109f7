package org.netnslab.workload.injection;

/**
 * What one injector did in one phase ({@link Injector.PhaseListener}).
 *
 * @param phase the phase done
 * @param sentPerNetns successful sends by netns index, for this phase
 * @param permissionViolations injections sent without the permission to, or refused with EPERM with it, in this phase
 *     (the {@code eperm} invariant: must be 0)
 * @param failed injections that failed with another errno in this phase: EINVAL, or EAGAIN from a netns actor failed
 *     by {@code faults.netns-actor} (not sent again)
 * @param refused injections refused with EPERM as the capability rule says (the sender has no CAP_SYS_ADMIN over the
 *     netns's owner), in this phase
 * @param cpuNanos virtual execution under the fair scheduler: the injector's task's CPU over this phase, ns (its user
 *     and kernel steps and the switches into it, as its CPU clock reads at each end of its loop); 0 otherwise
 * @param preemptions as {@code cpuNanos}: the times its task was preempted over this phase; 0 otherwise
 */
public record PhaseTotals(
        Injector.Phase phase,
        long[] sentPerNetns,
        long permissionViolations,
        long failed,
        long refused,
        long cpuNanos,
        long preemptions) {}
