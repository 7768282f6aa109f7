package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.netnslab.calibrate.CostFit.Fitted;

/**
 * {@code costs.uevent.recv-backlog-evicted}, {@code recv-backlog-cached} and {@code recv-remote} from {@code
 * uevent_probe backlog}: one process pinned to a CPU queues a few uevents on its listener, then M more on listeners in
 * other netns (skbs allocated on the same CPU: alloc_skb in uevent_net_broadcast, lib/kobject_uevent.c), then drains
 * the few, so each receive (netlink_recvmsg, net/netlink/af_netlink.c) reads an skb that M later allocations may have
 * evicted from the core's caches; a last line has them read by a process on the other CPU. Stateless.
 */
final class BacklogFit {
    static final String EVICTED = "costs.uevent.recv-backlog-evicted";
    static final String CACHED = "costs.uevent.recv-backlog-cached";
    static final String REMOTE = "costs.uevent.recv-remote";

    /** Backlog sizes beyond M = 0 the fit needs: a part and its knee. */
    static final int MIN_SIZES = 3;

    /** Candidate knees tried beside 0, on a log scale from 1 to the largest M. */
    static final int KNEES = 200;

    private BacklogFit() {}

    /**
     * @param lines the fit set's backlog lines
     * @return whether any read on the CPU that made the messages: then the pair's listener gives the drain cycle and
     *     {@code recv} stays the walk's ({@link PairFit})
     */
    static boolean present(List<ObjectNode> lines) {
        return !same(lines).isEmpty();
    }

    /**
     * Fits {@code recv(M) - recv(0) = evicted x max(0, 1 - cached / M)} over the same-CPU sizes' medians of {@code
     * recv_p50_ns} by least squares, {@code cached} the best of {@link #KNEES} on a log scale (and 0), {@code evicted}
     * at least 0; and {@code recv-remote} = the other-CPU lines' median less M = 0's. The first two NOT FITTED without
     * M = 0, with fewer than {@link #MIN_SIZES} larger sizes, or where evicted comes out 0; the third without an
     * other-CPU line (a one-CPU host) or M = 0, or where it comes out below 0.
     *
     * @param lines the fit set's backlog lines ({@code queued_since}, {@code reader}, {@code recv_p50_ns})
     * @param costs receives the keys
     * @param unfitted receives why not
     */
    static void fit(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, String> unfitted) {
        if (lines.isEmpty()) {
            String why = "no uevent_probe backlog line in the fit set (a calibration from before it)";
            for (String k : List.of(EVICTED, CACHED, REMOTE)) {
                unfitted.put(k, why);
            }
            return;
        }
        TreeMap<Long, List<ObjectNode>> byM = SizeFit.bySize(same(lines), "queued_since");
        String why = !byM.containsKey(0L)
                ? "no same-CPU backlog line at M = 0: no receive to take the others' from"
                : byM.tailMap(0L, false).size() < MIN_SIZES
                        ? "backlog lines at M = " + byM.keySet() + ": the fit needs " + MIN_SIZES + " sizes above 0"
                        : null;
        double[] best = {0, 0};
        if (why == null) {
            double[][] mx = SizeFit.lessBase(byM.tailMap(0L, false), recv(byM.get(0L)), BacklogFit::recv);
            double[] ms = mx[0];
            best = SizeFit.bestScale(
                    ms,
                    mx[1],
                    SizeFit.zeroAndLogGrid(ms[ms.length - 1], KNEES),
                    (knee, m) -> Math.max(0, 1 - knee / m));
            if (best[0] <= 0) {
                why = "the backlog lines' receive does not grow with the skbs queued since (M = " + byM.keySet() + ")";
            }
        }
        if (why != null) {
            unfitted.put(EVICTED, why);
            unfitted.put(CACHED, why);
        } else {
            String src = "uevent_probe backlog: a queued message's recvmsg after M skbs queued on its CPU since, less"
                    + " M = 0's, at M = " + byM.tailMap(0L, false).keySet() + " (medians over "
                    + same(lines).size() + " lines), fitted as recv-backlog-evicted x max(0, 1 - recv-backlog-cached"
                    + " / M) by least squares, recv-backlog-cached the best of " + KNEES + " on a log scale and 0";
            costs.put(EVICTED, new Fitted(best[0], src, byM.size() - 1, Double.NaN));
            costs.put(CACHED, new Fitted(best[1], src, byM.size() - 1, Double.NaN));
        }
        List<ObjectNode> other = lines.stream()
                .filter(l -> "other-cpu".equals(l.path("reader").asText()) && l.has("recv_p50_ns"))
                .toList();
        if (other.isEmpty() || !byM.containsKey(0L)) {
            unfitted.put(
                    REMOTE,
                    other.isEmpty()
                            ? "no backlog line read on the other CPU (a host with one CPU)"
                            : "no same-CPU backlog line at M = 0 to take the other CPU's from");
            return;
        }
        double base = recv(byM.get(0L));
        double remote = recv(other) - base;
        if (remote < 0) {
            unfitted.put(
                    REMOTE,
                    String.format(
                            "the other CPU's receive (%.0f ns) is below the same CPU's (%.0f ns)",
                            remote + base, base));
            return;
        }
        costs.put(
                REMOTE,
                new Fitted(
                        remote,
                        String.format(
                                "uevent_probe backlog: the receive on the other CPU than the one that queued the"
                                        + " messages (median %.0f ns over %d line(s)) less the same CPU's at M = 0 (%.0f ns)",
                                remote + base, other.size(), base),
                        other.size(),
                        Double.NaN));
    }

    private static List<ObjectNode> same(List<ObjectNode> lines) {
        return lines.stream()
                .filter(l -> "same-cpu".equals(l.path("reader").asText()) && l.has("recv_p50_ns"))
                .toList();
    }

    /** @return the median over lines of their receive's p50, ns */
    private static double recv(List<ObjectNode> lines) {
        return CostFit.medianOf(lines.stream()
                .mapToDouble(l -> l.path("recv_p50_ns").asDouble())
                .toArray());
    }
}
