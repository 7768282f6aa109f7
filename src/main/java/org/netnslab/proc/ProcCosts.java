package org.netnslab.proc;

import java.time.Duration;
import java.util.function.Function;
import org.netnslab.settings.Setting;

/**
 * Simulated costs of the process monitors ({@code netns-lab.model.costs.proc}), charged to a monitor's
 * busy time in virtual execution only (live execution charges {@code proc-monitor.syscall-cost} per
 * call plus its measured handling). Sources are in reference.conf.
 *
 * @param recvmsg per event a connector listener receives (recvmsg, netlink_recvmsg), 0..1ms
 * @param pidfdFork per fork a pidfd monitor sees: pidfd_open + epoll_ctl (kernel/pid.c, fs/eventpoll.c), 0..1ms
 * @param pidfdExit per exit: epoll_wait wake-up (pidfd_poll) + waitid(P_PIDFD) + close, 0..1ms
 * @param scanEntry per /proc entry of a scan: proc_pid_readdir entry + open/read/close of
 *     /proc/PID/stat (fs/proc/base.c, fs/proc/array.c), 0..1ms
 * @param wakeup per wake-up of a connector listener that found its socket empty and slept: the blocking
 *     recvmsg's sleep and return (or poll/epoll_wait), besides each message's recvmsg, 0..1ms
 * @param exitSwitch what the task that runs next on an exiting process's CPU is charged for it, once per exit, 0..1ms
 *     ({@link org.netnslab.machine.Cpus#exit}): the exiting process's time after the wake-up that preempted it, to
 *     its final switch, which the kernel's clock counts to the next task (wakeup_preempt -> rq_clock_skip_update,
 *     kernel/sched/core.c); with it, on the host, the parent's next fork on that CPU. Only the paced proc-events load
 *     has processes that exit on the model's CPUs ({@code workload.process-interval}, fair machine)
 */
public record ProcCosts(
        Duration recvmsg,
        Duration pidfdFork,
        Duration pidfdExit,
        Duration scanEntry,
        Duration wakeup,
        Duration exitSwitch) {
    /** {@code costs.proc.recvmsg}. */
    public static final Setting<Duration> RECVMSG = Setting.duration("costs.proc.recvmsg", Duration.ofMillis(1));
    /** {@code costs.proc.pidfd-fork}. */
    public static final Setting<Duration> PIDFD_FORK = Setting.duration("costs.proc.pidfd-fork", Duration.ofMillis(1));
    /** {@code costs.proc.pidfd-exit}. */
    public static final Setting<Duration> PIDFD_EXIT = Setting.duration("costs.proc.pidfd-exit", Duration.ofMillis(1));
    /** {@code costs.proc.scan-entry}. */
    public static final Setting<Duration> SCAN_ENTRY = Setting.duration("costs.proc.scan-entry", Duration.ofMillis(1));

    /** {@code costs.proc.wakeup}. */
    public static final Setting<Duration> WAKEUP = Setting.duration("costs.proc.wakeup", Duration.ofMillis(1));

    /** {@code costs.proc.exit-switch}. */
    public static final Setting<Duration> EXIT_SWITCH =
            Setting.duration("costs.proc.exit-switch", Duration.ofMillis(1));

    /** Checks the ranges. */
    public ProcCosts {
        RECVMSG.check(recvmsg);
        PIDFD_FORK.check(pidfdFork);
        PIDFD_EXIT.check(pidfdExit);
        SCAN_ENTRY.check(scanEntry);
        WAKEUP.check(wakeup);
        EXIT_SWITCH.check(exitSwitch);
    }

    /**
     * @param value each cost's value, given its setting: read from a model config, or scaled (netns.Costs)
     * @return the costs
     * @throws IllegalArgumentException for a value out of its setting's range
     */
    public static ProcCosts of(Function<Setting<Duration>, Duration> value) {
        return new ProcCosts(
                value.apply(RECVMSG),
                value.apply(PIDFD_FORK),
                value.apply(PIDFD_EXIT),
                value.apply(SCAN_ENTRY),
                value.apply(WAKEUP),
                value.apply(EXIT_SWITCH));
    }
}
