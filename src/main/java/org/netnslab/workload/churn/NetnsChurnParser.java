package org.netnslab.workload.churn;

import java.util.Set;
import org.netnslab.settings.HoconChecker;
import org.netnslab.workload.WorkloadParser;

/**
 * Reads a {@code netns-churn} workload: {@code workers}, {@code iterations}, {@code new-userns},
 * {@code sockets}, {@code warmup-iterations}.
 */
public final class NetnsChurnParser implements WorkloadParser {
    private static final Set<String> KEYS =
            Set.of("type", "workers", "iterations", "new-userns", "sockets", "warmup-iterations");

    @Override
    public String type() {
        return "netns-churn";
    }

    @Override
    public NetnsChurnWorkload parse(HoconChecker c, double scale) {
        c.unknownKeys(c.conf().getObject("workload"), KEYS, "workload.");
        long workers = c.integer("workload.workers", null, 1, 1_000_000_000); // the heap estimate is the check
        long iterations = c.integer("workload.iterations", null, 1, MAX_SCALED);
        long sockets = c.integer("workload.sockets", 0L, 0, 100_000);
        long warmup = c.integer("workload.warmup-iterations", 0L, 0, MAX_SCALED);
        boolean newUserns = c.bool("workload.new-userns", false);
        NetnsChurnWorkload w = new NetnsChurnWorkload((int) workers, iterations, newUserns, (int) sockets, warmup);
        if (scale > 0 && scale <= 1000) {
            if (w.iterations() * scale > MAX_SCALED) {
                c.problem(
                        "workload.iterations",
                        "times --scale " + scale + " exceeds " + MAX_SCALED + " iterations per worker");
            }
        }
        return w;
    }
}
