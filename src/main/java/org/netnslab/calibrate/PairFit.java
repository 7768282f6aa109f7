package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.netnslab.calibrate.CostFit.Fitted;
import org.netnslab.scenario.ModelKeys;

/**
 * {@link CostFit}'s pair probe part: one injector and its listener in two processes, alone on the machine, give the
 * send's intercept, the listener's {@code recv} and the sender's {@code wake-listener} from both processes' CPU
 * clocks, over the broadcast walk's slope per socket and user-space parts ({@link UeventFit}). Stateless.
 */
final class PairFit {
    /** The fewest wake-ups per send over which the pair's excess CPU is divided into a wake-up's cost. */
    static final double MIN_WAKES = 0.01;
    /** The most: above half the sends waking the listener, the median send is itself a waking one. */
    static final double MAX_WAKES = 0.5;

    private PairFit() {}

    /**
     * The send's and the receive's levels from the pair probe (one injector and its listener in two processes, alone
     * on the machine), where its lines carry both CPU clocks: the injector's CPU per send and the listener's per
     * message, medians over the runs. The walk keeps both ends in one process: its skb is freed at once on the CPU
     * that allocated it and its listener never sleeps, so its medians are the send's and recv's cheapest case (on the
     * 6.18 host the pair's sender costs 1.3-1.5x the walk's). The walk still gives the slope per bound socket and
     * the user-space parts; the pair replaces the send's intercept (split 3:2:1:1 as the walk's) and {@code recv}:
     * <ul>
     *   <li>send intercept = the median send (its time in the system call, which does not block) - one bound
     *       socket's walk: a send that wakes nobody;</li>
     *   <li>{@code wake-listener} = (injector CPU per send - {@code injector-user} - the median send) / the
     *       listener's wake-ups per send: the sender's try_to_wake_up of its sleeping listener, fitted as what the
     *       injector spends beyond its median send, over the sends that woke the listener (so it also carries
     *       whatever else lifts the mean send over the median); NOT FITTED, and the intercept then the injector CPU
     *       per send - {@code injector-user} - one socket's walk), when the listener slept at under {@link #MIN_WAKES}
     *       or over {@link #MAX_WAKES} of the sends, when the excess is negative, or when the wake-up falls outside
     *       the key's range;</li>
     *   <li>{@code recv} = listener CPU per message - its wake-ups per message x {@code machine.context-switch} (the
     *       model charges a switch per wake-up) - {@code listener-user}; without a fitted switch the walk lines'
     *       {@code recv} stays, as the model then charges its configured switch.</li>
     * </ul>
     * A wake-up is one of the listener's sleeps ({@code listener_sleeps}: its voluntary context switches, each a
     * send waking it from poll) where the lines carry them, else one of its drain cycles ({@code listener_wakeups},
     * in lines without sleeps), which also start when a message was already queued. The walk's values stay in {@code extras}
     * for comparison. Without pair lines where the walk was fitted, or without a walk for the pair lines, {@code
     * wake-listener} is named NOT FITTED.
     */
    static void fit(
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
        // the listener's sleeps (its voluntary switches: each a wake-up by a send) where the line has them; lines
        // without
        // them count its drain cycles, which also start when data was already queued
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
        if (ctx == null) { // the model charges its configured switch at each wake-up: the walk lines' recv stays
            return;
        }
        double switches = wakes * ctx.value();
        costs.put(
                "costs.uevent.recv",
                new Fitted(
                        lis - switches - lisUser,
                        String.format(
                                "uevent_probe pair (%d run(s),"
                                        + " medians): the listener's CPU per message %.0f ns less %.3f %s per message x machine.context-switch"
                                        + " and listener-user",
                                pairs.size(), lis, wakes, sleeps ? "sleeps" : "drain cycles"),
                        pairs.size(),
                        Double.NaN));
    }
}
