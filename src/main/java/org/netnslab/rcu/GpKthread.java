package org.netnslab.rcu;

import java.time.Duration;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Step;

/**
 * The grace-period kernel thread (rcu_preempt, kernel/rcu/tree.c rcu_gp_kthread) as a task in the root task
 * group of the fair scheduler. It runs at a normal grace period's start (rcu_gp_init), at each
 * force-quiescent-state scan (rcu_gp_fqs_loop -> rcu_gp_fqs) while the grace period lasts, and at its end
 * (rcu_gp_cleanup); each run is charged {@code rcu.gp-kthread}, the thread's fitted CPU per run. An expedited
 * grace period does not go through it (kernel/rcu/tree_exp.h). Used by its {@link RcuDomain} only.
 */
final class GpKthread {
    private final Machine machine;
    private final CpuTask task;
    private final long runNanos;
    /** Jiffies between its force-quiescent-state scans ({@link #fqsJiffies}). */
    private final int fqsJiffies;

    private GpKthread(Machine machine, long runNanos) {
        this.machine = machine;
        this.task = machine.newTask("rcu_preempt", CpuTask.Kind.RCU, false);
        this.runNanos = runNanos;
        this.fqsJiffies =
                fqsJiffies(machine.cpus().scheduling().hz(), machine.cpus().count());
    }

    /**
     * @param machine the design run's machine
     * @param run CPU of each run, ns; 0: none
     * @return the kthread under the fair scheduler of virtual execution with a cost per run, else null
     */
    static GpKthread of(Machine machine, Duration run) {
        return machine.isVirtual() && machine.fair() && !run.isZero() ? new GpKthread(machine, run.toNanos()) : null;
    }

    /**
     * One run of the thread on a CPU.
     *
     * @param then told when the run is over (on the machine's engine)
     */
    void run(Runnable then) {
        machine.compute(task, Step.KERNEL, runNanos, then);
    }

    /**
     * rcu_gp_fqs_loop's swait timeout of {@link #fqsJiffies} jiffies, armed as a run ends: the timer wheel rounds a
     * level-0 timer's expiry up by one jiffy (kernel/time/timer.c calc_index: {@code expires = (expires >>
     * LVL_SHIFT(lvl)) + 1}, "a timer does not fire early"), so a timeout of j jiffies fires at the (j+1)-th tick at
     * the earliest: every second tick at HZ 250.
     *
     * @return the time from now to the timeout
     */
    Duration fqsTimeout() {
        return Duration.ofNanos(machine.cpus().nanosToTick(fqsJiffies + 1));
    }

    /**
     * The kernel's default interval between force-quiescent-state scans, jiffies_till_first_fqs and
     * jiffies_till_next_fqs (kernel/rcu/tree.c rcu_init_geometry: RCU_JIFFIES_TILL_FORCE_QS + nr_cpu_ids /
     * RCU_JIFFIES_FQS_DIV, kernel/rcu/tree.h): 1 jiffy at HZ &lt;= 250 and up to 255 CPUs (our hosts:
     * /sys/module/rcutree/parameters/jiffies_till_first_fqs reads 1), 2 above HZ 250, 3 above HZ 500.
     *
     * @param hz ticks a second
     * @param cpus CPUs
     * @return jiffies, &gt;= 1
     */
    static int fqsJiffies(int hz, int cpus) {
        return 1 + (hz > 250 ? 1 : 0) + (hz > 500 ? 1 : 0) + cpus / 256;
    }
}
