package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.netnslab.calibrate.CostFit.Fitted;

/**
 * {@code machine.jitter} from a lone send's spread: the model multiplies each step's cost by a factor drawn
 * uniformly from [1 - j, 1 + j], so j follows from a send's p99 over its median and the exact 99th percentile of a
 * weighted sum of uniforms. Stateless.
 */
final class JitterFit {
    /** {@code machine.jitter}'s range (MachineSettings). */
    static final double MAX_JITTER = 0.5;
    /** The words a jitter's source ends with when the fit gave more than {@link #MAX_JITTER}. */
    static final String WIDEST = "beyond the model's widest jitter";

    private JitterFit() {}

    /**
     * {@code machine.jitter} from a lone send's spread: each line's send p99 over its p50, against what the model's
     * send at that line gives. The lines are the remote probe's where the fit set has them (a sender on one CPU
     * whose skbs a reader frees on another, as every contended load's listeners free them: on the 6.18 host its p99
     * is 1.1-2.0x its median, against the walk's 1.02-1.15x, for the slow path of the window's allocations in
     * mm/slub.c ___slab_alloc that a hot free on the same CPU avoids), else the walk's (recordings made before the
     * remote probe). The model's send is three steps (send-outside, the inside part with the walk of the
     * line's bound sockets, return: the walk's intercept split 3:3:1 plus the sockets' walk), each multiplied by its
     * own factor drawn uniformly from [1 - j, 1 + j]; its median is the steps' sum and its p99 is the sum plus
     * j x the 99th percentile of the weighted sum of three uniforms on [-1, 1] (z, exact), so a
     * line's j = (p99 / p50 - 1) / (z / the sum). The fit is the median over the lines: the uncontended send's own
     * spread (cache state, interrupts, the VM's exits), which the jitter stands for on every modelled step. A median
     * above {@link #MAX_JITTER} (the remote probe's 0.71 and 1.06 in two of six full runs on the 6.18 host) gives the
     * model's widest, said in the source. NOT FITTED (the default stays) where a walk line has no {@code send_p99_ns} (calibrate
     * refuses such a line, ProbeLines; a direct call may pass one) or the walk's fit has a step of no cost. The p99,
     * not the interquartile range: a uniform factor cannot match both (the lone send's core is tighter and its tail
     * longer), and a jitter as wide as the core's would make some modelled sends shorter than the host's ever are.
     *
     * @param walk the walk's lines
     * @param remote the remote probe's lines ({@code uevent_probe remote}); one that says why it was skipped (a
     *     host of one CPU) is left out
     * @param costs holds the walk's fit; receives {@link CostFit#JITTER}
     * @param unfitted receives why not
     */
    static void fit(
            List<ObjectNode> walk, List<ObjectNode> remote, Map<String, Fitted> costs, Map<String, String> unfitted) {
        if (walk.isEmpty()) { // the model's send needs the walk's steps
            return;
        }
        // a line whose reader fell behind (the socket overran) had its skbs freed late, its queue grown: left out
        List<ObjectNode> spread = remote.stream()
                .filter(l -> !l.has("skipped") && l.path("listener_overruns").asLong() == 0)
                .toList();
        boolean remoteLines = !spread.isEmpty();
        List<ObjectNode> lines = remoteLines ? spread : walk;
        if (!lines.stream().allMatch(l -> l.has("send_p99_ns"))) {
            unfitted.put(
                    CostFit.JITTER,
                    "a uevent_probe " + (remoteLines ? "remote" : "fit (broadcast-walk)") + " line has no send_p99_ns");
            return;
        }
        // the walk's own costs: the spread is the walk's sends', whatever the pair later makes of the intercept
        double a = costs.get("costs.uevent.send-outside").value() * 7 / 3;
        double b = costs.get("costs.uevent.broadcast-per-socket").value();
        if (!(a > 0 && b >= 0)) {
            unfitted.put(
                    CostFit.JITTER,
                    String.format(
                            "the walk's fit gave an intercept of %.0f ns and %.1f ns a socket: no"
                                    + " send of steps to spread",
                            a, b));
            return;
        }
        double[] js = new double[lines.size()];
        double[] ratios = new double[lines.size()];
        for (int i = 0; i < lines.size(); i++) {
            ObjectNode l = lines.get(i);
            double sockets = l.path("extra_sockets").asDouble() + 1; // the remote probe's netns: its reader's socket
            double[] w = {a * 3 / 7, a * 3 / 7 + sockets * b, a / 7};
            ratios[i] = l.path("send_p99_ns").asDouble() / l.path("send_p50_ns").asDouble();
            js[i] = (ratios[i] - 1) / (p99OfUniformSum(w) / (w[0] + w[1] + w[2]));
        }
        double j = CostFit.medianOf(js);
        String src = String.format(
                remoteLines
                        ? "uevent_probe remote: the send's p99 / p50 over %d line(s) (median %.3f; its skbs freed by a"
                                + " reader on another CPU) against the model's send of three jittered steps: the"
                                + " median of the lines' jitters"
                        : "uevent_probe fit: the send's p99 / p50 over %d walk line(s) (median %.3f) against the"
                                + " model's send of three jittered steps: the median of the lines' jitters",
                lines.size(),
                CostFit.medianOf(ratios));
        src += leftOut(remote, spread.size());
        if (j > MAX_JITTER) { // the model's widest: its uniform factor would otherwise reach 0
            src += String.format(" (%.3f, %s: %.1f)", j, WIDEST, MAX_JITTER);
            j = MAX_JITTER;
        }
        costs.put(CostFit.JITTER, new Fitted(j, src, lines.size(), Double.NaN));
    }

