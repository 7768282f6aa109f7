package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.netnslab.calibrate.CostFit.Fitted;
import org.netnslab.scenario.ModelKeys;

/**
 * {@link CostFit}'s uevent part: the broadcast walk (one process sends and receives, 0..1000 extra sockets bound in
 * another netns), the pair probe (an injector and its listener in two processes), the exit and waiters probes.
 * Stateless. Longer than ~300 lines: each uevent key's fit sits beside the probe-line fields it reads, and the
 * jitter's exact p99 of a sum of uniforms belongs with the walk it is fitted on.
 */
final class UeventFit {
    /** The fewest wake-ups per send over which the pair's excess CPU is divided into a wake-up's cost. */
    static final double MIN_WAKES = 0.01;
    /** The most: above half the sends waking the listener, the median send is itself a waking one. */
    static final double MAX_WAKES = 0.5;
    /** {@code machine.jitter}'s range (MachineSettings). */
    static final double MAX_JITTER = 0.5;
    /** The words a jitter's source ends with when the fit gave more than {@link #MAX_JITTER}. */
    static final String WIDEST = "beyond the model's widest jitter";

    private UeventFit() {}

    /**
     * The walk: send median = a + b x bound sockets (least squares of relative residuals); b is
     * {@code broadcast-per-socket}, a is split 3:2:1:1; {@code recv}, {@code listener-user} and {@code injector-user}
     * are the lines' medians.
     *
     * @param lines the walk's lines (uevent_probe fit)
     * @param costs receives the costs
     * @param extras receives figures no key charges
     */
    static void fitWalk(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, Fitted> extras) {
        if (lines.isEmpty()) {
            return;
        }
        double[][] xy = new double[lines.size()][];
        for (int i = 0; i < lines.size(); i++) {
            ObjectNode l = lines.get(i);
            xy[i] = new double[] {
                l.path("extra_sockets").asDouble() + 1, l.path("send_p50_ns").asDouble()
            };
        }
        double[] ab = CostFit.relativeLeastSquares(xy);
        double intercept = ab[0];
        double slope = ab[1];
        double res = CostFit.residual(xy, slope, intercept);
        String src = "uevent_probe fit: send median vs bound sockets " + CostFit.xs(xy)
                + ", least squares of relative residuals";
        costs.put("costs.uevent.broadcast-per-socket", new Fitted(slope, src + " (slope)", lines.size(), res));
        String split = src + " (intercept " + Math.round(intercept) + " ns, split 3:2:1:1 as reference.conf)";
        costs.put("costs.uevent.send-outside", new Fitted(intercept * 3 / 7, split, lines.size(), res));
        costs.put("costs.uevent.send-inside", new Fitted(intercept * 2 / 7, split, lines.size(), res));
        costs.put("costs.uevent.deliver-per-listener", new Fitted(intercept / 7, split, lines.size(), res));
        costs.put("costs.uevent.return", new Fitted(intercept / 7, split, lines.size(), res));
        costs.put(
                "costs.uevent.recv",
                new Fitted(
                        CostFit.median(lines, "recv_p50_ns"),
                        "uevent_probe fit: the listener's recvmsg, median over " + lines.size() + " lines' medians",
                        lines.size(),
                        Double.NaN));
        if (lines.stream().allMatch(l -> l.has("handle_p50_ns"))) {
            costs.put(
                    "costs.uevent.listener-user",
                    new Fitted(
                            CostFit.median(lines, "handle_p50_ns"),
                            "uevent_probe fit: the listener's user-space handling of one message (finding SEQNUM=), median",
                            lines.size(),
                            Double.NaN));
        }
        costs.put(
                "costs.uevent.injector-user",
                new Fitted(
                        CostFit.median(lines, "user_p50_ns"),
                        "uevent_probe fit: the injector's user-space time between sends (building the message), median",
                        lines.size(),
                        Double.NaN));
    }

