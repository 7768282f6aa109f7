package org.netnslab.proc;

import com.typesafe.config.Config;
import java.time.Duration;
import org.netnslab.netlink.EnobufsOption;
import org.netnslab.netlink.RcvbufOption;
import org.netnslab.netlink.SocketOptionSettings;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.settings.Setting;

/**
 * A design's process-monitoring settings ({@code netns-lab.model.proc-connector} and
 * {@code proc-monitor}). Immutable.
 *
 * @param filter {@code proc-connector.filter}
 * @param accounting {@code proc-connector.accounting}
 * @param listener the listeners' socket options: {@code proc-connector.listener-rcvbuf} (bytes given
 *     to setsockopt, 0: none, rmem_default), {@code proc-connector.listener-rcvbuf-option} and
 *     {@code proc-connector.listener-enobufs}
 * @param monitor {@code proc-monitor.kind}
 * @param liveProcesses {@code proc-monitor.live-processes}: long-lived processes a /proc scan walks, 0..1000000
 * @param scans {@code proc-monitor.scans}: scans a proc-scan monitor makes over a run, 1..10000
 * @param syscallCost {@code proc-monitor.syscall-cost}: simulated CPU time of one system call a
 *     monitor makes (recvmsg per received event; pidfd_open, epoll_ctl, waitid, close per process;
 *     open, read, close per /proc entry), charged to the monitor's busy time; zero: none; at most 1 ms
 */
public record ProcSettings(
        ProcConnector.Filter filter,
        ProcListenerTable.Accounting accounting,
        SocketOptions listener,
        ProcMonitor monitor,
        int liveProcesses,
        int scans,
        Duration syscallCost) {
    /** {@code proc-connector.filter}. */
    public static final Setting<ProcConnector.Filter> FILTER =
            Setting.strategy("proc-connector.filter", ProcConnector.Filter.class);
    /** {@code proc-connector.accounting}. */
    public static final Setting<ProcListenerTable.Accounting> ACCOUNTING =
            Setting.strategy("proc-connector.accounting", ProcListenerTable.Accounting.class);
    /** {@code proc-connector.listener-rcvbuf}, {@code -rcvbuf-option} and {@code -enobufs}. */
    public static final SocketOptionSettings LISTENER = SocketOptionSettings.under("proc-connector.");
    /** {@code proc-connector.listener-rcvbuf}. */
    public static final Setting<Integer> LISTENER_RCVBUF = LISTENER.rcvbuf();
    /** {@code proc-connector.listener-rcvbuf-option}. */
    public static final Setting<RcvbufOption> LISTENER_RCVBUF_OPTION = LISTENER.rcvbufOption();
    /** {@code proc-connector.listener-enobufs}. */
    public static final Setting<EnobufsOption> LISTENER_ENOBUFS = LISTENER.enobufs();
    /** {@code proc-monitor.kind}. */
    public static final Setting<ProcMonitor> MONITOR = Setting.strategy("proc-monitor.kind", ProcMonitor.class);
    /** {@code proc-monitor.live-processes}. */
    public static final Setting<Integer> LIVE_PROCESSES = Setting.integer("proc-monitor.live-processes", 0, 1_000_000);
    /** {@code proc-monitor.scans}. */
    public static final Setting<Integer> SCANS = Setting.integer("proc-monitor.scans", 1, 10_000);
    /** {@code proc-monitor.syscall-cost}. */
    public static final Setting<Duration> SYSCALL_COST =
            Setting.duration("proc-monitor.syscall-cost", Duration.ofMillis(1));

    /** Checks the ranges. */
    public ProcSettings {
        LIVE_PROCESSES.check(liveProcesses);
        SCANS.check(scans);
        SYSCALL_COST.check(syscallCost);
    }

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the settings
     * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
     * @throws IllegalArgumentException for an unknown strategy or a value out of range
     */
    public static ProcSettings fromConfig(Config model) {
        return new ProcSettings(
                FILTER.read(model),
                ACCOUNTING.read(model),
                LISTENER.read(model),
                MONITOR.read(model),
                LIVE_PROCESSES.read(model),
                SCANS.read(model),
                SYSCALL_COST.read(model));
    }
}
