package org.netnslab.workload.churn;

import java.util.List;
import java.util.Set;
import org.netnslab.run.DesignRunner;
import org.netnslab.workload.PopulationBytes;
import org.netnslab.workload.Workload;

/**
 * The {@code netns-churn} workload (seed 004): {@code workers} parallel loops, each iteration like
 * {@code unshare -n /bin/true}: create a netns (optionally inside a new user namespace), the process
 * holds it, opens and closes {@code sockets} sockets in it, and exits, dropping its reference.
 *
 * @param workers parallel loops
 * @param iterations iterations per loop at scale 1
 * @param newUserns whether each netns is created inside a new user namespace
 * @param sockets sockets opened and then closed per iteration
 * @param warmupIterations iterations per worker run first, on a throwaway supervisor, and left out of
 *     every figure (they warm the JIT so the first design is not penalised)
 */
public record NetnsChurnWorkload(int workers, long iterations, boolean newUserns, int sockets, long warmupIterations)
        implements Workload {
    /** Measure: each worker's whole loop, s of wall time, as a distribution over workers. */
    public static final String LOOP_WALL = "netns.loop_wall";
    /** Measure: copy_net_ns request to the end of setup_net, lock wait included, us. */
    public static final String CREATE = "netns.create";
    /** Measure: last reference dropped to net_free, us. */
    public static final String CLEANUP = "netns.cleanup";
    /** Measure: netns per cleanup_net batch. */
    public static final String CLEANUP_BATCH = "netns.cleanup_batch";
    /** Measure: a cleanup_net run, from its batch taken off cleanup_list to the end of its rcu_barrier, us. */
    public static final String CLEANUP_RUN = "netns.cleanup_run";

    @Override
    public List<String> measures() {
        return List.of(LOOP_WALL, CREATE, CLEANUP, CLEANUP_BATCH, CLEANUP_RUN);
    }

    /** The lifecycle, its locks, RCU and socket teardown: no uevent, proc or netlink key (no uevent is sent). */
    @Override
    public Set<String> usedModelKeys() {
        return Set.of("netns", "sockets", "sock-inuse", "rcu", "costs.mutex-handoff", "costs.netns");
    }

    @Override
    public DesignRunner runner(double scale) {
        return new NetnsChurnRun(this, scale);
    }

    @Override
    public String shape(double scale) {
        long n = scaledIterations(scale);
        return workers + " workers x " + n + (n == 1 ? " iteration" : " iterations") + " (after " + scaledWarmup(scale)
                + " warm-up)";
    }

    /**
     * Each worker (its actor, recorders, the netns it holds) times its measured bytes, plus the netns a
     * cleanup batch still holds: assumed at most {@link PopulationBytes#CHURN_BACKLOG_PER_WORKER} per worker
     * (cleanup_net takes every netns queued when it starts; a cleanup slower than that holds more).
     */
    @Override
    public long populationHeapBytes(double scale, int cpus) {
        long backlog =
                Math.min(workers * scaledIterations(scale), (long) workers * PopulationBytes.CHURN_BACKLOG_PER_WORKER);
        return workers * PopulationBytes.CHURN_WORKER_BYTES + backlog * PopulationBytes.netns(cpus);
    }

    /**
     * {@code warmup-iterations} scaled with {@code --scale} as the iterations are, at least 1 when any is
     * configured.
     *
     * @param scale the run's {@code --scale}
     * @return warm-up iterations per worker at that scale
     */
    public long scaledWarmup(double scale) {
        return warmupIterations == 0 ? 0 : Math.max(1, Math.round(warmupIterations * scale));
    }

    /**
     * @param scale the run's {@code --scale}
     * @return iterations per worker at that scale, rounded, at least 1
     */
    public long scaledIterations(double scale) {
        return Math.max(1, Math.round(iterations * scale));
    }
}
