package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
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

    private BackgroundFit() {}

    /**
     * Fits {@code cpu(K) - cpu(0) = b K + c K^2} (ns of CPU a second) by least squares through the origin over the
     * sizes' medians, both terms at least 0 (a negative one is dropped and the other refitted alone): {@code per-netns
     * = b}, {@code doubling-netns = b / c} (0 where c is 0). Both keys NOT FITTED without a K = 0 line, with fewer than
     * {@link #MIN_SIZES} larger sizes, where b comes out 0 or below, or outside {@link HostBackground}'s ranges.
     *
     * @param lines the fit set's uevent_probe idle lines ({@code netns}, {@code window_ns}, {@code machine_busy_ns})
     * @param costs receives the two keys
     * @param unfitted receives why not
     */
    static void fit(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, String> unfitted) {
        TreeMap<Long, List<ObjectNode>> byK = new TreeMap<>();
        for (ObjectNode l : lines) {
            byK.computeIfAbsent(l.path("netns").asLong(), k -> new ArrayList<>())
                    .add(l);
        }
        String why = null;
        if (lines.isEmpty()) {
            why = "no uevent_probe idle line in the fit set (a calibration from before it)";
        } else if (!byK.containsKey(0L)) {
            why = "no idle line with 0 netns: no busy time to take the others' from";
        } else if (byK.tailMap(0L, false).size() < MIN_SIZES) {
            why = "idle lines at " + byK.keySet() + " netns: the fit needs " + MIN_SIZES + " sizes above 0";
        }
        double base = why == null ? rate(byK.get(0L)) : 0;
        int n = byK.size() - 1;
        double[] ks = new double[Math.max(0, n)];
        double[] ys = new double[ks.length];
        int i = 0;
        for (Map.Entry<Long, List<ObjectNode>> e : byK.tailMap(0L, false).entrySet()) {
            ks[i] = e.getKey();
            ys[i++] = rate(e.getValue()) - base;
        }
        double[] bc = why == null ? fitAt(ks, ys) : new double[2];
        if (why == null && bc[0] <= 0) {
            why = String.format(
                    "no growth with the netns alive in the model's form: its linear part came out %.1f ns a second a"
                            + " netns over K = %s",
                    bc[0], byK.tailMap(0L, false).keySet());
        }
        String src = String.format(
                "uevent_probe idle: the machine's busy time a second (/proc/stat) with K processes asleep, each in its"
                        + " own user+net namespace, less K = 0's (%.1f ms a second), at K = %s (medians over %d"
                        + " lines), fitted as per-netns x K x (1 + K / doubling-netns) by least squares; the period"
                        + " is not fitted",
                base / 1e6, byK.tailMap(0L, false).keySet(), lines.size());
        long perNetns = Math.round(bc[0]);
        long doubling = bc[1] > 0 ? Math.round(bc[0] / bc[1]) : 0;
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

    /** @return {b, c}: least squares of y = b K + c K^2 through the origin, both at least 0 */
    static double[] fitAt(double[] ks, double[] ys) {
        double s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0;
        for (int i = 0; i < ks.length; i++) {
            double k = ks[i], k2 = k * k;
            s11 += k * k;
            s12 += k * k2;
            s22 += k2 * k2;
            s1y += k * ys[i];
            s2y += k2 * ys[i];
        }
        double det = s11 * s22 - s12 * s12;
        double b = det > 0 ? (s22 * s1y - s12 * s2y) / det : 0;
        double c = det > 0 ? (s11 * s2y - s12 * s1y) / det : 0;
        if (c < 0 || det <= 0) { // linear alone
            return new double[] {s11 > 0 ? s1y / s11 : 0, 0};
        }
        if (b < 0) { // the model's form needs a linear part: none means no fit
            return new double[] {0, c};
        }
        return new double[] {b, c};
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
