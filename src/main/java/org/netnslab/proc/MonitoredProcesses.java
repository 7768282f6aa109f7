package org.netnslab.proc;

import java.util.HashMap;
import java.util.Map;

/**
 * The work a process monitor does per event it handles, the same whatever told it of the event
 * (connector, pidfd): keep each live process's last event and parent, forget it at exit, count
 * abnormal exits, as the seed's database process monitor does. Confined to its monitor.
 */
public final class MonitoredProcesses {
    private final Map<Integer, long[]> processes = new HashMap<>();
    private long abnormalExits;
    private long handled;

    /** @param e an event the monitor wants */
    public void handle(ProcEvent e) {
        handled++;
        if (e.what() == ProcEvents.EXIT) {
            processes.remove(e.pid());
            if (e.isNonzeroExit()) {
                abnormalExits++;
            }
        } else {
            long[] st = processes.computeIfAbsent(e.pid(), p -> new long[2]);
            st[0] = e.what();
            st[1] = e.parentPid();
        }
    }

    /** @return events handled */
    public long handled() {
        return handled;
    }

    /** @return exits with a non-zero status (a code or a signal) handled */
    public long abnormalExits() {
        return abnormalExits;
    }
}
