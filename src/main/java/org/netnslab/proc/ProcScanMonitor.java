package org.netnslab.proc;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.netnslab.machine.Clock;

/**
 * A process monitor that scans /proc: readdir of /proc and, per entry, open, read and close of
 * /proc/&lt;pid&gt;/stat (3 system calls). An exit shows only as a pid gone since the previous scan,
 * its status lost with the process; a process born and gone between two scans is never seen. The
 * table it walks holds the host's long-lived processes plus the short-lived ones alive at the time,
 * so a scan's cost grows with the population. Confined to one thread.
 */
public final class ProcScanMonitor {
    private final SyscallCost syscalls;
    /** /proc: pid to {pid or index, parent pid}. */
    private final Map<Integer, long[]> table = new HashMap<>();

    private Set<Integer> seen = new HashSet<>();
    private long exitsDetected;
    private long checksum;

    /**
     * @param liveProcesses long-lived processes on the host (pids 2 and up below the short-lived ones', {@link
     *     ProcessTable#FIRST_PID}; past that, keys of their own), in /proc throughout
     * @param syscalls the cost charged per system call
     */
    public ProcScanMonitor(int liveProcesses, SyscallCost syscalls) {
        this.syscalls = syscalls;
        for (int i = 0; i < liveProcesses; i++) {
            // a key shared with a short-lived process would make its exit remove a long-lived entry, and a
            // process born and gone between two scans look seen
            int pid = i + 2 < ProcessTable.FIRST_PID ? i + 2 : -(i + 2);
            table.put(pid, new long[] {i, 1});
        }
    }

    /** @param e a process-table event: a fork adds a /proc entry, an exit removes it */
    public void apply(ProcEvent e) {
        if (e.what() == ProcEvents.FORK) {
            table.put(e.pid(), new long[] {e.pid(), e.parentPid()});
        } else if (e.what() == ProcEvents.EXIT) {
            table.remove(e.pid());
        }
    }

    /**
     * One scan of /proc, counting the pids gone since the previous one as exits.
     *
     * @return the scan's time, charged system calls included, ns
     */
    public long scan() {
        long t0 = Clock.nanoTime();
        long charged = 0;
        Set<Integer> now = new HashSet<>(table.size() * 2);
        for (Map.Entry<Integer, long[]> p : table.entrySet()) { // readdir + read /proc/<pid>/stat
            charged += syscalls.scanEntry(); // getdents entry; open, read, close
            now.add(p.getKey());
            checksum += p.getValue()[0] ^ p.getValue()[1];
        }
        for (Integer pid : seen) {
            if (!now.contains(pid)) {
                exitsDetected++; // gone since the last scan: an exit (its status is lost with the process)
            }
        }
        seen = now;
        return syscalls.handlingSince(t0) + charged;
    }

    /** @return pids seen by one scan and gone by a later one */
    public long exitsDetected() {
        return exitsDetected;
    }

    /** @return a sum over every entry read, so the reads cannot be optimised away */
    public long checksum() {
        return checksum;
    }
}
