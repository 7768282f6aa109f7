package org.netnslab.proc;

import java.util.function.LongUnaryOperator;
import org.netnslab.machine.Clock;

/**
 * What a process monitor is charged for its system calls, ns. It is charged to the monitor's busy time
 * rather than spun: four monitors spinning on two cores would preempt each other and charge each
 * other's time, which is noise, not kernel work.
 *
 * <p>Live execution ({@link #live}): {@code proc-monitor.syscall-cost} per call, plus the JVM time the
 * monitor's own handling takes ({@code wall}). Virtual execution ({@link #virtual}): the
 * {@code costs.proc} figures only; the model's handling takes no simulated time.
 *
 * @param recvmsg a connector listener's receive of one event (recvmsg on its netlink socket)
 * @param pidfdFork a pidfd monitor's work per fork: pidfd_open(pid) + epoll_ctl(EPOLL_CTL_ADD)
 * @param pidfdExit a pidfd monitor's work per exit: epoll_wait wake-up + waitid(P_PIDFD) + close
 * @param scanEntry a /proc scan's work per entry: getdents entry + open/read/close of /proc/PID/stat
 * @param wall whether the monitor's own handling time (Clock) is added
 * @param jitter applied to each charge (virtual: the machine's jitter; live: none)
 */
public record SyscallCost(
        long recvmsg, long pidfdFork, long pidfdExit, long scanEntry, boolean wall, LongUnaryOperator jitter) {
    /**
     * Live charging: {@code perCallNanos} per system call (1 per receive, 2 per pidfd fork, 3 per pidfd
     * exit, 3 per /proc entry) plus the measured handling time.
     *
     * @param perCallNanos {@code proc-monitor.syscall-cost}, ns; 0: none
     */
    public SyscallCost(long perCallNanos) {
        this(perCallNanos, 2 * perCallNanos, 3 * perCallNanos, 3 * perCallNanos, true, LongUnaryOperator.identity());
    }

    /**
     * @param perCallNanos {@code proc-monitor.syscall-cost}, ns
     * @return live charging
     */
    public static SyscallCost live(long perCallNanos) {
        return new SyscallCost(perCallNanos);
    }

    /**
     * @param c {@code costs.proc}
     * @param jitter the machine's jitter ({@link org.netnslab.machine.Machine#jittered})
     * @return virtual charging: the costs only, each charge jittered
     */
    public static SyscallCost virtual(ProcCosts c, LongUnaryOperator jitter) {
        return new SyscallCost(
                c.recvmsg().toNanos(),
                c.pidfdFork().toNanos(),
                c.pidfdExit().toNanos(),
                c.scanEntry().toNanos(),
                false,
                jitter);
    }

    /** @return one recvmsg's charge, ns */
    public long recvmsg() {
        return jitter.applyAsLong(recvmsg);
    }

    /** @return one pidfd fork's charge, ns */
    public long pidfdFork() {
        return jitter.applyAsLong(pidfdFork);
    }

    /** @return one pidfd exit's charge, ns */
    public long pidfdExit() {
        return jitter.applyAsLong(pidfdExit);
    }

    /** @return one /proc entry's charge, ns */
    public long scanEntry() {
        return jitter.applyAsLong(scanEntry);
    }

    /**
     * @param t0 a {@link Clock#nanoTime()} reading taken when the handling began
     * @return the handling time since then (live), 0 (virtual)
     */
    public long handlingSince(long t0) {
        return wall ? Clock.nanoTime() - t0 : 0;
    }
}
