package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.netnslab.calibrate.CostFit.Fitted;
import org.netnslab.machine.ColdSwitch;

/**
 * {@code machine.cold-switch} from sched_probe's ring: a hop at K tasks less a hop at K = 2 is what a switch-in pays
 * when K switches ran since the task last ran ({@link ColdSwitch}, context_switch in kernel/sched/core.c). Stateless.
 */
final class SwitchFit {
    /** The keys' common prefix. */
    static final String PREFIX = "machine.cold-switch.";

    static final String BASE = PREFIX + "base";
    static final String EVICTED = PREFIX + "evicted";
    static final String CACHED = PREFIX + "cached-tasks";

    /** Ring sizes beyond K = 2 the fit needs: two parts and the knee. */
    static final int MIN_SIZES = 3;

    /** Candidate knees (cached-tasks) tried, on a log scale between 2 and the largest ring. */
    static final int KNEES = 200;

    private SwitchFit() {}

    /**
     * {@code machine.context-switch} from sched_probe's ctxsw line, before the fits that take it off their own
     * figures ({@link StopFit}, {@link PairFit}): a median of 0 or below (the round trip less the pipe's own cost can
     * come out so) is NOT FITTED here, so that none of them takes a negative switch off.
     *
     * @param line the fit set's ctxsw line
     * @param costs receives the key when the median is above 0
     * @param unfitted receives why not, otherwise
     */
    static void contextSwitch(ObjectNode line, Map<String, Fitted> costs, Map<String, String> unfitted) {
        double ns = line.path("context_switch_p50_ns").asDouble();
        String source = "sched_probe ctxsw: two processes on one CPU passing a byte over pipes (lat_ctx), round trip"
                + " less two pipe write + read, / 2, median of "
                + line.path("context_switch_count").asInt()
                + " batches";
        long whole = Math.round(ns); // the key is written in whole ns: one that rounds to 0 would be a free switch
        if (whole <= 0) { // no switch costs nothing: the probe could not tell one from the pipe's own cost
            costs.remove(CostFit.CONTEXT_SWITCH);
            unfitted.put(
                    CostFit.CONTEXT_SWITCH,
                    String.format(
                            "the probe's median is %d ns, %s (%s)",
                            whole, whole < 0 ? "below 0" : "no time: the pipe's own cost hides the switch", source));
            return;
        }
        costs.put(CostFit.CONTEXT_SWITCH, new Fitted(ns, source, 1, Double.NaN));
    }

    /**
     * Fits {@code extra(K) = base + evicted x max(0, 1 - cached / K)} to the ring's extras by least squares (both
     * parts at least 0), {@code cached} the best of {@link #KNEES} candidates on a log scale from 2 to the largest K
     * (and 0): the hop's median per K, over every line of that K, less K = 2's. All three keys NOT FITTED without a
     * K = 2 line, with fewer than {@link #MIN_SIZES} larger sizes, or with a value outside {@link ColdSwitch}'s
     * ranges.
     *
     * @param lines the fit set's sched_probe ring lines ({@code tasks}, {@code hop_min_ns}: the fastest of the
     *     ring's five batches, as another task running on its CPU only slows a batch; {@code hop_p50_ns} in a line
     *     without it)
     * @param costs receives the three keys
     * @param unfitted receives why not
     */
    static void fit(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, String> unfitted) {
        TreeMap<Long, List<ObjectNode>> byK = SizeFit.bySize(lines, "tasks");
        String why = null;
        if (lines.isEmpty()) {
            why = "no sched_probe ring line in the fit set (a calibration from before the ring)";
        } else if (!byK.containsKey(2L)) {
            why = "no ring of 2 tasks in the fit set: no hop to take the others' from";
        } else if (byK.tailMap(2L, false).size() < MIN_SIZES) {
            why = "rings of " + byK.keySet() + " tasks: the fit needs " + MIN_SIZES + " sizes above 2";
        }
        if (why != null) {
            for (String k : List.of(BASE, EVICTED, CACHED)) {
                unfitted.put(k, why);
            }
            return;
        }
        double hop2 = hop(byK.get(2L));
        double[][] kx = SizeFit.lessBase(byK.tailMap(2L, false), hop2, SwitchFit::hop);
        double[] ks = kx[0];
        double[] xs = kx[1];
        int n = ks.length;
        double[] best = null;
        double bestSse = Double.POSITIVE_INFINITY;
        double top = ks[n - 1];
        for (int g = -1; g < KNEES; g++) {
            double knee = g < 0 ? 0 : Math.round(2 * Math.pow(top / 2, g / (double) (KNEES - 1)));
            double[] f = fitAt(ks, xs, knee);
            if (f[3] < bestSse) {
                bestSse = f[3];
                best = f;
            }
        }
        String src = String.format(
                "sched_probe ring: K processes on one CPU passing a byte round a ring of pipes, a hop at K (its"
                        + " fastest batch: another task's run on that CPU only adds) less a hop at 2 (%.0f ns; medians"
                        + " over %d lines) at K = %s, fitted as base + evicted x max(0, 1 -"
                        + " cached-tasks / K) by least squares, cached-tasks the best of %d on a log scale",
                hop2, lines.size(), byK.tailMap(2L, false).keySet(), KNEES + 1);
        double rms = Math.sqrt(bestSse / n);
        try {
            new ColdSwitch(Math.round(best[0]), Math.round(best[1]), Math.round(best[2]));
        } catch (IllegalArgumentException e) {
            for (String k : List.of(BASE, EVICTED, CACHED)) {
                unfitted.put(k, "outside what the model accepts (" + e.getMessage() + ") from " + src);
            }
            return;
        }
        costs.put(BASE, new Fitted(best[0], src, n, Double.NaN));
        costs.put(EVICTED, new Fitted(best[1], src + String.format("; rms residual %.0f ns", rms), n, Double.NaN));
        costs.put(CACHED, new Fitted(best[2], src, n, Double.NaN));
    }

    /**
     * @return {base, evicted, knee, sum of squared residuals}: least squares of x = base + evicted x g(K), g(K) =
     *     max(0, 1 - knee / K), both at least 0
     */
    static double[] fitAt(double[] ks, double[] xs, double knee) {
        int n = ks.length;
        double sg = 0, sgg = 0, sx = 0, sgx = 0;
        double[] g = new double[n];
        for (int i = 0; i < n; i++) {
            g[i] = Math.max(0, 1 - knee / ks[i]);
            sg += g[i];
            sgg += g[i] * g[i];
            sx += xs[i];
            sgx += g[i] * xs[i];
        }
        double det = n * sgg - sg * sg;
        double base = det > 0 ? (sgg * sx - sg * sgx) / det : sx / n;
        double evicted = det > 0 ? (n * sgx - sg * sx) / det : 0;
        if (base < 0) { // the evicted part alone
            base = 0;
            evicted = sgg > 0 ? Math.max(0, sgx / sgg) : 0;
        } else if (evicted < 0) { // the base alone
            evicted = 0;
            base = Math.max(0, sx / n);
        }
        double sse = 0;
        for (int i = 0; i < n; i++) {
            double r = xs[i] - base - evicted * g[i];
            sse += r * r;
        }
        return new double[] {base, evicted, knee, sse};
    }

    /** @return the median over one ring size's lines of each one's fastest batch (its median batch without it) */
    private static double hop(List<ObjectNode> ring) {
        return CostFit.medianOf(ring.stream()
                .mapToDouble(l -> l.path(l.has("hop_min_ns") ? "hop_min_ns" : "hop_p50_ns")
                        .asDouble())
                .toArray());
    }
}