    /**
     * @param remote the remote probe's lines
     * @param used how many of them the fit takes
     * @return what the source says of the others (empty when none was left out): skipped, with the probe's reason, or
     *     their reader fell behind
     */
    private static String leftOut(List<ObjectNode> remote, int used) {
        if (used == remote.size()) {
            return "";
        }
        List<String> reasons = remote.stream()
                .filter(l -> l.has("skipped"))
                .map(l -> l.path("skipped").asText())
                .toList();
        long skipped = reasons.size();
        List<String> why = new java.util.ArrayList<>();
        if (skipped > 0) {
            why.add(skipped + " skipped (" + String.join("; ", new java.util.LinkedHashSet<>(reasons)) + ")");
        }
        if (remote.size() - used - skipped > 0) {
            why.add((remote.size() - used - skipped) + " whose reader fell behind (listener_overruns)");
        }
        return "; uevent_probe remote line(s) left out: " + String.join(", ", why);
    }

    /**
     * @param w the steps' costs, each at least 0
     * @throws IllegalArgumentException a cost below 0 or not a number
     * @return the 99th percentile of sum(w_i x V_i), V_i independent and uniform on [-1, 1]: exact, from the CDF of a
     *     weighted sum of uniforms on [0, 1] (inclusion-exclusion over the subsets of the steps), by bisection
     */
    static double p99OfUniformSum(double[] w) {
        if (Arrays.stream(w).anyMatch(x -> !(x >= 0))) {
            throw new IllegalArgumentException("step costs must be >= 0: " + Arrays.toString(w));
        }
        double sum = Arrays.stream(w).sum();
        double[] v = Arrays.stream(w).filter(x -> x > 0).map(x -> x / sum).toArray();
        if (v.length == 0) {
            return 0;
        }
        double lo = 0;
        double hi = 1;
        for (int k = 0; k < 60; k++) {
            double t = (lo + hi) / 2;
            if (uniformSumCdf(v, t) < 0.99) {
                lo = t;
            } else {
                hi = t;
            }
        }
        return (2 * (lo + hi) / 2 - 1) * sum; // sum(w V) = 2 sum(w U) - sum(w)
    }

    /**
     * @return P(sum(v_i U_i) <= t), U_i uniform on [0, 1], v_i > 0: the sum over the subsets S of the steps of
     *     (-1)^|S| (t - sum of v over S)+^n, over n! prod(v)
     */
    private static double uniformSumCdf(double[] v, double t) {
        int n = v.length;
        double s = 0;
        double denominator = 1;
        for (int i = 0; i < n; i++) {
            denominator *= v[i] * (i + 1);
        }
        for (int mask = 0; mask < 1 << n; mask++) {
            double x = t;
            for (int i = 0; i < n; i++) {
                if ((mask & 1 << i) != 0) {
                    x -= v[i];
                }
            }
            if (x > 0) {
                s += (Integer.bitCount(mask) % 2 == 0 ? 1 : -1) * Math.pow(x, n);
            }
        }
        return s / denominator;
    }
}
