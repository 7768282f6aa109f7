package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.netnslab.calibrate.CostFit.Fitted;

/**
 * {@code costs.uevent.listener-stop} from {@code uevent_probe stop}: TC1's listener loop alone, woken asleep in poll by
 * the close of the stop pipe it polls beside its socket (pipe_release -> wake_up_interruptible_sync_poll, fs/pipe.c),
 * its CPU clock read just before that last poll and at the loop's end: poll's sleep and return (do_sys_poll ->
 * poll_freewait), a poll that finds nothing, the loop's end, and the switch back in. Stateless.
 */
final class StopFit {
    static final String KEY = "costs.uevent.listener-stop";

    private StopFit() {}

    /**
     * {@code listener-stop} = the mean of the lines' {@code stop_cpu_mean_ns} less {@code machine.context-switch},
     * which the model charges on that wake-up's switch-in (the listener was the last task but one on its CPU, so no
     * {@code machine.cold-switch} extra). A mean, as the model charges each cost jittered about it and a load's
     * listeners sum their stops. NOT FITTED without a stop line (a recording from before the probe) or without the
     * context switch; a value below 0 is refused by {@link CostFit}.
     *
     * @param lines the fit set's {@code uevent_probe stop} lines
     * @param costs receives the key; holds {@code machine.context-switch} when it was fitted
     * @param unfitted receives why not
     */
    static void fit(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, String> unfitted) {
        List<ObjectNode> usable = lines.stream()
                .filter(l -> l.path("stop_cpu_count").asLong() > 0)
                .toList();
        Fitted ctx = costs.get(CostFit.CONTEXT_SWITCH);
        if (usable.isEmpty() || ctx == null) {
            unfitted.put(
                    KEY,
                    usable.isEmpty()
                            ? "no uevent_probe stop line in the fit set (recorded before the stop probe, or edited out)"
                            : "no machine.context-switch: the stop's switch-in is charged as one");
            return;
        }
        double mean = usable.stream()
                .mapToDouble(l -> l.path("stop_cpu_mean_ns").asDouble())
                .average()
                .orElse(Double.NaN);
        long rounds = usable.stream()
                .mapToLong(l -> l.path("stop_cpu_count").asLong())
                .sum();
        costs.put(
                KEY,
                new Fitted(
                        mean - ctx.value(),
                        String.format(
                                "uevent_probe stop (%d line(s), %d wake-ups): the listener's CPU from its last poll to"
                                        + " its loop's end, mean %.0f ns, less machine.context-switch %.0f ns",
                                usable.size(), rounds, mean, ctx.value()),
                        (int) rounds,
                        Double.NaN));
    }
}
