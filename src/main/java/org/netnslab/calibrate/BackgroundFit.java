package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.netnslab.calibrate.CostFit.Fitted;
import org.netnslab.machine.HostBackground;

/**
 * {@code machine.host-background} from {@code uevent_probe idle}: the machine's busy time a second with K processes
 * asleep, each in its own user+net namespace, less the same with none, is what the host runs for K netns alive
 * ({@link HostBackground}: the host's work, not the kernel's netns code). Its {@code period} is not fitted. Stateless.
 */
final class BackgroundFit {
    /** The keys' common prefix. */
    static final String PREFIX = "machine.host-background.";

    static final String PER_NETNS = PREFIX + "per-netns";
    static final String DOUBLING = PREFIX + "doubling-netns";

    /** Sizes beyond K = 0 the fit needs: two terms. */
    static final int MIN_SIZES = 2;

    /** The least growth of the busy time at the largest K over its window the fit takes, ns: 10 ticks of 10 ms. */
    static final long MIN_GROWTH_NS = 100_000_000L;

    /** Candidate doubling counts tried beside 0 (linear), on a log scale from 1 to 10^6. */
    static final int DOUBLINGS = 200;

    private BackgroundFit() {}

    /**
     * Fits {@code cpu(K) - cpu(0) = per-netns x K x (1 + K / doubling-netns)} (ns of CPU a second) over the sizes'
     * medians by least squares ({@link #fitAt}). Both keys NOT FITTED without a K = 0 line, with fewer than {@link
     * #MIN_SIZES} larger sizes, where per-netns comes out 0, or outside {@link HostBackground}'s ranges.
     *
     * @param lines the fit set's uevent_probe idle lines ({@code netns}, {@code window_ns}, {@code machine_busy_ns})
     * @param costs receives the two keys (calibrate passes its extras: measured, not charged; see docs/calibrate.md)
     * @param unfitted receives why not
     */
    static void fit(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, String> unfitted) {
        TreeMap<Long, List<ObjectNode>> byK = SizeFit.bySize(lines, "netns");
        String why = null;
        if (lines.isEmpty()) {
            why = "no uevent_probe idle line in the fit set (a calibration from before it)";
        } else if (!byK.containsKey(0L)) {
            why = "no idle line with 0 netns: no busy time to take the others' from";
        } else if (byK.tailMap(0L, false).size() < MIN_SIZES) {
            why = "idle lines at " + byK.keySet() + " netns: the fit needs " + MIN_SIZES + " sizes above 0";
        }
        double base = why == null ? rate(byK.get(0L)) : 0;
        double[][] ky = SizeFit.lessBase(byK.tailMap(0L, false), base, BackgroundFit::rate);
        double[] ks = ky[0];
        double[] ys = ky[1];
        int n = ks.length;
        if (why == null) { // /proc/stat counts whole 10 ms ticks: a growth of a few is no measurement
            List<ObjectNode> top = byK.lastEntry().getValue();
            double grown = ys[n - 1] * top.get(0).path("window_ns").asDouble() / 1e9;
            if (grown < 0) { // other work fell at K, a busy machine's noise: no growth with the netns to fit
                why = String.format(
                        "the busy time at K = %d fell by %.0f ms over its %.0f s window against K = 0's: other work on"
                                + " the machine moved more than the netns did (run calibrate on a quiet machine)",
                        byK.lastKey(),
                        -grown / 1e6,
                        top.get(0).path("window_ns").asDouble() / 1e9);
            } else if (grown < MIN_GROWTH_NS) {
                why = String.format(
                        "the busy time at K = %d changed by %.0f ms over its %.0f s window, under %d of /proc/stat's 10 ms"
                                + " ticks (a --quick calibration's few netns and short window)",
                        byK.lastKey(),
                        grown / 1e6,
                        top.get(0).path("window_ns").asDouble() / 1e9,
                        MIN_GROWTH_NS / 10_000_000);
            }
        }
        double[] bc = why == null ? fitAt(ks, ys) : new double[2];
        if (why == null && bc[0] <= 0) {
            why = String.format(
                    "no growth with the netns alive: per-netns came out %.1f ns a second over K = %s",
                    bc[0], byK.tailMap(0L, false).keySet());
        }
        String src = String.format(
                "uevent_probe idle: the machine's busy time a second (/proc/stat) with K processes asleep, each in its"
                        + " own user+net namespace, less K = 0's (%.1f ms a second), at K = %s (%d lines, a K's median"
                        + " where it has several), fitted as per-netns (CPU a second for each netns) x K x (1 + K /"
                        + " doubling-netns) by least squares, doubling-netns the best of %d on a log scale, or 0 for"
                        + " linear; the period is not fitted",
                base / 1e6, byK.tailMap(0L, false).keySet(), lines.size(), DOUBLINGS);
        long perNetns = Math.round(bc[0]);
        long doubling = Math.round(bc[1]);
        if (why == null) {
            try {
                new HostBackground(HostBackground.NONE.periodNanos(), perNetns, doubling);
            } catch (IllegalArgumentException e) {
                why = "outside what the model accepts (" + e.getMessage() + ") from " + src;
            }
        }
        if (why != null) {
            unfitted.put(PER_NETNS, why);
            unfitted.put(DOUBLING, why);
            return;
        }
        costs.put(PER_NETNS, new Fitted(perNetns, src, n, Double.NaN));
        costs.put(DOUBLING, new Fitted(doubling, src, n, Double.NaN));
    }

    /**
     * @return {per-netns, doubling-netns}: for each doubling count D on the grid (0, linear, and {@link #DOUBLINGS} on
     *     a log scale from 1 to 10^6), least squares of y = b g(K), g(K) = K (1 + K / D), b at least 0; the D with the
     *     least squared residual
     */
    static double[] fitAt(double[] ks, double[] ys) {
        return SizeFit.bestScale(
                ks, ys, SizeFit.zeroAndLogGrid(1e6, DOUBLINGS), (d, k) -> k * (d == 0 ? 1 : 1 + k / d));
    }

    /** @return the median over one size's lines of the machine's busy ns a second */
    private static double rate(List<ObjectNode> lines) {
        return CostFit.medianOf(lines.stream()
                .mapToDouble(l -> l.path("machine_busy_ns").asDouble()
                        / l.path("window_ns").asDouble()
                        * 1e9)
                .toArray());
    }
}
