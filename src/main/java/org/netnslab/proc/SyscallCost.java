package org.netnslab.proc;

/**
 * The simulated CPU time of the system calls a process monitor makes ({@code proc-monitor.syscall-cost}).
 * It is charged to the monitor's busy time rather than spun: four monitors spinning on two cores
 * would preempt each other and charge each other's time, which is noise, not kernel work.
 *
 * @param perCallNanos one call's cost, ns; 0: none
 */
public record SyscallCost(long perCallNanos) {
  /**
   * @param calls system calls made
   * @return their cost, ns
   */
  public long of(int calls) {
    return perCallNanos * calls;
  }
}
