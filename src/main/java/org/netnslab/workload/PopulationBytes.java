package org.netnslab.workload;

/**
 * Heap bytes per object of a workload's population, for the up-front heap check
 * ({@link Workload#populationHeapBytes}). Measured with {@code HeapFigures} (src/test): heap used after a full GC
 * with every object alive, in scenarios of growing populations in virtual execution; each figure is the
 * difference between two populations over the objects added, rounded up (docs/scale-and-heap.md).
 */
public final class PopulationBytes {
    private PopulationBytes() {}

    /** One netns: its actor, uevent socket, counters and references, less its per-CPU slots, B. */
    public static final long NETNS_BYTES = 2_100;
    /** One per-CPU slot of a netns's sock_inuse counter (an int of an AtomicIntegerArray), B. */
    public static final long PER_CPU_BYTES = 4;

    /**
     * @param cpus per-CPU slots of its counters
     * @return one netns with its per-CPU slots, B
     */
    public static long netns(int cpus) {
        return NETNS_BYTES + (long) cpus * PER_CPU_BYTES;
    }
    /** One uevent listener: its socket, receive queue, stream and check, B. */
    public static final long LISTENER_BYTES = 4_300;
    /** One injector: its actor, its targets and its recorders, B. */
    public static final long INJECTOR_BYTES = 20_000;
    /** One churn worker: its actor, recorders and the netns it holds, B. */
    public static final long CHURN_WORKER_BYTES = 5_600;
    /** Netns per churn worker a cleanup batch is assumed to hold at most (not measured: the cleanup's lag). */
    public static final long CHURN_BACKLOG_PER_WORKER = 4;
    /** One generated proc connector event in the run's event list, B (sized, not measured: a small record). */
    public static final long PROC_EVENT_BYTES = 64;
    /** One proc event queued for a listener (skb and its message), B (sized, not measured). */
    public static final long PROC_QUEUED_BYTES = 160;
    /** Events a proc listener's receive queue holds at most: the default 56 MiB sk_rcvbuf / 896 B truesize. */
    public static final long PROC_QUEUE_MAX = 65_536;
}
