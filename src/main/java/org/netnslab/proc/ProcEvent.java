package org.netnslab.proc;

import org.netnslab.machine.Clock;

/**
 * One proc connector event ({@code struct proc_event}, include/uapi/linux/cn_proc.h) as a listener
 * receives it. PIDs are in the initial pid namespace. Immutable.
 *
 * @param what the event type, one of the {@code PROC_EVENT_*} values of {@link ProcEvents}
 * @param cpu the CPU that generated it
 * @param seq the per-CPU sequence number ({@code msg->seq}): ordered per CPU only
 * @param timestampNanos when it was generated, {@link Clock#nanoTime()} ns
 * @param pid the process (thread) id
 * @param tgid the thread group id
 * @param parentPid for FORK: the parent's pid; else 0
 * @param exitCode for EXIT: the exit status as wait(2) encodes it ({@code code << 8 | signal}); else 0
 * @param exitSignal for EXIT: the signal sent to the parent; else 0
 * @throws IllegalArgumentException naming the field: {@code what} not one PROC_EVENT_* type (NONZERO_EXIT is a filter
 *     bit, not an event); a negative cpu, seq or id
 */
public record ProcEvent(
        int what,
        int cpu,
        long seq,
        long timestampNanos,
        int pid,
        int tgid,
        int parentPid,
        int exitCode,
        int exitSignal) {

    /** Checks the fields a listener's filter and the connector's per-CPU counters read. */
    public ProcEvent {
        if (what != ProcEvents.NONE && (Integer.bitCount(what) != 1 || (what & EVENT_TYPES) == 0)) {
            throw new IllegalArgumentException("ProcEvent: what " + ProcEvents.name(what)
                    + " is not one PROC_EVENT_* type (FORK, EXEC, UID, GID, SID, PTRACE, COMM, COREDUMP, EXIT)");
        }
        if (cpu < 0 || seq < 0 || pid < 0 || tgid < 0 || parentPid < 0) {
            throw new IllegalArgumentException(
                    "ProcEvent: cpu, seq, pid, tgid and parentPid must be 0 or more, got cpu " + cpu + ", seq " + seq
                            + ", pid " + pid + ", tgid " + tgid + ", parentPid " + parentPid);
        }
    }

    /** The types an event may have: every PROC_EVENT_* but the NONZERO_EXIT filter bit. */
    private static final int EVENT_TYPES = ProcEvents.ALL & ~ProcEvents.NONZERO_EXIT;

    /** @return true for an EXIT whose status is not a clean 0 (a non-zero code or death by a signal) */
    public boolean isNonzeroExit() {
        return what == ProcEvents.EXIT && exitCode != 0;
    }

    /** @return the event with its type by name ({@code what=EXIT}), for logs */
    @Override
    public String toString() {
        return "ProcEvent[what=" + ProcEvents.name(what) + ", cpu=" + cpu + ", seq=" + seq + ", timestampNanos="
                + timestampNanos + ", pid=" + pid + ", tgid=" + tgid + ", parentPid=" + parentPid + ", exitCode="
                + exitCode + ", exitSignal=" + exitSignal + "]";
    }
}