    /**
     * {@code machine.jitter} from the walk's spread: each walk line's send p99 over its p50, against what the model's
     * send at that line gives. The model's send is three steps (send-outside, the inside part with the walk of the
     * line's bound sockets, return: the walk's intercept split 3:3:1 plus the sockets' walk), each multiplied by its
     * own factor drawn uniformly from [1 - j, 1 + j]; its median is the steps' sum and its p99 is the sum plus
     * j x the 99th percentile of the weighted sum of three uniforms on [-1, 1] (z, exact), so a
     * line's j = (p99 / p50 - 1) / (z / the sum). The fit is the median over the lines: the uncontended send's own
     * spread (cache state, interrupts, the VM's exits), which the jitter stands for on every modelled step. A median
     * above {@link #MAX_JITTER} (0.51 and 0.58 in two of eight full runs on the 6.18 host) gives the model's widest,
     * said in the source. NOT FITTED (the default stays) where a walk line has no {@code send_p99_ns} (calibrate
     * refuses such a line, ProbeLines; a direct call may pass one) or the walk's fit has a step of no cost. The p99
     * was chosen over the interquartile range after trying jitters by hand on one recording (docs/calibrate.md): a
     * uniform factor cannot match both; the lone send's core is tighter and its tail longer, and a jitter this
     * wide also makes some modelled sends shorter than the host's ever are.
     *
     * @param lines the walk's lines
     * @param costs holds the walk's fit; receives {@link CostFit#JITTER}
     * @param unfitted receives why not
     */
    static void fitJitter(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, String> unfitted) {
        if (lines.isEmpty()) {
            return;
        }
        if (!lines.stream().allMatch(l -> l.has("send_p99_ns"))) {
            unfitted.put(CostFit.JITTER, "a uevent_probe fit (broadcast-walk) line has no send_p99_ns");
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
            double sockets = l.path("extra_sockets").asDouble() + 1;
            double[] w = {a * 3 / 7, a * 3 / 7 + sockets * b, a / 7};
            ratios[i] = l.path("send_p99_ns").asDouble() / l.path("send_p50_ns").asDouble();
            js[i] = (ratios[i] - 1) / (p99OfUniformSum(w) / (w[0] + w[1] + w[2]));
        }
        double j = CostFit.medianOf(js);
        String src = String.format(
                "uevent_probe fit: the send's p99 / p50 over %d walk line(s) (median %.3f) against the"
                        + " model's send of three jittered steps: the median of the lines' jitters",
                lines.size(), CostFit.medianOf(ratios));
        if (j > MAX_JITTER) { // the model's widest: its uniform factor would otherwise reach 0
            src += String.format(" (%.3f, %s: %.1f)", j, WIDEST, MAX_JITTER);
            j = MAX_JITTER;
        }
        costs.put(CostFit.JITTER, new Fitted(j, src, lines.size(), Double.NaN));
    }

