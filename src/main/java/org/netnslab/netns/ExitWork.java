package org.netnslab.netns;

import java.time.Duration;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Step;

/**
 * What the exits of a teardown run ({@link OpsUndo}) cost and who runs them: cleanup_net's kworker on the
 * netns workqueue, or one-off steps. Immutable.
 *
 * @param exitCost simulated sleeping time of the exits per netns ({@code netns.exit-cost}), 0: none
 * @param exitCpu CPU of the exits per netns ({@code costs.netns.exit-per-netns}), run after a netns's last exit
 *     and before {@code exitCost}, in virtual execution only
 * @param worker the netns kworker's task (fair scheduler), or null: one-off steps
 * @param expedited synchronize_rcu_expedited() instead of synchronize_rcu() ({@code netns.cleanup-rcu})
 * @param rtnlShare the share of each netns's exit CPU spent under RTNL ({@code netns.rtnl.exit-share}), 0..1;
 *     used with a kworker task on the fair scheduler only
 */
public record ExitWork(Duration exitCost, Duration exitCpu, CpuTask worker, boolean expedited, double rtnlShare) {
    /** A failed setup_net's undo: no exit cost or CPU, one-off steps, a normal grace period, no RTNL. */
    public static final ExitWork NONE = new ExitWork(Duration.ZERO, Duration.ZERO, null, false, 0);

    /** @return the exits' CPU per netns, ns: 0 in live execution */
    private long cpuNanos(Machine machine) {
        return machine.isVirtual() ? exitCpu.toNanos() : 0;
    }

    /** @return the share of the exits' CPU per netns spent in the run's RTNL hold, ns (0: RTNL not modelled) */
    long rtnlNanos(Machine machine) {
        return worker != null && machine.fair() ? Math.round(cpuNanos(machine) * rtnlShare) : 0;
    }

    /** @return the rest of the exits' CPU per netns, spent after a netns's last exit, ns */
    long outsideRtnlNanos(Machine machine) {
        return cpuNanos(machine) - rtnlNanos(machine);
    }

    /**
     * Runs a netns's exits' CPU: kernel steps of the kworker, each ending at ops_exit_list()'s cond_resched()
     * after each ops->exit(net); without a kworker, a one-off step.
     *
     * @param then run once the CPU has run
     */
    void spendExitCpu(Machine machine, long nanos, Runnable then) {
        if (worker != null) {
            machine.compute(worker, Step.COND_RESCHED, nanos, then);
        } else {
            machine.compute(nanos, then);
        }
    }
}
