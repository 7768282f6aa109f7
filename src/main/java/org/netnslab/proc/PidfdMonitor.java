package org.netnslab.proc;

import java.util.HashMap;
import java.util.Map;
import org.netnslab.machine.Clock;

/**
 * A process monitor holding one pidfd per process (pidfd_open(2) and epoll(7)): at fork it opens the
 * process's pidfd and adds it to its epoll set (2 system calls); at exit epoll_wait wakes, waitid(2)
 * with P_PIDFD reaps the status and the pidfd is closed (3 calls). It never learns of exec. It times
 * its own handling, charged system calls included. Confined to one thread at a time.
 */
public final class PidfdMonitor {
    private final SyscallCost syscalls;
    private final Map<Integer, ProcEvent> watched = new HashMap<>();
    private final MonitoredProcesses processes = new MonitoredProcesses();
    private long busyNanos;

    /** @param syscalls the cost charged per system call */
    public PidfdMonitor(SyscallCost syscalls) {
        this.syscalls = syscalls;
    }

    /**
     * @param e an event of the process table
     * @return whether the monitor learns of it at all (forks and exits; exec leaves a pidfd silent)
     */
    public static boolean sees(ProcEvent e) {
        return e.what() != ProcEvents.EXEC;
    }

    /** @param e a fork or an exit ({@link #sees}) */
    public void onEvent(ProcEvent e) {
        long t0 = Clock.nanoTime();
        long charged = 0;
        if (e.what() == ProcEvents.FORK) {
            charged = syscalls.pidfdFork(); // pidfd_open(pid), EPOLL_CTL_ADD
            watched.put(e.pid(), e);
        } else if (watched.remove(e.pid()) != null) {
            charged = syscalls.pidfdExit(); // epoll_wait wakes, waitid, close
            processes.handle(e);
        }
        busyNanos += syscalls.handlingSince(t0) + charged;
    }

    /** @return time spent, charged system calls included, ns */
    public long busyNanos() {
        return busyNanos;
    }

    /** @return exits reaped */
    public long exitsDetected() {
        return processes.handled();
    }

    /** @return exits reaped with a non-zero status */
    public long abnormalExits() {
        return processes.abnormalExits();
    }
}
