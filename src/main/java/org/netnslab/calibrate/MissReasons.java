package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What a missed prediction means ({@link Predictions.Row#whyMissed}): the mechanism the model lacks, or what
 * the host's own measurements show, as of the machine of issue #20 (fair scheduler, tasks, user and kernel
 * time) and the measurements of 2026-12-01 (docs/calibrate.md). A row's text is chosen by its direction.
 */
final class MissReasons {
  private MissReasons() {
  }

  static final String SEND_SPREAD = "the host's slowest sends are those that woke their listener and were"
      + " preempted by it at the return to user space: a sched_switch trace of this load shows an injector and its"
      + " listener alone on a CPU alternating at every send (a sync wake-up puts the listener on the waker's CPU,"
      + " wake_affine); on the model's one global run queue the running injector is mostly eligible and keeps its"
      + " slice, so its listener rarely preempts it";
  static final String SEND_HIGH = "the model's send takes longer than the host's at this percentile: its tasks"
      + " wait for a CPU inside the send more often than the host's";
  static final String REORDER = "the host's share moves from run to run (0.7% to 5% on our 2-vCPU VM over two"
      + " days) and does not grow with M: at most two senders are inside the lockless window at once on 2 CPUs, in"
      + " the model (one step takes the SEQNUM and broadcasts) as on the host";
  static final String WAKEUP = "a listener's wake-ups depend on how the host spaced its events; the model"
      + " paces the processes evenly at the probe's mean interval and charges each wake-up the fitted cost";
  static final String LIFECYCLE = "the serial loop's cleanup_net runs are mostly grace-period waits, so"
      + " exit-per-netns fits near 0 and the model's kworker clears larger batches in less time than the host's";
  static final String LOOPS = "the model's unshare costs come from a serial loop, one process at a time; 40"
      + " parallel loops also wait on each other in setup_net (rtnl_lock, which the loopback device's registration"
      + " takes, is not modelled), and the host's own loop wall moved from 3.2 to 3.6 s between two days";
  static final String TAIL_MEAN = "the host's mean is carried by a few sends preempted for milliseconds (far"
      + " beyond its p99); how many depends on where the host's per-CPU run queues and load balancer put the"
      + " injectors and their listeners, which the model's one global run queue does not have";
  static final String TIMING = "the model's send includes more waiting for a CPU inside the call than the"
      + " host's";
  static final String THROUGHPUT = "the host's processes spend more CPU per message under contention than the"
      + " fit set's one-at-a-time costs (this probe line has no CPU clocks to say how much)";
  static final String INJECTOR_CPU = "under contention the host's send costs more CPU than the fit set's"
      + " uncontended one; cache-line transfers between the vCPUs (34-40 ns each), the vCPUs slowing each other and"
      + " sender and listener on different CPUs were measured and do not explain it (docs/calibrate.md); the model"
      + " charges the fitted costs";
  static final String INJECTOR_CPU_WALK = "netlink_broadcast walks every bound uevent socket: here 1000"
      + " sockets of 1000 netns and processes, colder in cache than the fit set's 1000 sockets of one netns walked"
      + " by one process; the model charges the fit set's cost per socket";
  static final String LISTENER_CPU = "the host's listener reads skbs that waited in its queue while other tasks"
      + " ran, and pays a poll() and a last recvmsg() (EAGAIN) per wake-up; the model charges the fit set's recvmsg"
      + " and handling, measured on a message read at once";

  /** @return why the host sends fewer per second, from its own CPU clocks and the machine's busy time */
  static String throughput(List<ObjectNode> runs) {
    HostFigure own = HostFigure.of(runs, r -> (r.path("injector_cpu_ns").asDouble()
        + r.path("listener_cpu_ns").asDouble()) / Math.max(1, r.path("machine_busy_ns").asDouble()));
    return String.format(java.util.Locale.ROOT, "the host's CPUs were busy the whole run, and its injectors and"
        + " listeners spend more CPU per message under contention than the fit set's one-at-a-time costs (the CPU"
        + " rows below); the probe's own processes account for %.0f%% of the machine's busy time (median), the rest"
        + " is kernel and other work (interrupts, kworkers, task switches, exits) the model does not run",
        100 * own.median());
  }
}
