package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.netnslab.calibrate.CostFit.Fitted;

/**
 * {@code costs.uevent.recv-evicted} and {@code recv-cached-sockets} from the walk lines' own recvmsg: uevent_probe fit
 * sends, walks L sockets bound in another netns, then receives in one process, so its receive at L reads what a walk
 * of L sockets left of the skb and the socket's queue in the caches (netlink_recvmsg, net/netlink/af_netlink.c).
 * Stateless.
 */
final class RecvFit {
    static final String EVICTED = "costs.uevent.recv-evicted";
    static final String CACHED = "costs.uevent.recv-cached-sockets";

    /** Walk sizes beyond L = 0 the fit needs: a part and its knee. */
    static final int MIN_SIZES = 3;

    /** The longest walk the fit needs, sockets: a receive's lines leave the caches only after thousands. */
    static final long MIN_TOP = 4000;

    /** Candidate knees tried beside 0, on a log scale from 1 to the largest L. */
    static final int KNEES = 200;

    private RecvFit() {}

    /**
     * Fits {@code recv(L) - recv(0) = evicted x max(0, 1 - cached / L)} over the sizes' medians of {@code recv_p50_ns}
     * by least squares, {@code cached} the best of {@link #KNEES} on a log scale (and 0), {@code evicted} at least 0.
     * Both keys NOT FITTED without L = 0, with fewer than {@link #MIN_SIZES} larger sizes, a longest walk under {@link
     * #MIN_TOP}, or where evicted comes out 0.
     *
     * @param walks the fit set's walk lines ({@code extra_sockets}, {@code recv_p50_ns})
     * @param costs receives the two keys
     * @param unfitted receives why not
     */
    static void fit(List<ObjectNode> walks, Map<String, Fitted> costs, Map<String, String> unfitted) {
        TreeMap<Long, List<ObjectNode>> byL = SizeFit.bySize(walks, "extra_sockets");
        String why = !byL.containsKey(0L)
                ? "no walk line at 0 extra sockets: no receive to take the others' from"
                : byL.tailMap(0L, false).size() < MIN_SIZES
                        ? "walk lines at " + byL.keySet() + " sockets: the fit needs " + MIN_SIZES + " sizes above 0"
                        : byL.lastKey() < MIN_TOP
                                ? "walk lines up to " + byL.lastKey() + " sockets: the fit needs a walk of " + MIN_TOP
                                        + " or more (a recording from before the walk beyond the caches)"
                                : null;
        double[] best = {0, 0};
        if (why == null) {
            double[][] lx = SizeFit.lessBase(byL.tailMap(0L, false), recv(byL.get(0L)), RecvFit::recv);
            double[] ls = lx[0];
            best = SizeFit.bestScale(
                    ls,
                    lx[1],
                    SizeFit.zeroAndLogGrid(ls[ls.length - 1], KNEES),
                    (knee, l) -> Math.max(0, 1 - knee / l));
            if (best[0] <= 0) {
                why = "the walk lines' receive does not grow with the sockets walked (L = " + byL.keySet() + ")";
            }
        }
        if (why != null) {
            unfitted.put(EVICTED, why);
            unfitted.put(CACHED, why);
            return;
        }
        String src =
                "uevent_probe fit: the walk lines' own recvmsg (send, a walk of L sockets, receive) less L = 0's, at"
                        + " L = " + byL.tailMap(0L, false).keySet() + " (medians over " + walks.size()
                        + " lines), fitted as"
                        + " recv-evicted x max(0, 1 - recv-cached-sockets / L) by least squares, recv-cached-sockets the best of "
                        + KNEES + " on a log scale and 0";
        costs.put(EVICTED, new Fitted(best[0], src, byL.size() - 1, Double.NaN));
        costs.put(CACHED, new Fitted(best[1], src, byL.size() - 1, Double.NaN));
    }

    /** @return the median over one size's lines of their receive's p50, ns */
    private static double recv(List<ObjectNode> lines) {
        return CostFit.medianOf(lines.stream()
                .mapToDouble(l -> l.path("recv_p50_ns").asDouble())
                .toArray());
    }
}
