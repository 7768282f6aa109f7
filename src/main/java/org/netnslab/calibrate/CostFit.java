package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Least squares of the model's cost block ({@code netns-lab.model.costs}, reference.conf) and the machine's
 * task-switch cost on the fit set only. Each fitted cost names the probe line it came from and, for a regression,
 * its residual (root mean square of the points' relative residuals).
 *
 * <p>Medians, not means, of each uncontended measurement, and CPU time where a probe can read it (the thread's
 * CPU clock, wait4): the machine is shared, and a mean or a wall time takes in every preemption by unrelated
 * work, which is not the kernel work a cost stands for.
 *
 * <p>The fits, and why each has the form it has:
 * <ul>
 *   <li>uevent send time (median) = a + b x bound listener sockets (lib/kobject_uevent.c uevent_net_broadcast ->
 *       netlink_broadcast walks every bound socket of NETLINK_KOBJECT_UEVENT): b is
 *       {@code uevent.broadcast-per-socket}; the intercept a is the rest of the send, which one injector
 *       cannot split, shared among {@code send-outside}, {@code send-inside}, {@code deliver-per-listener} and
 *       {@code return} in reference.conf's proportions 3:2:1:1 (stated, not measured);</li>
 *   <li>with the pair probe's lines (injector and listener in two processes): the send's intercept and
 *       {@code uevent.recv} from their CPU clocks instead (see {@code fitUeventPair});</li>
 *   <li>{@code uevent.recv}: the listener's recvmsg; {@code uevent.injector-user}: the injector's user-space
 *       time between sends; {@code uevent.listener-user}: the listener's handling of a message (medians);</li>
 *   <li>{@code proc.recvmsg} and {@code proc.wakeup}: listener CPU = e x events + w x wake-ups over the
 *       all-events and EXIT-only listeners at both pacings (the pacings move the wake-ups apart from the
 *       events); with fewer than three runs, CPU = r x events through the origin;</li>
 *   <li>{@code proc.pidfd-fork}, {@code pidfd-exit}: the pidfd monitor's CPU in its calls on each side
 *       (median);</li>
 *   <li>{@code proc.scan-entry}: the slope of an uncontended /proc scan's CPU over its entries, between the probe's
 *       own /proc and one with 1000 more sleeping processes (the marginal entry, colder than the first 70);</li>
 *   <li>{@code netns.setup-net}: the CPU of the unshare(CLONE_NEWNET) system call in the serial loop's child;
 *       {@code netns.unshare-process}: the rest of the child's CPU (medians);</li>
 *   <li>the serial loop's cleanup_net runs (tracefs): where the kworkers' sched_switch was traced,
 *       {@code netns.exit-per-netns} is the kworker's CPU inside the runs over their netns, and the runs' mean
 *       time off a CPU, c, is their waits; otherwise run time = c + d x netns in the run, d is
 *       {@code netns.exit-per-netns}. c is two normal grace periods in the model's OpsUndo (synchronize_rcu,
 *       rcu_barrier), or since v6.9 an expedited one and rcu_barrier's, so {@code rcu.grace-period} = c / 2, or c
 *       less the expedited grace period;</li>
 *   <li>{@code machine.context-switch}: two processes on one CPU passing a byte over pipes, less the pipe
 *       calls (lmbench's lat_ctx).</li>
 * </ul>
 * Not fitted, because no probe separates it: {@code netns.unshare-process-user} (the user/system split of a
 * 1 ms process is sampled at the tick) keeps its seed value.
 *
 * @param costs key to fitted cost, every value finite and not negative: {@code machine.*} keys are under
 *     {@code netns-lab}, the others under {@code netns-lab.model}
 * @param extras measured figures the model does not use, for comparison
 * @param unfitted keys whose fit gave no number (a probe line lacking a field, a division by zero) or a negative
 *     one, with why: the model keeps its default for them
 */
public record CostFit(Map<String, Fitted> costs, Map<String, Fitted> extras, Map<String, String> unfitted) {
  /** The machine's task-switch cost: under {@code netns-lab}, where the other keys are under {@code netns-lab.model}. */
  public static final String CONTEXT_SWITCH = "machine.context-switch";

  /**
   * @param value the fitted value, ns
   * @param source the probe line(s) and the fit
   * @param points how many measurements it rests on
   * @param residual RMS relative residual of a regression; NaN for a direct measurement
   */
  public record Fitted(double value, String source, int points, double residual) {}

  /**
   * @param fitSet the fit-set lines (calibration.json {@code fit_set})
   * @return the fitted costs; a part with no lines in the fit set contributes none
   */
  public static CostFit fit(List<ObjectNode> fitSet) {
    return fit(fitSet, false);
  }

  /**
   * @param fitSet the fit-set lines
   * @param expeditedCleanup whether the host's cleanup_net waits with synchronize_rcu_expedited (v6.9+): its
   *     runs' waits are then one expedited grace period and one rcu_barrier, not two normal grace periods
   * @return the fitted costs
   */
  public static CostFit fit(List<ObjectNode> fitSet, boolean expeditedCleanup) {
    Map<String, Fitted> costs = new LinkedHashMap<>();
    Map<String, Fitted> extras = new LinkedHashMap<>();
    List<ObjectNode> walk = select(fitSet, "uevent", "broadcast-walk");
    fitUevent(walk, costs, extras);
    for (ObjectNode w : select(fitSet, "uevent", "wake")) {
      double awake = walk.stream().filter(l -> l.path("extra_sockets").asInt() == 0)
          .mapToDouble(l -> l.path("send_p50_ns").asDouble()).findFirst().orElse(Double.NaN);
      extras.put("uevent-send-waking-a-listener", new Fitted(w.path("send_p50_ns").asDouble() - awake,
          "uevent_probe wake: the send's median when the listener sleeps in recvmsg in its own process, less the"
              + " median with the listener awake (fit, no extra socket): sk_data_ready -> try_to_wake_up in the"
              + " sender's system call; no model key", 1, Double.NaN));
    }
    fitProc(fitSet, costs, extras);
    fitLifecycle(select(fitSet, "lifecycle", "unshare-loops"), costs, expeditedCleanup);
    for (ObjectNode l : select(fitSet, "sched", "context-switch")) {
      costs.put(CONTEXT_SWITCH, new Fitted(l.path("context_switch_p50_ns").asDouble(), "sched_probe ctxsw: two"
          + " processes on one CPU passing a byte over pipes (lat_ctx), round trip less two pipe write + read, / 2,"
          + " median of " + l.path("context_switch_count").asInt() + " batches", 1, Double.NaN));
    }
    fitUeventPair(select(fitSet, "uevent", "pair"), costs, extras);
    Map<String, String> unfitted = new LinkedHashMap<>();
    for (Map<String, Fitted> m : List.of(costs, extras)) {
      m.entrySet().removeIf(e -> {
        double v = e.getValue().value();
        if (!Double.isFinite(v)) {
          unfitted.put(e.getKey(), "not a number from " + e.getValue().source() + " (a probe line lacks a field?)");
          return true;
        }
        if (v < 0 && m == costs) {
          unfitted.put(e.getKey(), String.format("%.0f ns, below 0, from %s: the fit's form does not hold on these"
              + " measurements", v, e.getValue().source()));
          return true;
        }
        return false;
      });
    }
    return new CostFit(costs, extras, unfitted);
  }

  private static void fitUevent(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, Fitted> extras) {
    if (lines.isEmpty()) {
      return;
    }
    double[][] xy = new double[lines.size()][];
    for (int i = 0; i < lines.size(); i++) {
      ObjectNode l = lines.get(i);
      xy[i] = new double[] {l.path("extra_sockets").asDouble() + 1, l.path("send_p50_ns").asDouble()};
    }
    double[] ab = relativeLeastSquares(xy);
    double intercept = ab[0];
    double slope = ab[1];
    double res = residual(xy, slope, intercept);
    String src = "uevent_probe fit: send median vs bound sockets " + xs(xy) + ", least squares of relative residuals";
    costs.put("costs.uevent.broadcast-per-socket", new Fitted(slope, src + " (slope)", lines.size(), res));
    String split = src + " (intercept " + Math.round(intercept) + " ns, split 3:2:1:1 as reference.conf)";
    costs.put("costs.uevent.send-outside", new Fitted(intercept * 3 / 7, split, lines.size(), res));
    costs.put("costs.uevent.send-inside", new Fitted(intercept * 2 / 7, split, lines.size(), res));
    costs.put("costs.uevent.deliver-per-listener", new Fitted(intercept / 7, split, lines.size(), res));
    costs.put("costs.uevent.return", new Fitted(intercept / 7, split, lines.size(), res));
    costs.put("costs.uevent.recv", new Fitted(median(lines, "recv_p50_ns"),
        "uevent_probe fit: the listener's recvmsg, median over " + lines.size() + " lines' medians", lines.size(),
        Double.NaN));
    if (lines.stream().allMatch(l -> l.has("handle_p50_ns"))) {
      costs.put("costs.uevent.listener-user", new Fitted(median(lines, "handle_p50_ns"),
          "uevent_probe fit: the listener's user-space handling of one message (finding SEQNUM=), median",
          lines.size(), Double.NaN));
    }
    costs.put("costs.uevent.injector-user", new Fitted(median(lines, "user_p50_ns"),
        "uevent_probe fit: the injector's user-space time between sends (building the message), median",
        lines.size(), Double.NaN));
  }

  /**
   * The send's and the receive's levels from the pair probe (one injector and its listener in two processes, alone
   * on the machine), where its lines carry both CPU clocks: the injector's CPU per send and the listener's per
   * message, medians over the runs. The walk keeps both ends in one process: its skb is freed at once on the CPU
   * that allocated it and its listener never sleeps, so its medians are the send's and recv's cheapest case (on the
   * 6.18 host the pair's sender costs 1.3-1.5x the walk's). The walk still gives the slope per bound socket and
   * the user-space parts; the pair replaces the send's intercept (split 3:2:1:1 as before) and {@code recv}:
   * <ul>
   *   <li>send intercept = injector CPU per send - {@code injector-user} - one bound socket's walk;</li>
   *   <li>{@code recv} = listener CPU per message - its wake-ups per message x {@code machine.context-switch} (the
   *       model charges a switch per wake-up) - {@code listener-user}.</li>
   * </ul>
   * The walk's values stay in {@code extras} for comparison.
   */
  private static void fitUeventPair(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, Fitted> extras) {
    List<ObjectNode> pairs = lines.stream().filter(l -> l.has("injector_cpu_ns") && l.has("listener_cpu_ns")
        && l.path("sends").asDouble() > 0).toList();
    if (pairs.isEmpty() || !costs.containsKey("costs.uevent.send-outside")) {
      return;
    }
    double inj = medianOf(pairs.stream().mapToDouble(l -> l.path("injector_cpu_ns").asDouble() / l.path("sends")
        .asDouble()).toArray());
    double lis = medianOf(pairs.stream().mapToDouble(l -> l.path("listener_cpu_ns").asDouble() / l.path("sends")
        .asDouble()).toArray());
    double wakes = medianOf(pairs.stream().mapToDouble(l -> l.path("listener_wakeups").asDouble() / l.path("sends")
        .asDouble()).toArray());
    double perSocket = costs.get("costs.uevent.broadcast-per-socket").value();
    double injUser = costs.containsKey("costs.uevent.injector-user") ? costs.get("costs.uevent.injector-user").value() : 0;
    double lisUser = costs.containsKey("costs.uevent.listener-user") ? costs.get("costs.uevent.listener-user").value() : 0;
    Fitted ctx = costs.get(CONTEXT_SWITCH);
    double intercept = inj - injUser - perSocket;
    double walkIntercept = costs.get("costs.uevent.send-outside").value() * 7 / 3;
    extras.put("uevent-send-intercept-walk", new Fitted(walkIntercept, costs.get("costs.uevent.send-outside").source(),
        costs.get("costs.uevent.send-outside").points(), costs.get("costs.uevent.send-outside").residual()));
    extras.put("uevent-recv-walk", costs.get("costs.uevent.recv"));
    String src = String.format("uevent_probe pair (%d run(s), medians): the injector's CPU per send %.0f ns less"
        + " injector-user and one bound socket's walk: intercept %.0f ns, split 3:2:1:1 as reference.conf", pairs.size(),
        inj, intercept);
    costs.put("costs.uevent.send-outside", new Fitted(intercept * 3 / 7, src, pairs.size(), Double.NaN));
    costs.put("costs.uevent.send-inside", new Fitted(intercept * 2 / 7, src, pairs.size(), Double.NaN));
    costs.put("costs.uevent.deliver-per-listener", new Fitted(intercept / 7, src, pairs.size(), Double.NaN));
    costs.put("costs.uevent.return", new Fitted(intercept / 7, src, pairs.size(), Double.NaN));
    double switches = ctx == null ? 0 : wakes * ctx.value();
    costs.put("costs.uevent.recv", new Fitted(lis - switches - lisUser, String.format("uevent_probe pair (%d run(s),"
        + " medians): the listener's CPU per message %.0f ns less %.3f wake-ups per message x machine.context-switch"
        + "%s and listener-user", pairs.size(), lis, wakes, ctx == null ? " (not measured: 0)" : ""), pairs.size(),
        Double.NaN));
  }

  private static double medianOf(double[] v) {
    double[] s = v.clone();
    java.util.Arrays.sort(s);
    return s.length == 0 ? Double.NaN : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /**
   * Fits y = a + b x minimising the sum of squared <em>relative</em> residuals ((y - a - b x) / y)^2: the
   * sends range over 30x, and plain least squares would fit the largest and miss the smallest by more than
   * they measure.
   *
   * @return {a, b}; with one point {y, 0}
   */
  static double[] relativeLeastSquares(double[][] xy) {
    if (xy.length < 2) {
      return new double[] {xy[0][1], 0};
    }
    double[] y = new double[xy.length];
    double[][] x = new double[xy.length][];
    for (int i = 0; i < xy.length; i++) {
      y[i] = 1;
      x[i] = new double[] {1 / xy[i][1], xy[i][0] / xy[i][1]};
    }
    OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
    ols.setNoIntercept(true);
    ols.newSampleData(y, x);
    return ols.estimateRegressionParameters();
  }

  private static void fitProc(List<ObjectNode> fitSet, Map<String, Fitted> costs, Map<String, Fitted> extras) {
    List<ObjectNode> lis = select(fitSet, "proc", "listener");
    if (!lis.isEmpty()) {
      double sxy = 0;
      double sxx = 0;
      double[][] xy = new double[lis.size()][];
      for (int i = 0; i < lis.size(); i++) {
        xy[i] = new double[] {lis.get(i).path("events").asDouble(), lis.get(i).path("cpu_ns").asDouble()};
        sxy += xy[i][0] * xy[i][1];
        sxx += xy[i][0] * xy[i][0];
      }
      double r = sxx > 0 ? sxy / sxx : 0;
      costs.put("costs.proc.recvmsg", new Fitted(r, "proc_probe fit: listener CPU vs events received ("
          + lis.size() + " listener runs: all events and EXIT only, each drained at every wake-up and at most"
          + " every 2 ms), least squares through the origin", lis.size(), residual(xy, r, 0)));
      if (lis.size() >= 3) {
        double[] y = new double[lis.size()];
        double[][] x = new double[lis.size()][];
        for (int i = 0; i < lis.size(); i++) {
          y[i] = lis.get(i).path("cpu_ns").asDouble();
          x[i] = new double[] {lis.get(i).path("events").asDouble(), lis.get(i).path("wakeups").asDouble()};
        }
        OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
        ols.setNoIntercept(true);
        ols.newSampleData(y, x);
        double[] b = ols.estimateRegressionParameters();
        double rel = 0;
        for (int i = 0; i < y.length; i++) {
          double e = (y[i] - b[0] * x[i][0] - b[1] * x[i][1]) / y[i];
          rel += e * e;
        }
        rel = Math.sqrt(rel / y.length);
        String src = "proc_probe fit: listener CPU = e x events + w x wake-ups over " + lis.size() + " listener runs"
            + " (all events and EXIT only, each drained at every wake-up and at most every 2 ms), least squares";
        // the model charges both (costs.proc.wakeup since #20): the two-term fit replaces the per-event-only one
        extras.put("proc-recvmsg-per-event-only", costs.get("costs.proc.recvmsg"));
        costs.put("costs.proc.recvmsg", new Fitted(b[0], src + " (e)", lis.size(), rel));
        costs.put("costs.proc.wakeup", new Fitted(b[1], src + " (w)", lis.size(), rel));
      }
    }
    for (ObjectNode l : select(fitSet, "proc", "pidfd")) {
      String src = "proc_probe pidfd: the monitor thread's CPU around its pidfd calls, median of "
          + l.path("processes").asInt() + " processes";
      costs.put("costs.proc.pidfd-fork", new Fitted(l.path("pidfd_fork_cpu_p50_ns").asDouble(),
          src + " (pidfd_open + epoll_ctl)", 1, Double.NaN));
      costs.put("costs.proc.pidfd-exit", new Fitted(l.path("pidfd_exit_cpu_p50_ns").asDouble(),
          src + " (epoll_wait + waitid + close)", 1, Double.NaN));
    }
    fitScan(select(fitSet, "proc", "proc-scan"), costs);
  }

  /**
   * {@code proc.scan-entry}: with scans of two or more sizes, the slope of a scan's CPU (median) over its entries,
   * the marginal cost of one more process (proc_pid_readdir's next_tgid, then proc_pid_lookup and do_task_stat on
   * a task not in cache); with one size, its CPU over its entries. The probe's own /proc alone (~70 entries, hot in
   * cache) costs 7-9 us an entry on the 6.18 host and 1000 more sleeping processes 13 us each.
   */
  private static void fitScan(List<ObjectNode> lines, Map<String, Fitted> costs) {
    if (lines.isEmpty()) {
      return;
    }
    long sizes = lines.stream().mapToLong(l -> l.path("entries").asLong()).distinct().count();
    if (sizes < 2) {
      ObjectNode l = lines.get(lines.size() - 1);
      costs.put("costs.proc.scan-entry", new Fitted(l.path("scan_cpu_p50_ns").asDouble() / l.path("entries").asDouble(),
          "proc_probe scan: one /proc scan's CPU (median of " + l.path("scans").asInt() + ") over its "
              + l.path("entries").asInt() + " entries", 1, Double.NaN));
      return;
    }
    SimpleRegression r = new SimpleRegression(true);
    double[][] xy = new double[lines.size()][];
    for (int i = 0; i < lines.size(); i++) {
      xy[i] = new double[] {lines.get(i).path("entries").asDouble(), lines.get(i).path("scan_cpu_p50_ns").asDouble()};
      r.addData(xy[i][0], xy[i][1]);
    }
    costs.put("costs.proc.scan-entry", new Fitted(r.getSlope(), String.format("proc_probe scan: the slope of a scan's"
        + " CPU (median) over its entries, %s, least squares (intercept %.0f us): the marginal entry", xs(xy),
        r.getIntercept() / 1e3), lines.size(), residual(xy, r.getSlope(), r.getIntercept())));
  }

  private static void fitLifecycle(List<ObjectNode> lines, Map<String, Fitted> costs, boolean expedited) {
    for (ObjectNode l : lines) {
      double unshare = l.path("unshare_cpu_p50_ns").asDouble();
      costs.put("costs.netns.setup-net", new Fitted(unshare, "netns_probe serial: the CPU of unshare(CLONE_NEWNET)"
          + " in the child, median of " + l.path("iterations").asInt(), 1, Double.NaN));
      costs.put("costs.netns.unshare-process", new Fitted(l.path("child_cpu_p50_ns").asDouble() - unshare,
          "netns_probe serial: the child's CPU (wait4: unshare, execve, exit), median, less the unshare call's", 1,
          Double.NaN));
      JsonNode pairs = l.path("cleanup_net_run_pairs");
      JsonNode cpus = l.path("cleanup_net_run_cpu_pairs");
      if (pairs.isArray() && cpus.isArray() && cpus.size() == pairs.size() && pairs.size() >= 1) {
        fitCleanupFromCpu(pairs, cpus, costs, expedited);
      } else if (pairs.isArray() && pairs.size() >= 2) {
        SimpleRegression r = new SimpleRegression(true);
        double[][] xy = new double[pairs.size()][];
        for (int i = 0; i < pairs.size(); i++) {
          xy[i] = new double[] {pairs.get(i).get(0).asDouble(), pairs.get(i).get(1).asDouble()};
          r.addData(xy[i][0], xy[i][1]);
        }
        double slope = r.getSlope();
        double intercept = r.getIntercept();
        String src = "netns_probe serial (tracefs): cleanup_net run time vs netns in the run over " + pairs.size()
            + " runs, least squares";
        // the slope's 95% interval (Student's t over n - 2 degrees of freedom); NaN with fewer than 3 runs
        double half = pairs.size() >= 3 ? r.getSlopeConfidenceInterval() : Double.NaN;
        boolean unresolved = !Double.isNaN(slope) && slope >= 0 && !Double.isNaN(half) && slope - half <= 0;
        if (Double.isNaN(slope) || slope < 0 || unresolved) {
          // the runs' time did not grow measurably with their netns (every run the same size, or the waits' noise
          // larger than the exits): the exits are not measurably above 0 here, and the waits are the runs' mean
          src += Double.isNaN(slope) ? "; every run held as many netns: no slope, 0 and the mean run"
              : slope < 0 ? String.format("; slope %.1f us per netns, below 0: not measurably above 0, so 0 and the"
                  + " mean run", slope / 1e3)
              : String.format("; slope %.1f +- %.1f us per netns (95%%): not measurably above 0, so 0 and the mean run",
                  slope / 1e3, half / 1e3);
          slope = 0;
          intercept = java.util.Arrays.stream(xy).mapToDouble(p -> p[1]).average().orElse(0);
        }
        double res = residual(xy, slope, intercept);
        costs.put("costs.netns.exit-per-netns", new Fitted(slope, src + " (slope)", pairs.size(), res));
        if (expedited) {
          // v6.9+: synchronize_rcu_expedited then rcu_barrier; the expedited one keeps its reference.conf value
          long exp = com.typesafe.config.ConfigFactory.defaultReference()
              .getDuration("netns-lab.model.rcu.expedited-grace-period").toNanos();
          costs.put("rcu.grace-period", new Fitted(intercept - exp, src + " (intercept less rcu.expedited-grace-period "
              + exp / 1000 + " us: cleanup_net's synchronize_rcu_expedited and rcu_barrier since v6.9)", pairs.size(),
              res));
        } else {
          costs.put("rcu.grace-period", new Fitted(intercept / 2, src + " (intercept / 2: OpsUndo's synchronize_rcu and"
              + " rcu_barrier)", pairs.size(), res));
        }
      }
    }
  }

  /**
   * The exits' CPU and the waits of the serial loop's cleanup_net runs, where the probe traced the kworkers'
   * sched_switch: {@code netns.exit-per-netns} = the kworker's time on a CPU inside the runs over the netns they
   * dismantled (ratio of sums: ops_undo_list's exit and exit_batch methods, default_device_exit_batch's
   * unregister_netdevice_many, the sysctl and proc removals); the waits are each run's time off a CPU (wall less
   * CPU), their mean is one expedited grace period and an rcu_barrier (v6.9+) or two normal grace periods. The
   * runs' wall alone cannot give the exits: 30 netns of ~0.3 ms each are 9 ms against waits that vary by 20 ms.
   */
  private static void fitCleanupFromCpu(JsonNode pairs, JsonNode cpus, Map<String, Fitted> costs, boolean expedited) {
    double netns = 0;
    double cpu = 0;
    double waits = 0;
    for (int i = 0; i < pairs.size(); i++) {
      netns += cpus.get(i).get(0).asDouble();
      cpu += cpus.get(i).get(1).asDouble();
      waits += pairs.get(i).get(1).asDouble() - cpus.get(i).get(1).asDouble();
    }
    waits /= pairs.size();
    String src = "netns_probe serial (tracefs, sched_switch): the cleanup_net kworker's time on a CPU in "
        + pairs.size() + " runs";
    costs.put("costs.netns.exit-per-netns", new Fitted(netns > 0 ? cpu / netns : Double.NaN, src + " over the "
        + Math.round(netns) + " netns they dismantled (ratio of sums)", pairs.size(), Double.NaN));
    String w = src + ": the runs' time off a CPU (wall less CPU), mean " + Math.round(waits / 1e3) + " us";
    if (expedited) {
      long exp = com.typesafe.config.ConfigFactory.defaultReference()
          .getDuration("netns-lab.model.rcu.expedited-grace-period").toNanos();
      costs.put("rcu.grace-period", new Fitted(waits - exp, w + ", less rcu.expedited-grace-period " + exp / 1000
          + " us: cleanup_net's synchronize_rcu_expedited and rcu_barrier since v6.9", pairs.size(), Double.NaN));
    } else {
      costs.put("rcu.grace-period", new Fitted(waits / 2, w + ", / 2: OpsUndo's synchronize_rcu and rcu_barrier",
          pairs.size(), Double.NaN));
    }
  }

  /** @return the lines of one probe and load */
  static List<ObjectNode> select(List<ObjectNode> lines, String probe, String load) {
    List<ObjectNode> out = new ArrayList<>();
    for (ObjectNode l : lines) {
      if (probe.equals(l.path("probe").asText()) && load.equals(l.path("load").asText())) {
        out.add(l);
      }
    }
    return out;
  }

  private static double mean(List<ObjectNode> lines, String field) {
    return lines.stream().mapToDouble(l -> l.path(field).asDouble()).average().orElse(Double.NaN);
  }

  private static double median(List<ObjectNode> lines, String field) {
    double[] v = lines.stream().mapToDouble(l -> l.path(field).asDouble()).sorted().toArray();
    return v.length == 0 ? Double.NaN : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static double residual(double[][] xy, double slope, double intercept) {
    if (xy.length < 2) {
      return Double.NaN;
    }
    double s = 0;
    for (double[] p : xy) {
      double e = (p[1] - (intercept + slope * p[0])) / p[1];
      s += e * e;
    }
    return Math.sqrt(s / xy.length);
  }

  private static String xs(double[][] xy) {
    StringBuilder b = new StringBuilder("(");
    for (double[] p : xy) {
      b.append(b.length() > 1 ? ", " : "").append((long) p[0]);
    }
    return b.append(')').toString();
  }
}
