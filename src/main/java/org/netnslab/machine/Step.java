package org.netnslab.machine;

/**
 * What a step of CPU work is, for the scheduler's preemption rules ({@link Cpus}): user-space work is
 * preemptible anywhere; kernel work only at the points the preemption model allows
 * ({@link Scheduling.Preempt}). A kernel step's kind says what its <em>end</em> is.
 */
public enum Step {
    /** User-space work: the tick preempts it at once when the task is past its slice. */
    USER,
    /** Kernel work in a system call or kernel thread; its end is a preemption point under preempt=full only. */
    KERNEL,
    /**
     * Kernel work ending at a cond_resched() (include/linux/sched.h; active under none and voluntary,
     * and under full preemption is possible there anyway): e.g. ops_exit_list()'s cond_resched() after
     * each ops->exit(net) (net/core/net_namespace.c, ops_exit_list() of the v6.x tree).
     */
    COND_RESCHED,
    /**
     * Kernel work ending at a might_sleep() (might_resched() under voluntary; full: preemptible anyway):
     * e.g. the start of mutex_lock() (kernel/locking/mutex.c, mutex_lock: might_sleep()).
     */
    MIGHT_SLEEP,
    /**
     * Kernel work that ends with a spinlock still held (or preemption otherwise disabled): never a
     * preemption point, whatever the model.
     */
    ATOMIC
}
