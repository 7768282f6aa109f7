package org.netnslab.jmh;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.netnslab.machine.EventHeapHold;
import org.netnslab.machine.VirtualEngine;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The virtual engine's event queue and step against a bare discrete-event loop, in the classic hold model:
 * {@code pending} events are held; each step pops the earliest and pushes one back at its time plus a delay drawn
 * uniformly from 1 ns .. 1 ms by a fixed-seed {@link SplittableRandom}, so every benchmark sees the same delays and
 * the same heap shapes.
 *
 * <ul>
 *   <li>{@link #bareLoop}: the anchor, a 4-ary min-heap of primitive {@code long} times, nothing else (no
 *       sequence, no event object, no task).
 *   <li>{@link #eventHeap}: the same steps through the engine's {@code EventHeap}: a {@code VirtualEngine.Event}
 *       allocated per push, ordered by (time, insertion sequence).
 *   <li>{@link #engine}: the same steps through {@link VirtualEngine} itself, no actor system: each event's task
 *       is the hold (it calls {@link VirtualEngine#schedule} for the next one), and {@link VirtualEngine#runUntil}
 *       pops, advances the clock and runs it, with its per-step checks (other threads' work, runnables,
 *       quiescence tasks, the done condition, the watch) and the locks on the heap.
 * </ul>
 *
 * <p>Units: events per second, one thread; each invocation runs {@link #BATCH} events. The ratio of a method's
 * figure to {@link #bareLoop}'s at the same {@code pending} is the fraction of a bare loop's rate the engine keeps
 * ({@link JmhSummary} prints it).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class EngineLoopBenchmark {
    /** Events per invocation: enough to spread {@link VirtualEngine#runUntil}'s entry and exit thin. */
    static final int BATCH = 1000;

    private static final long SEED = 0x5eed_37L;
    private static final long MAX_DELAY_NANOS = 1_000_000;

    /** Events held at every step: a small and a large model. */
    @Param({"1000", "100000"})
    public int pending;

    private SplittableRandom random;
    private LongHeap bare;
    private EventHeapHold heap;
    private VirtualEngine virtual;
    private Hold hold;

    /** Fills the three queues with {@code pending} events each, from the same seed. */
    @Setup
    public void setUp() {
        random = new SplittableRandom(SEED);
        bare = new LongHeap();
        for (int i = 0; i < pending; i++) {
            bare.push(delay(random));
        }
        SplittableRandom r = new SplittableRandom(SEED);
        heap = new EventHeapHold();
        for (int i = 0; i < pending; i++) {
            heap.push(delay(r));
        }
        virtual = VirtualEngine.create();
        hold = new Hold(virtual, new SplittableRandom(SEED));
        for (int i = 0; i < pending; i++) {
            virtual.schedule(delay(hold.random), hold);
        }
    }

    /** Checks that the engine ran exactly the hold's events, then drops it from the registry of engines. */
    @TearDown
    public void tearDown() {
        virtual.unregister();
        if (virtual.eventsRun() != hold.ran) {
            throw new IllegalStateException(
                    "engine loop: the engine ran " + virtual.eventsRun() + " events, the hold counted " + hold.ran);
        }
    }

    private static long delay(SplittableRandom r) {
        return r.nextLong(1, MAX_DELAY_NANOS + 1);
    }

    /** @return the last popped time, ns (events per second) */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long bareLoop() {
        long now = 0;
        for (int i = 0; i < BATCH; i++) {
            now = bare.pop();
            bare.push(now + delay(random));
        }
        return now;
    }

    /** @return the last popped time, ns (events per second) */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long eventHeap() {
        long now = 0;
        for (int i = 0; i < BATCH; i++) {
            now = heap.popTime();
            heap.push(now + delay(random));
        }
        return now;
    }

    /**
     * @return the engine's clock, ns (events per second)
     * @throws VirtualEngine.Stalled never: the engine always holds {@code pending} events
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long engine() throws VirtualEngine.Stalled {
        long target = hold.ran + BATCH;
        virtual.runUntil(() -> hold.ran >= target, nanos -> {}, 1_000_000_000L);
        return virtual.now();
    }

    /** The engine's event task: counts itself and schedules the next event, as a timer that re-arms does. */
    private static final class Hold implements Runnable {
        private final VirtualEngine engine;
        private final SplittableRandom random;
        private long ran;

        Hold(VirtualEngine engine, SplittableRandom random) {
            this.engine = engine;
            this.random = random;
        }

        @Override
        public void run() {
            ran++;
            engine.schedule(delay(random), this);
        }
    }

    /** A 4-ary min-heap of primitive times (ns), the smallest at index 0; ties in any order. */
    private static final class LongHeap {
        private long[] times = new long[1024];
        private int size;

        void push(long t) {
            if (size == times.length) {
                times = Arrays.copyOf(times, size * 2);
            }
            int i = size++;
            while (i > 0) {
                int parent = (i - 1) >>> 2;
                if (t >= times[parent]) {
                    break;
                }
                times[i] = times[parent];
                i = parent;
            }
            times[i] = t;
        }

        long pop() {
            long first = times[0];
            long t = times[--size];
            int i = 0;
            while (true) {
                int c = (i << 2) + 1;
                if (c >= size) {
                    break;
                }
                int best = c;
                int end = Math.min(c + 4, size);
                for (int k = c + 1; k < end; k++) {
                    if (times[k] < times[best]) {
                        best = k;
                    }
                }
                if (t <= times[best]) {
                    break;
                }
                times[i] = times[best];
                i = best;
            }
            times[i] = t;
            return first;
        }
    }
}
