package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.netnslab.scenario.ModelKeys;

/**
 * Least squares of the model's cost block ({@code netns-lab.model.costs}, reference.conf) and the machine's
 * task-switch cost and jitter on the fit set only. Each fitted cost names the probe line it came from and, for a
 * regression, its residual (root mean square of the points' relative residuals). Medians of uncontended runs, and CPU
 * clocks where a probe can read them: on a shared machine a mean or a wall time takes in preemptions by unrelated
 * work. Each key's fit and why it has its form: docs/calibrate.md, "The fit"; the uevent keys are fitted by
 * {@link UeventFit}, {@link JitterFit}, {@link PairFit} and {@link StopFit}, the kernel threads by {@link KthreadFit},
 * the lifecycle by {@link LifecycleFit}. {@code netns.unshare-process-user} is not fitted: no probe separates a 1 ms
 * process's user and system time, sampled at the tick.
 *
 * @param costs key to fitted cost, every value finite and not negative: {@code machine.*} keys are under
 *     {@code netns-lab}, the others under {@code netns-lab.model}
 * @param extras measured figures the model does not use, for comparison
 * @param unfitted keys whose fit gave no number (a probe line lacking a field, too few cleanup_net runs), a
 *     negative one, or one outside the key's range, with why: the model keeps its default for them
 */
public record CostFit(Map<String, Fitted> costs, Map<String, Fitted> extras, Map<String, String> unfitted) {
    /** The machine's task-switch cost: under {@code netns-lab}, where the other keys are under {@code netns-lab.model}. */
    public static final String CONTEXT_SWITCH = "machine.context-switch";
    /** The machine's per-step cost jitter: a fraction, not ns, under {@code netns-lab} as the task switch. */
    public static final String JITTER = "machine.jitter";

    /**
     * @return whether the fit set had the lifecycle's serial loop (fitted or not): only then do the lifecycle keys no
     *     probe fits (the RTNL shares, {@code unshare-process-user}) belong beside the fitted ones
     */
    boolean lifecycle() {
        return costs.containsKey(SETUP_NET) || unfitted.containsKey(SETUP_NET);
    }

    /** The lifecycle's first key, fitted whenever the serial loop ran. */
    static final String SETUP_NET = "costs.netns.setup-net";

    /**
     * @param key a fitted key
     * @return whether its value is a plain number (a fraction), not ns
     */
    public static boolean dimensionless(String key) {
        return JITTER.equals(key) || count(key);
    }

    /**
     * @param key a fitted key
     * @return whether its value is a count (the walk's knee, in sockets), not a share
     */
    static boolean count(String key) {
        return java.util.Set.of(UeventFit.CACHED_SOCKETS, SwitchFit.CACHED, BackgroundFit.DOUBLING, RecvFit.CACHED)
                .contains(key);
    }

