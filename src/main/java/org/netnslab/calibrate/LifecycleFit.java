package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.netnslab.calibrate.CostFit.Fitted;

/**
 * {@link CostFit}'s lifecycle part: the serial {@code unshare -n} loop's setup_net and process CPU, and its
 * cleanup_net runs (tracefs). Stateless.
 */
final class LifecycleFit {
    private LifecycleFit() {}

    /**
     * setup-net and unshare-process from the serial loop's mean CPU per iteration (unshare-process: the child's CPU
     * less the unshare call's, plus the loop's own per iteration, its fork and reaping, where the lines carry it);
     * exit-per-netns and the grace period from its cleanup_net runs (the kworker's CPU in them where traced, else their
     * wall against their netns). A loop run several times (the full set runs it three times) gives the median of its
     * runs' means, and its runs' cleanup_net runs pooled.
     *
     * <p>Means, not medians: the model charges each cost jittered symmetrically about it, so the cost is its mean, and
     * loops that keep the CPUs busy finish as many lifecycles as the CPUs over the mean CPU of one. The host's CPU per
     * child is skewed (a p99 three times its p50: page faults, interrupts, the odd slow exec), and its median leaves
     * that tail's work out. A recording made before the probes wrote means gives the medians.
     *
     * @param lines the serial loop's lines
     * @param costs receives the costs
     * @param unfitted receives why exit-per-netns and the grace period have no number when the runs cannot give one
     * @param expedited whether the host's cleanup_net waits an expedited grace period (v6.9+)
     */
    static void fit(
            List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, String> unfitted, boolean expedited) {
        if (lines.isEmpty()) {
            return;
        }
        boolean means = lines.stream()
                .allMatch(l -> l.has("unshare_cpu_mean_ns")
                        && l.has("child_cpu_mean_ns")
                        && (!l.has("parent_cpu_p50_ns") || l.has("parent_cpu_mean_ns")));
        String stat = means ? "_mean_ns" : "_p50_ns";
        String each = means ? "mean" : "median";
        String of = lines.size() == 1
                ? each + " of " + lines.get(0).path("iterations").asInt()
                : "median of " + lines.size() + " loops' " + each + "s";
        double unshare = CostFit.median(lines, "unshare_cpu" + stat);
        costs.put(
                CostFit.SETUP_NET,
                new Fitted(
                        unshare,
                        "netns_probe serial: the CPU of unshare(CLONE_NEWNET)" + " in the child, " + of,
                        lines.size(),
                        Double.NaN));
        // the loop's own CPU per iteration (its fork's copy_process and the reaping wait4) where the lines have it
        boolean parent = lines.stream().allMatch(l -> l.has("parent_cpu_p50_ns"));
        costs.put(
                "costs.netns.unshare-process",
                new Fitted(
                        CostFit.medianOf(lines.stream()
                                        .mapToDouble(l -> l.path("child_cpu" + stat)
                                                        .asDouble()
                                                - l.path("unshare_cpu" + stat).asDouble())
                                        .toArray())
                                + (parent ? CostFit.median(lines, "parent_cpu" + stat) : 0),
                        "netns_probe serial: the child's CPU (wait4: unshare, execve, exit) less the unshare call's, "
                                + of + (parent ? "; plus the loop's own CPU per iteration (fork, wait4), " + of : ""),
                        lines.size(),
                        Double.NaN));
        ArrayNode pairs = JsonNodeFactory.instance.arrayNode();
        ArrayNode cpus = JsonNodeFactory.instance.arrayNode();
        boolean cpuTraced = true;
        boolean traced = false;
        String untraced = null;
        for (ObjectNode l : lines) {
            if (!l.path("cleanup_net_run_pairs").isArray()) {
                untraced = l.path("trace_unavailable").asText("no cleanup_net_run_pairs");
                continue;
            }
            traced = true;
            pairs.addAll((ArrayNode) l.path("cleanup_net_run_pairs"));
            if (l.path("cleanup_net_run_cpu_pairs").isArray()) {
                cpus.addAll((ArrayNode) l.path("cleanup_net_run_cpu_pairs"));
            } else {
                cpuTraced = false;
            }
        }
        double cpuNetns = 0;
        for (JsonNode p : cpus) {
            cpuNetns += p.path(0).asDouble();
        }
        if (cpuTraced && cpus.size() == pairs.size() && cpuNetns > 0) {
            fitCleanupFromCpu(pairs, cpus, costs, expedited);
        } else if (pairs.size() < 2) {
            String why = !traced
                    ? "netns_probe serial: no cleanup_net runs traced (" + untraced + ")"
                    : "netns_probe serial: " + pairs.size() + " cleanup_net run(s) held this loop's netns and "
                            + (cpuTraced ? "the kworker's CPU pairs count 0 netns" : "the kworker's CPU was not traced")
                            + "; the wall fit needs 2 runs (a longer serial loop gives more)";
            unfitted.put("costs.netns.exit-per-netns", why);
            unfitted.put("rcu.grace-period", why);
        } else {
            fitCleanupFromWall(pairs, costs, expedited);
        }
    }

    /**
     * @param lines the serial loop's lines
     * @return the mean time off a CPU of their cleanup_net runs (run wall less the kworker's CPU in it, pooled over
     *     the lines that have both the runs and the kworker's CPU in them; a line without is left out), ns; NaN when
     *     no line has them
     */
    static double offCpuPerRun(List<ObjectNode> lines) {
        ArrayNode pairs = JsonNodeFactory.instance.arrayNode();
        ArrayNode cpus = JsonNodeFactory.instance.arrayNode();
        for (ObjectNode l : lines) {
            JsonNode p = l.path("cleanup_net_run_pairs");
            JsonNode c = l.path("cleanup_net_run_cpu_pairs");
            if (p.isArray() && c.isArray() && p.size() == c.size()) {
                pairs.addAll((ArrayNode) p);
                cpus.addAll((ArrayNode) c);
            }
        }
        return pairs.isEmpty() ? Double.NaN : meanOffCpu(pairs, cpus);
    }