    /**
     * @param w the steps' costs, each at least 0
     * @throws IllegalArgumentException a cost below 0 or not a number
     * @return the 99th percentile of sum(w_i x V_i), V_i independent and uniform on [-1, 1]: exact, from the CDF of a
     *     weighted sum of uniforms on [0, 1] (inclusion-exclusion over the subsets of the steps), by bisection
     */
    static double p99OfUniformSum(double[] w) {
        if (java.util.Arrays.stream(w).anyMatch(x -> !(x >= 0))) {
            throw new IllegalArgumentException("step costs must be >= 0: " + java.util.Arrays.toString(w));
        }
        double sum = java.util.Arrays.stream(w).sum();
        double[] v =
                java.util.Arrays.stream(w).filter(x -> x > 0).map(x -> x / sum).toArray();
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

    /**
     * {@code injector-exit}: the exit probe's median exit CPU (the child's wait4 rusage less its CPU clock just before
     * _exit: exit_mmap, netlink_release) plus its parent's median reaping CPU (around wait4), medians over the lines.
     * Without an exit line where the walk was fitted (recordings before 2026-12-01's fourth session), NOT FITTED.
     *
     * @param lines the exit probe's lines
     * @param walked whether the walk's lines were fitted (a uevent calibration)
     * @param costs receives the cost
     * @param unfitted receives why not
     */
    static void fitExit(
            List<ObjectNode> lines, boolean walked, Map<String, Fitted> costs, Map<String, String> unfitted) {
        if (lines.isEmpty()) {
            if (walked) {
                unfitted.put(
                        "costs.uevent.injector-exit",
                        "no uevent_probe exit line in the fit set (recorded before the"
                                + " exit probe, or edited out)");
            }
            return;
        }
        double exit = CostFit.median(lines, "exit_p50_ns");
        double reap = CostFit.median(lines, "reap_p50_ns");
        costs.put(
                "costs.uevent.injector-exit",
                new Fitted(
                        exit + reap,
                        String.format(
                                "uevent_probe exit (%d line(s) of %d"
                                        + " children, medians): the child's exit %.0f ns (do_exit: exit_mmap, netlink_release) and its parent's"
                                        + " reaping %.0f ns (wait4)",
                                lines.size(), lines.get(0).path("children").asInt(), exit, reap),
                        lines.size(),
                        Double.NaN));
    }

    /** The fewest waiters queued on average in a waiters line for its slope to count (fewer: noise over a 10 us send). */
    static final double MIN_QUEUED = 10;

    /**
     * {@code table-waiter}: per waiter a wake-up of nl_table_wait walks, from the waiters probe (one sender walking 1000
     * sockets, closers parked in netlink_table_grab and kept off their CPU once woken): per line, (the sends' median
     * with the waiters queued - their median before the closers) / the waiters queued, the mean over those sends; the
     * median over the lines. A line the probe skipped (no SCHED_FIFO, one CPU) or with fewer than {@link #MIN_QUEUED}
     * waiters does not count. NOT FITTED without a line that counts, where the walk was fitted.
     *
     * @param lines the waiters probe's lines
     * @param walked whether the walk's lines were fitted (a uevent calibration)
     * @param costs receives the cost
     * @param unfitted receives why not
     */
    static void fitTableWaiter(
            List<ObjectNode> lines, boolean walked, Map<String, Fitted> costs, Map<String, String> unfitted) {
        String key = "costs.uevent.table-waiter";
        List<ObjectNode> usable = lines.stream()
                .filter(l -> !l.has("skipped") && l.path("queued_waiters_mean").asDouble() >= MIN_QUEUED)
                .toList();
        if (usable.isEmpty()) {
            if (walked) {
                unfitted.put(
                        key,
                        lines.isEmpty()
                                ? "no uevent_probe waiters line in the fit set (recorded before the"
                                        + " waiters probe, or edited out)"
                                : lines.stream()
                                        .filter(l -> l.has("skipped"))
                                        .findFirst()
                                        .map(l -> "uevent_probe waiters was skipped: "
                                                + l.path("skipped").asText())
                                        .orElse(String.format(
                                                "fewer than %.0f waiters queued in every uevent_probe waiters line (on a busy"
                                                        + " machine the closers get through before the probe takes their CPU)",
                                                MIN_QUEUED)));
            }
            return;
        }
        double[] slope = usable.stream()
                .mapToDouble(l -> (l.path("queued_send_p50_ns").asDouble()
                                - l.path("before_send_p50_ns").asDouble())
                        / l.path("queued_waiters_mean").asDouble())
                .toArray();
        double value = CostFit.medianOf(slope);
        int left = lines.size() - usable.size();
        costs.put(
                key,
                new Fitted(
                        value,
                        String.format(
                                "uevent_probe waiters (%d line(s)%s, median): a send's median with"
                                        + " %.0f..%.0f closers queued in nl_table_wait (netlink_table_grab) less its median before them, per waiter"
                                        + " its netlink_unlock_table's wake-up walks",
                                usable.size(),
                                left == 0
                                        ? ""
                                        : String.format(
                                                " of %d; %d skipped" + " or with fewer than %.0f queued left out",
                                                lines.size(), left, MIN_QUEUED),
                                usable.stream()
                                        .mapToDouble(l ->
                                                l.path("queued_waiters_mean").asDouble())
                                        .min()
                                        .orElse(0),
                                usable.stream()
                                        .mapToDouble(l ->
                                                l.path("queued_waiters_mean").asDouble())
                                        .max()
                                        .orElse(0)),
                        usable.size(),
                        Double.NaN));
    }

    /**
     * The send's and the receive's levels from the pair probe (one injector and its listener in two processes, alone
     * on the machine), where its lines carry both CPU clocks: the injector's CPU per send and the listener's per
     * message, medians over the runs. The walk keeps both ends in one process: its skb is freed at once on the CPU
     * that allocated it and its listener never sleeps, so its medians are the send's and recv's cheapest case (on the
     * 6.18 host the pair's sender costs 1.3-1.5x the walk's). The walk still gives the slope per bound socket and
     * the user-space parts; the pair replaces the send's intercept (split 3:2:1:1 as before) and {@code recv}:
     * <ul>
     *   <li>send intercept = the median send (its time in the system call, which does not block) - one bound
     *       socket's walk: a send that wakes nobody;</li>
     *   <li>{@code wake-listener} = (injector CPU per send - {@code injector-user} - the median send) / the
     *       listener's wake-ups per send: the sender's try_to_wake_up of its sleeping listener, fitted as what the
     *       injector spends beyond its median send, over the sends that woke the listener (so it also carries
     *       whatever else lifts the mean send over the median); NOT FITTED, and the intercept as before (injector CPU
     *       per send - {@code injector-user} - one socket's walk), when the listener slept at under {@link #MIN_WAKES}
     *       or over {@link #MAX_WAKES} of the sends, when the excess is negative, or when the wake-up falls outside
     *       the key's range;</li>
     *   <li>{@code recv} = listener CPU per message - its wake-ups per message x {@code machine.context-switch} (the
     *       model charges a switch per wake-up) - {@code listener-user}.</li>
     * </ul>
     * A wake-up is one of the listener's sleeps ({@code listener_sleeps}: its voluntary context switches, each a
     * send waking it from poll) where the lines carry them, else one of its drain cycles ({@code listener_wakeups},
     * older lines), which also start when a message was already queued. The walk's values stay in {@code extras}
     * for comparison. Without pair lines where the walk was fitted, or without a walk for the pair lines, {@code
     * wake-listener} is named NOT FITTED.
     */
    static void fitPair(
            List<ObjectNode> lines,
            Map<String, Fitted> costs,
            Map<String, Fitted> extras,
            Map<String, String> unfitted) {
        boolean walked = costs.containsKey("costs.uevent.send-outside"); // the walk's lines were fitted
        if (lines.isEmpty() && walked) {
            unfitted.put(
                    "costs.uevent.wake-listener",
                    "no uevent_probe pair line in the fit set (recorded before the pair" + " probe, or edited out)");
        } else if (!lines.isEmpty() && !walked) {
            unfitted.put(
                    "costs.uevent.wake-listener",
                    "no uevent_probe fit (broadcast-walk) line: the pair's fit needs its"
                            + " slope per socket and user-space parts");
        }
        List<ObjectNode> pairs = lines.stream()
                .filter(l -> l.has("injector_cpu_ns")
                        && l.has("listener_cpu_ns")
                        && l.path("sends").asDouble() > 0)
                .toList();
        if (pairs.isEmpty() || !walked) {
            return;
        }
        double inj = CostFit.medianOf(pairs.stream()
                .mapToDouble(l ->
                        l.path("injector_cpu_ns").asDouble() / l.path("sends").asDouble())
                .toArray());
        double lis = CostFit.medianOf(pairs.stream()
                .mapToDouble(l ->
                        l.path("listener_cpu_ns").asDouble() / l.path("sends").asDouble())
                .toArray());
        // the listener's sleeps (its voluntary switches: each a wake-up by a send) where the line has them; older lines
        // count its drain cycles, which also start when data was already queued
        boolean sleeps = pairs.stream().allMatch(l -> l.has("listener_sleeps"));
        String wakeField = sleeps ? "listener_sleeps" : "listener_wakeups";
        double wakes = CostFit.medianOf(pairs.stream()
                .mapToDouble(l -> l.path(wakeField).asDouble() / l.path("sends").asDouble())
                .toArray());
        double perSocket = costs.get("costs.uevent.broadcast-per-socket").value();
        double injUser = costs.containsKey("costs.uevent.injector-user")
                ? costs.get("costs.uevent.injector-user").value()
                : 0;
        double lisUser = costs.containsKey("costs.uevent.listener-user")
                ? costs.get("costs.uevent.listener-user").value()
                : 0;
        Fitted ctx = costs.get(CostFit.CONTEXT_SWITCH);
        double[] p50s = pairs.stream()
                .filter(l -> l.path("send_p50_ns").asDouble() > 0)
                .mapToDouble(l -> l.path("send_p50_ns").asDouble())
                .toArray();
        double p50 = p50s.length == pairs.size() ? CostFit.medianOf(p50s) : Double.NaN;
        double excess = inj - injUser - p50;
        // the median send wakes nobody only while under half the sends wake the listener; under 1% the excess over so
        // few wake-ups is noise; and the wake-up must be one the model accepts, or the send keeps the whole CPU
        boolean wakeFitted = wakes >= MIN_WAKES
                && wakes <= MAX_WAKES
                && excess >= 0
                && Double.isFinite(p50)
                && ModelKeys.problem("costs.uevent.wake-listener", Math.round(excess / wakes) + "ns") == null;
        double intercept = wakeFitted ? p50 - perSocket : inj - injUser - perSocket;
        if (wakeFitted) {
            costs.put(
                    "costs.uevent.wake-listener",
                    new Fitted(
                            excess / wakes,
                            String.format(
                                    "uevent_probe pair (%d run(s),"
                                            + " medians): the injector's CPU per send %.0f ns less injector-user and its median send %.0f ns, over %.3f"
                                            + " %s per send",
                                    pairs.size(),
                                    inj,
                                    p50,
                                    wakes,
                                    sleeps ? "listener sleeps (wake-ups)" : "listener drain cycles"),
                            pairs.size(),
                            Double.NaN));
        } else {
            unfitted.put(
                    "costs.uevent.wake-listener",
                    !Double.isFinite(p50)
                            ? "a pair probe line has no send_p50_ns"
                            : wakes == 0
                                    ? "the pair probe's listener never slept"
                                    : wakes < MIN_WAKES || wakes > MAX_WAKES
                                            ? String.format(
                                                    "the pair probe's listener slept at %.3f of the sends,"
                                                            + " outside %.2f..%.1f (the median send must wake nobody, and enough sends must wake it)",
                                                    wakes, MIN_WAKES, MAX_WAKES)
                                            : excess < 0
                                                    ? String.format(
                                                            "the pair probe's injector spent less per send (%.0f ns less injector-user) than"
                                                                    + " its median send (%.0f ns)",
                                                            inj - injUser, p50)
                                                    : String.format(
                                                            "%.0f ns a wake-up (%.0f ns over %.3f wake-ups per send) is outside the key's range",
                                                            excess / wakes, excess, wakes));
        }
        double walkIntercept = costs.get("costs.uevent.send-outside").value() * 7 / 3;
        extras.put(
                "uevent-send-intercept-walk",
                new Fitted(
                        walkIntercept,
                        costs.get("costs.uevent.send-outside").source(),
                        costs.get("costs.uevent.send-outside").points(),
                        costs.get("costs.uevent.send-outside").residual()));
        extras.put("uevent-recv-walk", costs.get("costs.uevent.recv"));
        String src = wakeFitted
                ? String.format(
                        "uevent_probe pair (%d run(s), medians): the median send %.0f ns less one bound socket's walk:"
                                + " intercept %.0f ns, split 3:2:1:1 as reference.conf",
                        pairs.size(), p50, intercept)
                : String.format(
                        "uevent_probe pair (%d run(s), medians): the injector's CPU per send %.0f ns less"
                                + " injector-user and one bound socket's walk: intercept %.0f ns, split 3:2:1:1 as reference.conf",
                        pairs.size(), inj, intercept);
        costs.put("costs.uevent.send-outside", new Fitted(intercept * 3 / 7, src, pairs.size(), Double.NaN));
        costs.put("costs.uevent.send-inside", new Fitted(intercept * 2 / 7, src, pairs.size(), Double.NaN));
        costs.put("costs.uevent.deliver-per-listener", new Fitted(intercept / 7, src, pairs.size(), Double.NaN));
        costs.put("costs.uevent.return", new Fitted(intercept / 7, src, pairs.size(), Double.NaN));
        double switches = ctx == null ? 0 : wakes * ctx.value();
        costs.put(
                "costs.uevent.recv",
                new Fitted(
                        lis - switches - lisUser,
                        String.format(
                                "uevent_probe pair (%d run(s),"
                                        + " medians): the listener's CPU per message %.0f ns less %.3f %s per message x machine.context-switch"
                                        + "%s and listener-user",
                                pairs.size(),
                                lis,
                                wakes,
                                sleeps ? "sleeps" : "drain cycles",
                                ctx == null ? " (not measured: 0)" : ""),
                        pairs.size(),
                        Double.NaN));
    }
}
