package org.netnslab.workload.churn;

import org.netnslab.settings.HoconChecker;
import org.netnslab.workload.WorkloadParser;

/**
 * Reads a {@code netns-churn} workload: {@code workers}, {@code iterations}, {@code new-userns},
 * {@code sockets}, {@code warmup-iterations}.
 */
public final class NetnsChurnParser extends WorkloadParser {
    /** Reads {@code workload.type = netns-churn}. */
    public NetnsChurnParser() {
        super("netns-churn", "workers", "iterations", "new-userns", "sockets", "warmup-iterations");
    }

    @Override
    protected NetnsChurnWorkload read(HoconChecker c, double scale) {
        long workers = c.integer("workload.workers", null, 1, MAX_POPULATION);
        long iterations = c.integer("workload.iterations", null, 1, MAX_SCALED);
        long sockets = c.integer("workload.sockets", 0L, 0, 100_000);
        long warmup = c.integer("workload.warmup-iterations", 0L, 0, MAX_SCALED);
        boolean newUserns = c.bool("workload.new-userns", false);
        NetnsChurnWorkload w = new NetnsChurnWorkload((int) workers, iterations, newUserns, (int) sockets, warmup);
        capScaled(c, scale, "workload.iterations", w.iterations() * scale, MAX_SCALED, " iterations per worker");
        capScaled(c, scale, "workload.warmup-iterations", warmup * scale, MAX_SCALED, " warm-up iterations per worker");
        return w;
    }
}