    /**
     * @param key a fitted model key (not {@link #JITTER})
     * @param v its value: ns, or a count
     * @return the value as HOCON: a whole count, or a duration in ns
     */
    static String hocon(String key, double v) {
        return Math.round(v) + (count(key) ? "" : "ns");
    }

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
        Map<String, String> unfitted = new LinkedHashMap<>();
        List<ObjectNode> walks = select(fitSet, "uevent", "broadcast-walk");
        // the walk's line and spread where the sockets stay in the caches; the larger walks: the knee and extra
        List<ObjectNode> walk = walks.stream()
                .filter(l -> l.path("extra_sockets").asLong() <= UeventFit.CACHED_WALK)
                .toList();
        double[] line = UeventFit.fitWalk(walk, costs, extras);
        UeventFit.fitUncachedWalk(
                walks.stream()
                        .filter(l -> l.path("extra_sockets").asLong() > UeventFit.CACHED_WALK)
                        .toList(),
                line,
                costs,
                unfitted);
        JitterFit.fit(walk, select(fitSet, "uevent", "remote"), costs, unfitted); // before the pair's intercept
        for (ObjectNode w : select(fitSet, "uevent", "wake")) {
            double awake = walk.stream()
                    .filter(l -> l.path("extra_sockets").asInt() == 0)
                    .mapToDouble(l -> l.path("send_p50_ns").asDouble())
                    .findFirst()
                    .orElse(Double.NaN);
            extras.put(
                    "uevent-send-waking-a-listener",
                    new Fitted(
                            w.path("send_p50_ns").asDouble() - awake,
                            "uevent_probe wake: the send's median when the listener sleeps in recvmsg in its own process, less the"
                                    + " median with the listener awake (fit, no extra socket): sk_data_ready -> try_to_wake_up in the"
                                    + " sender's system call; no model key",
                            1,
                            Double.NaN));
        }
        fitProc(fitSet, costs, extras, unfitted);
        LifecycleFit.fit(select(fitSet, "lifecycle", "unshare-loops"), costs, unfitted, expeditedCleanup);
        for (ObjectNode l : select(fitSet, "sched", "context-switch")) {
            SwitchFit.contextSwitch(l, costs, unfitted);
        }
        if (!fitSet.isEmpty()
                && !costs.containsKey(CONTEXT_SWITCH)
                && !unfitted.containsKey(CONTEXT_SWITCH)) { // every calibration runs it, whatever the parts
            unfitted.put(CONTEXT_SWITCH, "no sched_probe ctxsw line in the fit set");
        }
        if (!fitSet.isEmpty()) {
            SwitchFit.fit(select(fitSet, "sched", "ring"), costs, unfitted);
        }
        if (!walk.isEmpty()) { // the uevent part: the host's work for the netns alive, a recv after walks, the stop
            BackgroundFit.fit(select(fitSet, "uevent", "idle"), extras, unfitted);
            RecvFit.fit(walks, costs, unfitted);
            StopFit.fit(select(fitSet, "uevent", "stop"), costs, unfitted);
        }
        UeventFit.fitExit(select(fitSet, "uevent", "exit"), !walk.isEmpty(), costs, unfitted);
        KthreadFit.fit(select(fitSet, "uevent", "exit"), costs, unfitted);
        UeventFit.fitTableWaiter(select(fitSet, "uevent", "waiters"), !walk.isEmpty(), costs, unfitted);
        PairFit.fit(select(fitSet, "uevent", "pair"), costs, extras, unfitted);
        for (Map<String, Fitted> m : List.of(costs, extras)) {
            m.entrySet().removeIf(e -> {
                double v = e.getValue().value();
                if (!Double.isFinite(v)) {
                    unfitted.put(
                            e.getKey(),
                            "not a number from " + e.getValue().source() + " (a probe line lacks a field?)");
                    return true;
                }
                if (v < 0 && m == costs) {
                    unfitted.put(
                            e.getKey(),
                            String.format(
                                    "%.0f ns, below 0, from %s: the fit's form does not hold on these"
                                            + " measurements",
                                    v, e.getValue().source()));
                    return true;
                }
                // a value the model refuses (a scenario's range check) would make calibrated.conf unusable
                String refused = m != costs
                        ? null
                        : e.getKey().equals(CONTEXT_SWITCH)
                                ? RecordingCheck.contextSwitch(v)
                                : e.getKey().startsWith(SwitchFit.PREFIX)
                                        ? null // SwitchFit checked the three together
                                        : ModelKeys.problem(e.getKey(), hocon(e.getKey(), v));
                if (refused != null) {
                    unfitted.put(
                            e.getKey(),
                            String.format(
                                    "%.0f ns from %s: outside what the model accepts (%s)",
                                    v, e.getValue().source(), refused));
                    return true;
                }
                return false;
            });
        }
        return new CostFit(costs, extras, unfitted);
    }

    /** @return the median of {@code v} (the mean of the middle two for an even count), NaN when empty */
    static double medianOf(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        if (s.length == 0) {
            return Double.NaN;
        }
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
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

    private static void fitProc(
            List<ObjectNode> fitSet,
            Map<String, Fitted> costs,
            Map<String, Fitted> extras,
            Map<String, String> unfitted) {
        List<ObjectNode> listeners = select(fitSet, "proc", "listener");
        ProcFit.listeners(listeners.stream().filter(l -> !l.has("placement")).toList(), costs, extras, unfitted);
        if (!listeners.isEmpty()) {
            ProcFit.exitSwitch(
                    listeners.stream().filter(l -> l.has("placement")).toList(), costs, unfitted);
        }
        for (ObjectNode l : select(fitSet, "proc", "pidfd")) {
            String src = "proc_probe pidfd: the monitor thread's CPU around its pidfd calls, median of "
                    + l.path("processes").asInt() + " processes";
            costs.put(
                    "costs.proc.pidfd-fork",
                    new Fitted(
                            l.path("pidfd_fork_cpu_p50_ns").asDouble(),
                            src + " (pidfd_open + epoll_ctl)",
                            1,
                            Double.NaN));
            costs.put(
                    "costs.proc.pidfd-exit",
                    new Fitted(
                            l.path("pidfd_exit_cpu_p50_ns").asDouble(),
                            src + " (epoll_wait + waitid + close)",
                            1,
                            Double.NaN));
        }
        fitScan(select(fitSet, "proc", "proc-scan"), costs);
    }

    /**
     * {@code proc.scan-entry}: with scans of two or more sizes, the slope of a scan's CPU (median) over its entries,
     * the marginal cost of one more process (proc_pid_readdir's next_tgid, then proc_pid_lookup and do_task_stat on
     * a task not in cache); with one size, its CPU over its entries. A size run several times (the full set runs each
     * three times) counts once, by its runs' medians of entries and CPU. The probe's own /proc alone (~70 entries,
     * hot in cache) costs 7-9 us an entry on the 6.18 host and 1000 more sleeping processes 13 us each.
     */
    private static void fitScan(List<ObjectNode> lines, Map<String, Fitted> costs) {
        if (lines.isEmpty()) {
            return;
        }
        Map<Long, List<ObjectNode>> bySize = new java.util.TreeMap<>();
        for (ObjectNode l : lines) {
            bySize.computeIfAbsent(l.path("live_requested").asLong(), k -> new ArrayList<>())
                    .add(l);
        }
        double[][] xy = new double[bySize.size()][];
        int i = 0;
        for (List<ObjectNode> runs : bySize.values()) {
            xy[i++] = new double[] {median(runs, "entries"), median(runs, "scan_cpu_p50_ns")};
        }
        String runs = lines.size() > bySize.size()
                ? String.format(" (each size the median of its runs, %d lines)", lines.size())
                : "";
        if (xy.length < 2) {
            ObjectNode l = lines.get(lines.size() - 1);
            costs.put(
                    "costs.proc.scan-entry",
                    new Fitted(
                            xy[0][1] / xy[0][0],
                            "proc_probe scan: one /proc scan's CPU" + " (median of "
                                    + l.path("scans").asInt() + ") over its " + Math.round(xy[0][0]) + " entries"
                                    + runs,
                            lines.size(),
                            Double.NaN));
            return;
        }
        SimpleRegression r = new SimpleRegression(true);
        for (double[] p : xy) {
            r.addData(p[0], p[1]);
        }
        costs.put(
                "costs.proc.scan-entry",
                new Fitted(
                        r.getSlope(),
                        String.format(
                                "proc_probe scan: the slope of a scan's"
                                        + " CPU (median) over its entries, %s%s, least squares (intercept %.0f us): the marginal entry",
                                xs(xy), runs, r.getIntercept() / 1e3),
                        lines.size(),
                        xy.length > 2 ? residual(xy, r.getSlope(), r.getIntercept()) : Double.NaN));
    }

    /** @return the lines of one probe and load */
    static List<ObjectNode> select(List<ObjectNode> lines, String probe, String load) {
        List<ObjectNode> out = new ArrayList<>();
        for (ObjectNode l : lines) {
            if (probe.equals(l.path("probe").asText())
                    && load.equals(l.path("load").asText())) {
                out.add(l);
            }
        }
        return out;
    }

    static double mean(List<ObjectNode> lines, String field) {
        return lines.stream()
                .mapToDouble(l -> l.path(field).asDouble())
                .average()
                .orElse(Double.NaN);
    }

    static double median(List<ObjectNode> lines, String field) {
        return medianOf(
                lines.stream().mapToDouble(l -> l.path(field).asDouble()).toArray());
    }

    static double residual(double[][] xy, double slope, double intercept) {
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

    static String xs(double[][] xy) {
        StringBuilder b = new StringBuilder("(");
        for (double[] p : xy) {
            b.append(b.length() > 1 ? ", " : "").append((long) p[0]);
        }
        return b.append(')').toString();
    }
}
