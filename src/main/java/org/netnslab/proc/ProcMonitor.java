package org.netnslab.proc;

/**
 * How a process monitor learns of process exits ({@code proc-monitor.kind}): the alternatives the
 * 2023 proc connector series compared.
 */
public enum ProcMonitor {
    /** Subscribe to the proc connector (filtered per {@code proc-connector.filter}): {@link ConnectorMonitor}. */
    CONNECTOR,
    /** One pidfd per process (pidfd_open at fork, poll, waitid at exit): {@link PidfdMonitor}. */
    PIDFD,
    /** Scan the whole process table (/proc) periodically; cost grows with the live processes: {@link ProcScanMonitor}. */
    PROC_SCAN
}
