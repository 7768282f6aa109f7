package org.netnslab.metrics;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.fault.FaultSettings;
import org.netnslab.fault.FaultSwitch;
import org.netnslab.netns.LifecycleProbe;

/**
 * Records what the netns lifecycle model reports: {@code netns.create} and {@code netns.cleanup}
 * latencies (ns), cleanup batch sizes (netns), use-after-free accesses and the sock_inuse sums found
 * at free, and the faults the fault switches injected. Thread-safe: called from any actor.
 */
public final class LifecycleRecorder implements LifecycleProbe {
    private final StripedRecorder create = new StripedRecorder();
    private final StripedRecorder cleanup = new StripedRecorder();
    private final StripedRecorder batches = new StripedRecorder("netns", 1.0);
    private final StripedRecorder runs = new StripedRecorder();
    private final LongAdder offCpu = new LongAdder();
    private final LongAdder useAfterFree = new LongAdder();
    private final LongAdder sockInuseSum = new LongAdder();
    private final LongAdder freed = new LongAdder();
    private final LongAdder batchCount = new LongAdder();
    private final LongAdder exited = new LongAdder();
    private final Map<FaultSwitch, LongAdder> faults = new EnumMap<>(FaultSwitch.class);
    private final Runnable onFreed;

    /** A recorder with every count at 0. */
    public LifecycleRecorder() {
        this(() -> {});
    }

    /**
     * A recorder with every count at 0 that also runs {@code onFreed} after each net_free is counted, on the
     * reporting actor's thread (e.g. a phase's progress and its latch).
     *
     * @param onFreed run once per netns freed; must not block
     */
    public LifecycleRecorder(Runnable onFreed) {
        this.onFreed = onFreed;
        for (FaultSwitch s : FaultSwitch.values()) {
            faults.put(s, new LongAdder()); // filled once: reads and adds after this need no lock
        }
    }

    @Override
    public void created(long nanos) {
        create.record(nanos);
    }

    @Override
    public void netFreed(long nanosSinceLastRef, int sockInuseAtFree) {
        cleanup.record(nanosSinceLastRef);
        sockInuseSum.add(sockInuseAtFree);
        freed.increment();
        onFreed.run();
    }

    @Override
    public void cleanupBatch(int size) {
        batches.record(size);
        batchCount.increment();
    }

    @Override
    public void cleanupRun(long wallNanos, long offCpuNanos) {
        runs.record(wallNanos);
        offCpu.add(offCpuNanos);
    }

    @Override
    public void useAfterFree() {
        useAfterFree.increment();
    }

    @Override
    public void netnsExited() {
        exited.increment();
    }

    @Override
    public void faultInjected(FaultSwitch which) {
        faults.get(which).increment();
    }

    /**
     * @param which a fault switch
     * @return faults it injected so far (counts)
     */
    public long faults(FaultSwitch which) {
        return faults.get(which).sum();
    }

    /**
     * The result counter of the listeners {@code faults.listener} killed (uevent-injection and soak runs), which the
     * verdict reads: their messages after it were not checked.
     */
    public static final String LISTENERS_FAILED_BY_FAULT = "listeners_failed_by_fault";

    /**
     * The result counters of the switches that are on ({@code faults_netns_actor}, ...), each the faults it fired,
     * so that a run with a switch on shows whether it fired (0: none of its messages came); none when all are off,
     * so a run without faults has the counters it always had.
     *
     * @param settings the design's fault switches
     * @return counter name to count, in {@link FaultSwitch} order
     */
    public Map<String, Long> faultCounters(FaultSettings settings) {
        Map<String, Long> counters = faultCounters();
        for (FaultSwitch s : FaultSwitch.values()) {
            if (settings.every(s) == 0) {
                counters.remove(counterName(s));
            }
        }
        return counters;
    }

    /** @return every switch's result counter, on or off (a soak reports all four), in {@link FaultSwitch} order */
    public Map<String, Long> faultCounters() {
        Map<String, Long> counters = new LinkedHashMap<>();
        for (FaultSwitch s : FaultSwitch.values()) {
            counters.put(counterName(s), faults(s));
        }
        return counters;
    }

    /** @return a switch's result counter, e.g. {@code faults_netns_actor} */
    private static String counterName(FaultSwitch s) {
        return "faults_" + s.name().toLowerCase(Locale.ROOT);
    }

    /** @return netns whose exits have run so far */
    public long exited() {
        return exited.sum();
    }

    /** @return setup_net latencies, lock wait included (read after the netns are all created) */
    public LatencyRecorder create() {
        return create.merged();
    }

    /** @return last-reference-to-net_free latencies (read after every netns is freed) */
    public LatencyRecorder cleanup() {
        return cleanup.merged();
    }

    /** @return cleanup batch sizes, in netns */
    public LatencyRecorder batches() {
        return batches.merged();
    }

    /** @return cleanup_net runs' times (us) */
    public LatencyRecorder cleanupRuns() {
        return runs.merged();
    }

    /** @return the cleanup_net runs' time off a CPU, summed, ns */
    public long cleanupOffCpuNanos() {
        return offCpu.sum();
    }

    /** @return accesses to freed counters so far */
    public long useAfterFreeCount() {
        return useAfterFree.sum();
    }

    /** @return the sum of sock_inuse counters at their free */
    public long sockInuseSum() {
        return sockInuseSum.sum();
    }

    /** @return netns that reached net_free */
    public long freed() {
        return freed.sum();
    }

    /** @return cleanup batches run */
    public long batchCount() {
        return batchCount.sum();
    }
}