    /**
     * @param pairs cleanup_net runs as {netns, wall ns}
     * @param cpus the same runs as {netns, the kworker's CPU ns}
     * @return the runs' mean time off a CPU (wall less CPU), ns
     */
    private static double meanOffCpu(JsonNode pairs, JsonNode cpus) {
        double off = 0;
        for (int i = 0; i < pairs.size(); i++) {
            off += pairs.get(i).get(1).asDouble() - cpus.get(i).get(1).asDouble();
        }
        return off / pairs.size();
    }

    /**
     * Where the kworkers' CPU was not traced: each cleanup_net run's wall against its netns, least squares; the slope
     * is {@code netns.exit-per-netns} unless its 95% interval holds 0, the intercept the run's waits.
     */
    private static void fitCleanupFromWall(JsonNode pairs, Map<String, Fitted> costs, boolean expedited) {
        SimpleRegression r = new SimpleRegression(true);
        double[][] xy = new double[pairs.size()][];
        for (int i = 0; i < pairs.size(); i++) {
            xy[i] = new double[] {
                pairs.get(i).get(0).asDouble(), pairs.get(i).get(1).asDouble()
            };
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
            src += Double.isNaN(slope)
                    ? "; every run held as many netns: no slope, 0 and the mean run"
                    : slope < 0
                            ? String.format(
                                    "; slope %.1f us per netns, below 0: not measurably above 0, so 0 and the"
                                            + " mean run",
                                    slope / 1e3)
                            : String.format(
                                    "; slope %.1f +- %.1f us per netns (95%%): not measurably above 0, so 0 and the mean run",
                                    slope / 1e3, half / 1e3);
            slope = 0;
            intercept =
                    java.util.Arrays.stream(xy).mapToDouble(p -> p[1]).average().orElse(0);
        }
        double res = CostFit.residual(xy, slope, intercept);
        costs.put("costs.netns.exit-per-netns", new Fitted(slope, src + " (slope)", pairs.size(), res));
        putGracePeriod(costs, intercept, expedited, src + " (intercept", ")", pairs.size(), res);
    }

    /**
     * The exits' CPU and the waits of the serial loop's cleanup_net runs, where the probe traced the kworkers'
     * sched_switch: {@code netns.exit-per-netns} = the kworker's time on a CPU inside the runs over the netns they
     * dismantled (ratio of sums: ops_undo_list's exit and exit_batch methods, default_device_exit_batch's
     * unregister_netdevice_many, the sysctl and proc removals); the waits are each run's time off a CPU (wall less
     * CPU), their mean is one expedited grace period and an rcu_barrier (v6.9+) or two normal grace periods. The
     * runs' wall alone cannot give the exits: 30 netns of ~0.3 ms each are 9 ms against waits that vary by 20 ms.
     */
    static void fitCleanupFromCpu(JsonNode pairs, JsonNode cpus, Map<String, Fitted> costs, boolean expedited) {
        double netns = 0;
        double cpu = 0;
        for (int i = 0; i < pairs.size(); i++) {
            netns += cpus.get(i).get(0).asDouble();
            cpu += cpus.get(i).get(1).asDouble();
        }
        double waits = meanOffCpu(pairs, cpus);
        String src = "netns_probe serial (tracefs, sched_switch): the cleanup_net kworker's time on a CPU in "
                + pairs.size() + (pairs.size() == 1 ? " run" : " runs");
        costs.put(
                "costs.netns.exit-per-netns",
                new Fitted(
                        netns > 0 ? cpu / netns : Double.NaN,
                        src + " over the " + Math.round(netns) + " netns they dismantled (ratio of sums)",
                        pairs.size(),
                        Double.NaN));
        String w = src + ": the runs' time off a CPU (wall less CPU), mean " + Math.round(waits / 1e3) + " us";
        putGracePeriod(costs, waits, expedited, w + ",", "", pairs.size(), Double.NaN);
    }

    /**
     * {@code rcu.grace-period} from the waits of a cleanup_net run: v6.9+ waits one expedited grace period (which
     * keeps its reference.conf value) and an rcu_barrier, older kernels two normal grace periods.
     *
     * @param waits the run's waits, ns
     * @param source how the waits were found, ahead of how the grace period is taken from them
     * @param end closes the source's text
     */
    private static void putGracePeriod(
            Map<String, Fitted> costs,
            double waits,
            boolean expedited,
            String source,
            String end,
            int runs,
            double residual) {
        if (expedited) {
            long exp = com.typesafe.config.ConfigFactory.defaultReference()
                    .getDuration("netns-lab.model.rcu.expedited-grace-period")
                    .toNanos();
            costs.put(
                    "rcu.grace-period",
                    new Fitted(
                            waits - exp,
                            source + " less rcu.expedited-grace-period " + exp / 1000
                                    + " us: cleanup_net's synchronize_rcu_expedited and rcu_barrier since v6.9" + end,
                            runs,
                            residual));
        } else {
            costs.put(
                    "rcu.grace-period",
                    new Fitted(
                            waits / 2,
                            source + " / 2: OpsUndo's synchronize_rcu and rcu_barrier" + end,
                            runs,
                            residual));
        }
    }
}
