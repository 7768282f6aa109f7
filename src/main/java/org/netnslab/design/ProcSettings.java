package org.netnslab.design;

import com.typesafe.config.Config;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcListenerTable;
import org.netnslab.proc.ProcMonitor;

/**
 * A design's process-monitoring settings. Immutable.
 *
 * @param filter {@code proc-connector.filter}
 * @param accounting {@code proc-connector.accounting}
 * @param queueCapacity {@code proc-connector.listener-queue-capacity}: events a listener socket holds
 * @param monitor {@code proc-monitor.kind}
 * @param liveProcesses {@code proc-monitor.live-processes}: long-lived processes a /proc scan walks
 * @param scans {@code proc-monitor.scans}: scans a proc-scan monitor makes over a run
 * @param syscallCost {@code proc-monitor.syscall-cost}: simulated CPU time of one system call a
 *     monitor makes (recvmsg per received event; pidfd_open, epoll_ctl, waitid, close per process;
 *     open, read, close per /proc entry), charged to the monitor's busy time; zero: none
 */
public record ProcSettings(ProcConnector.Filter filter, ProcListenerTable.Accounting accounting, int queueCapacity,
    ProcMonitor monitor, int liveProcesses, int scans, java.time.Duration syscallCost) {

  /** The reference defaults. */
  public static final ProcSettings DEFAULT = new ProcSettings(ProcConnector.Filter.PER_LISTENER,
      ProcListenerTable.Accounting.PER_SOCKET, 65536, ProcMonitor.CONNECTOR, 8000, 10, java.time.Duration.ZERO);

  /**
   * @param model the model config
   * @return the settings
   * @throws IllegalArgumentException for an unknown value
   */
  public static ProcSettings fromConfig(Config model) {
    return new ProcSettings(
        Strategies.parse(ProcConnector.Filter.class, "proc-connector.filter", model.getString("proc-connector.filter")),
        Strategies.parse(ProcListenerTable.Accounting.class, "proc-connector.accounting",
            model.getString("proc-connector.accounting")),
        model.getInt("proc-connector.listener-queue-capacity"),
        Strategies.parse(ProcMonitor.class, "proc-monitor.kind", model.getString("proc-monitor.kind")),
        model.getInt("proc-monitor.live-processes"), model.getInt("proc-monitor.scans"),
        model.getDuration("proc-monitor.syscall-cost"));
  }
}
