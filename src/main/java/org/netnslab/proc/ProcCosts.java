package org.netnslab.proc;

import com.typesafe.config.Config;
import java.time.Duration;
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
 */
public record ProcCosts(Duration recvmsg, Duration pidfdFork, Duration pidfdExit, Duration scanEntry, Duration wakeup) {
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

    /** Checks the ranges. */
    public ProcCosts {
        RECVMSG.check(recvmsg);
        PIDFD_FORK.check(pidfdFork);
        PIDFD_EXIT.check(pidfdExit);
        SCAN_ENTRY.check(scanEntry);
        WAKEUP.check(wakeup);
    }

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the costs
     */
    public static ProcCosts fromConfig(Config model) {
        return new ProcCosts(
                RECVMSG.read(model),
                PIDFD_FORK.read(model),
                PIDFD_EXIT.read(model),
                SCAN_ENTRY.read(model),
                WAKEUP.read(model));
    }
}
