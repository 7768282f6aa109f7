package org.netnslab.workload;

/**
 * Heap bytes per object of a workload's population, for the up-front heap check
 * ({@link Workload#populationHeapBytes}). Measured with the harness {@code HeapFigures} (src/test): real
 * scenarios of growing populations in virtual execution, heap used after a full GC (MemoryMXBean) at the end
 * of the warm-up phase, when every netns, listener and injector is alive; each figure is the difference
 * between two populations divided by the objects added. Machine: 2 cores, 23 GiB, OpenJDK 17, ParallelGC,
 * -Xmx4g, default machine.cpus (2 per-CPU slots), design kernel-6.9 / net-free-rwsem. Issue #12, after the
 * per-netns slimming (no TimerScheduler per netns, lazy socket and listener sets, one receive case per live
 * netns, no second child map in the groups, a primitive id map in the supervisor):
 * <pre>
 *   injection  2000 netns, 0 listeners, 1 injector        15,298,448 B
 *   injection  8000 netns, 0 listeners, 1 injector        27,793,416 B  -> 2,082 B per netns
 *   injection  8000 netns, 1 listener each, 1 injector    80,232,112 B  -> 6,555 B per listener
 *   injection  8000 netns, 4 listeners each, 1 injector  225,781,872 B  -> 6,187 B per listener
 *   injection  2000 netns, 0 listeners, 8000 injectors   172,462,080 B  -> 19,645 B per injector
 *   churn       100 workers x 2 iterations                27,761,672 B
 *   churn      2000 workers x 2 iterations                38,322,584 B  -> 5,558 B per worker
 * </pre>
 * (Issue #11, before: 2,623 B per netns, 6,796 and 5,837 B per listener, 19,735 B per injector, 5,769 B per
 * churn worker. The 2000-netns point moves by a few MB from run to run, so the per-netns difference is
 * noisy: the same two populations measured 1,540 B per netns before the slimming in another run; the
 * netns-scale scenario's own figure, over a million netns, is steadier: see docs/scale-and-heap.md, "Scale".)
 * After the listener socket became one stream stage (ReceiveQueue.opening, no sub-stream), re-measured three
 * times on the merged code (the same harness; the 2000-netns point read 11.69 MB in all three):
 * <pre>
 *   injection  2000 netns, 0 listeners, 1 injector        11,687,304 B
 *   injection  8000 netns, 0 listeners, 1 injector        26,539,464 B  -> 2,475 B per netns (64 slots: 2,219 B)
 *   injection  8000 netns, 1 listener each, 1 injector    60,433,032 B  -> 4,237 B per listener
 *   injection  8000 netns, 4 listeners each, 1 injector  151,451,016 B  -> 3,904 B per listener
 *   injection  2000 netns, 0 listeners, 8000 injectors   167,123,016 B  -> 19,431 B per injector
 *   churn       100 workers x 2 iterations                22,386,376 B
 *   churn      2000 workers x 2 iterations                32,458,472 B  -> 5,301 B per worker
 * </pre>
 * (the million-netns scenario, same code: 1,798 B per netns with 2 slots, 3,785 B per listener).
 * The figures below are those, rounded up; the netns figure stays at the earlier 2,100 B, between the
 * harness's noisy small-population difference and the million-netns figure.
 */
public final class PopulationBytes {
    private PopulationBytes() {}

    /** One netns: its actor, uevent socket, counters and references, less its per-CPU slots, B. */
    public static final long NETNS_BYTES = 2_100;
    /** One per-CPU slot of a netns's sock_inuse counter (an int of an AtomicIntegerArray), B. */
    public static final long PER_CPU_BYTES = 4;
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
