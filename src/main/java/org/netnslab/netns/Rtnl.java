package org.netnslab.netns;

import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Mutex;
import org.netnslab.machine.Step;

/**
 * RTNL, {@code rtnl_mutex} of net/core/rtnetlink.c, where the netns lifecycle takes it: at the end of
 * setup_net ({@code netns.rtnl.setup-share}) and once per cleanup run ({@code netns.rtnl.exit-share}). One
 * {@link Mutex} of the simulated machine, fair scheduler only; a task that finds it held sleeps on it.
 */
final class Rtnl {
    /** The mutex's name in the machine. */
    static final String MUTEX = "rtnl_mutex";

    private Rtnl() {}

    /**
     * setup_net's CPU with its RTNL hold at the end: the subsys ops' inits, then the device ops' (after the
     * subsys ops on pernet_list), of which loopback_net_init's register_netdev takes rtnl_mutex
     * (drivers/net/loopback.c; net/core/dev.c register_netdev: rtnl_lock, register_netdevice, rtnl_unlock).
     * A creator that finds RTNL held sleeps on the mutex (the first kernel step ends at mutex_lock's
     * might_sleep) and runs its hold when handed the lock and given a CPU.
     *
     * @param task the creating process's task
     * @param cpu setup_net's CPU, ns
     * @param share the share of {@code cpu} under RTNL, in (0, 1]
     * @param spent run once the hold is released
     */
    static void setupNet(Machine machine, CpuTask task, long cpu, double share, Runnable spent) {
        long held = Math.round(cpu * share);
        Mutex rtnl = machine.mutex(MUTEX);
        machine.compute(
                task,
                Step.MIGHT_SLEEP,
                cpu - held,
                () -> rtnl.lock(
                        task,
                        () -> machine.compute(task, Step.KERNEL, held, () -> {
                            rtnl.unlock();
                            spent.run();
                        })));
    }

    /**
     * rtnl_lock() by a cleanup run's kworker: woken from its grace period, the kworker calls it only once it
     * runs, so a sleeping kworker does not take the mutex.
     *
     * @param taken run once the kworker holds RTNL
     */
    static void lock(Machine machine, CpuTask kworker, Runnable taken) {
        machine.compute(kworker, Step.KERNEL, 0, () -> machine.mutex(MUTEX).lock(kworker, taken));
    }

    /**
     * The CPU of a cleanup run's RTNL hold, on its kworker while it holds the mutex.
     *
     * @param nanos the hold's CPU, ns
     * @param spent run once the CPU has run
     */
    static void hold(Machine machine, CpuTask kworker, long nanos, Runnable spent) {
        machine.compute(kworker, Step.KERNEL, nanos, spent);
    }

    /**
     * rtnl_unlock() by a cleanup run's kworker, once it runs.
     *
     * @param released run once the mutex is released
     */
    static void unlock(Machine machine, CpuTask kworker, Runnable released) {
        machine.compute(kworker, Step.KERNEL, 0, () -> {
            machine.mutex(MUTEX).unlock();
            released.run();
        });
    }
}
