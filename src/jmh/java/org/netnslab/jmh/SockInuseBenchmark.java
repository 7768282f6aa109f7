package org.netnslab.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.netnslab.sockinuse.SockInuse;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-CPU socket-in-use counter of a netns ({@link SockInuse}, {@code net->core.sock_inuse},
 * v4.16): {@link #add} is sock_inuse_add (one atomic add on the caller's CPU slot, as sk_alloc and
 * __sk_free do), {@link #sum} is sock_inuse_get (the sum over every slot, as /proc/net/sockstat
 * reads it). {@code cpus} is the slot count: 2 (this machine) and 64 (the simulated machine of the
 * seed scenarios).
 *
 * <p>Units: ns per call, one thread. A freed counter would count a use-after-free: the benchmark
 * checks at the end that none happened.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class SockInuseBenchmark {
    /** Per-CPU slots of the counter (alloc_percpu over this many possible CPUs). */
    @Param({"2", "64"})
    public int cpus;

    private final AtomicLong useAfterFree = new AtomicLong();
    private SockInuse counter;
    private int cpu;

    /** alloc_percpu with {@code cpus} slots, each slot given a value so the sum is not trivially 0. */
    @Setup
    public void setUp() {
        counter = new SockInuse(cpus, useAfterFree::incrementAndGet);
        for (int c = 0; c < cpus; c++) {
            counter.add(c, 1);
        }
    }

    /** Fails the run if the counter saw an access after free: it never is freed here. */
    @TearDown(Level.Trial)
    public void check() {
        if (useAfterFree.get() != 0) {
            throw new IllegalStateException("sock_inuse: " + useAfterFree.get() + " use-after-free accesses");
        }
    }

    /**
     * sock_inuse_add(net, +1) then (-1) on the next CPU slot in turn, so the sum stays put.
     *
     * @return whether the counter was live (always true); ns per call covers two adds
     */
    @Benchmark
    public boolean add() {
        int c = cpu++;
        return counter.add(c, 1) & counter.add(c + 1, -1);
    }

    /** @return sock_inuse_get over {@code cpus} slots (ns per call) */
    @Benchmark
    public int sum() {
        return counter.get();
    }
}
