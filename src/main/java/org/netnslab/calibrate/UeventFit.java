package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.netnslab.calibrate.CostFit.Fitted;

/**
 * {@link CostFit}'s uevent part: the broadcast walk (one process sends and receives, 0..1000 extra sockets bound in
 * another netns), the exit and the waiters probes. The walk's spread is {@link JitterFit}'s, the pair probe (an
 * injector and its listener in two processes) {@link PairFit}'s. Stateless.
 */
final class UeventFit {
    /**
     * The walk: send median = a + b x bound sockets (least squares of relative residuals); b is
     * {@code broadcast-per-socket}, a is split 3:2:1:1; {@code recv}, {@code listener-user} and {@code injector-user}
     * are the lines' medians.
     *
     * @param lines the walk's lines (uevent_probe fit)
     * @param costs receives the costs
     * @param extras receives figures no key charges
     * @return the line fitted, {intercept in ns, slope in ns a socket}; null without lines
     */
    static double[] fitWalk(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, Fitted> extras) {
        if (lines.isEmpty()) {
            return null;
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
        return ab;
    }

    /** The largest walk (extra sockets) fitted by the line: beyond it the walk's footprint may leave the caches. */
    static final long CACHED_WALK = 1000;

    /** The knee's key: bound sockets whose walk stays in the caches. */
    static final String CACHED_SOCKETS = "costs.uevent.broadcast-cached-sockets";

    /** The uncached extra's key: ns per bound socket beyond the knee. */
    static final String UNCACHED_EXTRA = "costs.uevent.broadcast-uncached-extra";

    /** Knees tried between the cached walk's end and the second largest walk, spaced evenly on a log scale. */
    private static final int KNEES = 200;

    /**
     * The walk beyond the caches (netlink_broadcast's do_one_broadcast over the mc_list, net/netlink/af_netlink.c):
     * with the line a + b x sockets fitted on the walks up to {@link #CACHED_WALK} extra sockets, the larger walks'
     * send medians (the median per size over the runs) are fitted as a + b x s + e x max(0, s - k), least squares of
     * relative residuals: e (ns) in closed form for each knee k tried ({@link #KNEES} on a log scale from the
     * cached walk's end to the second largest size), the knee with the least residual kept. The sockets counted are
     * the bound ones: the extra ones and the probe's own listener. Fewer than three sizes beyond the cached walk (a
     * recording made before the larger walks), or an extra below 0 (the
     * larger walks cost no more a socket than the line): both keys NOT FITTED, and the model's walk stays linear.
     *
     * @param lines the walk's lines beyond {@link #CACHED_WALK} extra sockets
     * @param line the cached walk's line ({@link #fitWalk}), or null when it was not fitted (nothing to do)
     * @param costs receives the two costs
     * @param unfitted receives why not
     */
    static void fitUncachedWalk(
            List<ObjectNode> lines, double[] line, Map<String, Fitted> costs, Map<String, String> unfitted) {
        if (line == null) {
            return;
        }
        java.util.TreeMap<Long, List<ObjectNode>> bySize = new java.util.TreeMap<>();
        for (ObjectNode l : lines) {
            bySize.computeIfAbsent(l.path("extra_sockets").asLong() + 1, k -> new java.util.ArrayList<>())
                    .add(l);
        }
        if (bySize.size() < 3) { // the knee and the extra: two parameters, a residual only from a third size
            String why = "fewer than 3 walk sizes beyond " + CACHED_WALK + " extra sockets, so the walk stays linear"
                    + " (a recording made before the larger walks, or edited)";
            unfitted.put(UNCACHED_EXTRA, why);
            unfitted.put(CACHED_SOCKETS, why);
            return;
        }
        double[][] xy = bySize.entrySet().stream()
                .map(e -> new double[] {e.getKey(), CostFit.median(e.getValue(), "send_p50_ns")})
                .toArray(double[][]::new);
        double[] best = knee(xy, line[0], line[1], CACHED_WALK + 1, xy[xy.length - 2][0]);
        String src = String.format(
                "uevent_probe fit: send medians vs bound sockets %s (median per size over %d line(s)) over the line"
                        + " fitted up to %d extra sockets, + extra x (sockets - knee): knee of least relative"
                        + " residual, extra in closed form",
                CostFit.xs(xy), lines.size(), CACHED_WALK);
        if (!(best[1] >= 0)) {
            String why = String.format(
                    "%.1f ns a socket beyond %.0f bound sockets, below 0, from %s: the larger walks cost no more a"
                            + " socket than the line (the caches still hold them, or the lines do not fit this form)",
                    best[1], best[0], src);
            unfitted.put(UNCACHED_EXTRA, why);
            unfitted.put(CACHED_SOCKETS, why);
            return;
        }
        costs.put(UNCACHED_EXTRA, new Fitted(best[1], src + " (extra)", lines.size(), best[2]));
        costs.put(CACHED_SOCKETS, new Fitted(Math.round(best[0]), src + " (knee)", lines.size(), best[2]));
    }

    /**
     * @param xy each size's sockets and send median, ns, by size
     * @param a the cached line's intercept, ns
     * @param b its slope, ns per socket
     * @param from the least knee tried, sockets
     * @param to the greatest
     * @return {knee, extra in ns per socket, relative residual (RMS)}
     */
    static double[] knee(double[][] xy, double a, double b, double from, double to) {
        double[] best = {from, Double.NaN, Double.POSITIVE_INFINITY};
        for (int i = 0; i <= KNEES; i++) {
            double k = Math.round(from * Math.pow(Math.max(to, from) / from, (double) i / KNEES));
            double num = 0;
            double den = 0;
            for (double[] p : xy) {
                double d = Math.max(0, p[0] - k) / p[1];
                num += d * (1 - (a + b * p[0]) / p[1]);
                den += d * d;
            }
            double e = den == 0 ? 0 : num / den;
            double sum = 0;
            for (double[] p : xy) {
                double r = (a + b * p[0] + e * Math.max(0, p[0] - k)) / p[1] - 1;
                sum += r * r;
            }
            double rms = Math.sqrt(sum / xy.length);
            if (rms < best[2]) {
                best = new double[] {k, e, rms};
            }
        }
        return best;
    }

    /**
     * {@code injector-exit}: the exit probe's median exit CPU (the child's wait4 rusage less its CPU clock just before
     * _exit: exit_mmap, netlink_release) plus its parent's median reaping CPU (around wait4), medians over the lines.
     * Without an exit line where the walk was fitted (a recording made before the exit probe), NOT FITTED.
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
}
