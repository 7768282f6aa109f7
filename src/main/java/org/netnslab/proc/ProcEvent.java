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
