package org.netnslab.machine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import akka.actor.Cancellable;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AskPattern;
import akka.actor.typed.javadsl.Behaviors;
import akka.dispatch.ExecutionContexts;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.Assert;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;
import scala.concurrent.ExecutionContext;
import scala.concurrent.duration.FiniteDuration;

/**
 * Checks the virtual machine (engine, Akka dispatch and scheduler, {@link Cpus}, {@link Mutex}) against
 * exact results for closed queueing networks, with actors doing the work ({@link ClosedLoop}): N tasks
 * that think Z on the CPUs, lock a mutex, compute S inside, unlock. Deterministic costs reach the
 * asymptotic bounds exactly; exponential costs must match exact Mean Value Analysis.
 */
public class ClosedNetworkTest extends JUnitSuite {
    private static final long NO_HANDOFF = 0;

    private static ClosedLoop.Record run(
            int cpus,
            double jitter,
            long seed,
            long handoff,
            int tasks,
            boolean lock,
            ClosedLoop.CostsFactory costs,
            int completions,
            int warmup)
            throws Exception {
        return ClosedLoop.run(new ClosedLoop.Spec(
                new MachineSettings(cpus, jitter, seed), handoff, tasks, lock, costs, completions, warmup, false));
    }

    /**
     * Asserts that X = num / den completions per ns exactly in steady state. A deterministic closed network
     * is eventually periodic: find the shortest m (a multiple of {@code step}) such that every window of m
     * completions after {@code warmup} lasts the same time, then require m / span = num / den exactly.
     *
     * @return the period found, in completions
     */
    private static int assertExactThroughput(
            String what, ClosedLoop.Record rec, int warmup, int step, long num, long den) {
        for (int m = step; warmup + 2 * m < rec.count(); m += step) {
            long span = rec.completion(warmup + m) - rec.completion(warmup);
            boolean periodic = true;
            for (int k = warmup + 1; k + m < rec.count() && periodic; k++) {
                periodic = rec.completion(k + m) - rec.completion(k) == span;
            }
            if (periodic) {
                assertEquals(
                        what + ": " + m + " completions (the period) took " + span + " ns, expected " + m + " * " + den
                                + " / " + num,
                        (long) m * den,
                        span * num);
                return m;
            }
        }
        Assert.fail(what + ": no periodic steady state after completion #" + warmup);
        return 0;
    }

    /** 1. P CPUs, N tasks, no lock, deterministic: X = min(N, P) / (S + Z) exactly. */
    @Test
    public void cpusAloneGiveMinOfTasksAndCpusOverCycle() throws Exception {
        long s = 2_000;
        long z = 3_000;
        int[][] cases = {{4, 1}, {4, 2}, {4, 4}, {3, 3}, {2, 4}, {2, 5}, {3, 7}, {1, 3}};
        for (int[] c : cases) {
            int p = c[0];
            int n = c[1];
            ClosedLoop.Record rec = run(p, 0, 1, NO_HANDOFF, n, false, ClosedLoop.fixed(z, s), 4_000, 0);
            int warmup = 100 * n;
            // N > P: the FIFO queue makes longer periods (14 completions at P=2 N=5), still exactly P / (S + Z)
            assertExactThroughput("P=" + p + " N=" + n, rec, warmup, 1, Math.min(n, p), s + z);
        }
    }

    /**
     * 2. One mutex, P >= N, deterministic, no hand-off: X = min(N / (S + Z), 1 / S) exactly, and the mean
     * lock response time R = N / X - Z (Little's law over the loop).
     */
    @Test
    public void oneMutexReachesBothAsymptotesExactly() throws Exception {
        long s = 1_000;
        long z = 4_000; // N* = (S + Z) / S = 5 tasks saturate the lock
        for (int n = 1; n <= 8; n++) {
            int warmup = 50 * n;
            ClosedLoop.Record rec = run(8, 0, 1, NO_HANDOFF, n, true, ClosedLoop.fixed(z, s), 5_000, warmup);
            // X = num / den per ns
            boolean saturated = n * s >= s + z;
            long num = saturated ? 1 : n;
            long den = saturated ? s : s + z;
            assertExactThroughput("N=" + n, rec, warmup, 1, num, den);
            double r = (double) n * den / num - z;
            assertEquals("R at N=" + n, r, rec.meanResponse(), 1e-9);
        }
    }

    /**
     * Exact MVA for a closed network of one queueing station (mean service s) and one delay station (mean
     * think z): returns {X(n), R(n)} for n = 1..nMax.
     */
    static double[][] mva(double s, double z, int nMax) {
        double[][] xr = new double[nMax + 1][];
        double q = 0; // mean queue length at the station with n - 1 tasks
        for (int n = 1; n <= nMax; n++) {
            double r = s * (1 + q); // arrival theorem: an arriving task sees the (n - 1)-task queue
            double x = n / (r + z);
            q = x * r; // Little at the station
            xr[n] = new double[] {x, r};
        }
        return xr;
    }

    /** The MVA recursion itself against the machine-repairman closed form for small N. */
    @Test
    public void mvaMatchesTheRepairmanFormula() {
        double s = 1;
        double z = 3;
        double[][] xr = mva(s, z, 2);
        assertEquals(1 / 4.0, xr[1][0], 1e-12);
        // N = 2: states by queue length k with p(k) ~ (z/s)^-k * 2!/(2-k)!: 1, 2/3, 2/9; X = P(busy) / s
        double p0 = 1 / (1 + 2 / 3.0 + 2 / 9.0);
        assertEquals((1 - p0) / s, xr[2][0], 1e-12);
        assertEquals(2 / xr[2][0] - z, xr[2][1], 1e-12);
    }

    /**
     * 3. Exponential S and Z (drawn in the task actors), one mutex, P >= N: X and R within 2% of exact MVA
     * for N = 1..8 over 200k completions each.
     */
    @Test
    public void exponentialTimesMatchMeanValueAnalysis() throws Exception {
        double s = 10_000;
        double z = 40_000;
        int nMax = 8;
        double[][] exact = mva(s, z, nMax);
        StringBuilder table = new StringBuilder();
        for (int n = 1; n <= nMax; n++) {
            int warmup = 1_000;
            ClosedLoop.Record rec =
                    run(nMax, 0, 1, NO_HANDOFF, n, true, ClosedLoop.exponential(z, s, 1234 + n), 200_000, warmup);
            double x = rec.throughput(warmup);
            double r = rec.meanResponse();
            table.append(String.format(
                    "N=%d X=%.6g (MVA %.6g, %+.2f%%) R=%.6g (MVA %.6g, %+.2f%%)%n",
                    n,
                    x * 1e9,
                    exact[n][0] * 1e9,
                    100 * (x / exact[n][0] - 1),
                    r,
                    exact[n][1],
                    100 * (r / exact[n][1] - 1)));
            assertEquals("X at N=" + n + "\n" + table, 1, x / exact[n][0], 0.02);
            assertEquals("R at N=" + n + "\n" + table, 1, r / exact[n][1], 0.02);
        }
    }

    /** 4. Hand-off cost H, N >= 2 saturated tasks on one mutex: X = 1 / (S + H) exactly, R = N / X - Z. */
    @Test
    public void handoffCostAddsToEveryContendedService() throws Exception {
        long s = 1_000;
        long h = 250;
        long z = 500; // < S + H: a task is back before the other's turn ends, so the lock never idles
        for (int n = 2; n <= 4; n++) {
            int warmup = 50 * n;
            ClosedLoop.Record rec = run(4, 0, 1, h, n, true, ClosedLoop.fixed(z, s), 3_000, warmup);
            assertExactThroughput("N=" + n, rec, warmup, 1, 1, s + h);
            assertEquals("R at N=" + n, n * (s + h) - z, rec.meanResponse(), 1e-9);
        }
    }

    /** 5. Same seed (jitter 0.1): identical completion times; another seed: different ones. */
    @Test
    public void jitteredRunsAreAFunctionOfTheSeed() throws Exception {
        long[] a = run(2, 0.1, 42, 100, 3, true, ClosedLoop.fixed(3_000, 1_000), 20_000, 0)
                .completions();
        long[] b = run(2, 0.1, 42, 100, 3, true, ClosedLoop.fixed(3_000, 1_000), 20_000, 0)
                .completions();
        long[] c = run(2, 0.1, 43, 100, 3, true, ClosedLoop.fixed(3_000, 1_000), 20_000, 0)
                .completions();
        assertEquals(20_000, a.length);
        assertArrayEquals(a, b);
        assertFalse("another seed gives the same times", Arrays.equals(a, c));
        // the jitter is in effect: the unjittered run differs too
        long[] d = run(2, 0, 42, 100, 3, true, ClosedLoop.fixed(3_000, 1_000), 20_000, 0)
                .completions();
        assertFalse(Arrays.equals(a, d));
    }

    /** 6. One CPU, two tasks: CPU steps run in request order, so the tasks' steps alternate. */
    @Test
    public void oneCpuRunsStepsInRequestOrder() throws Exception {
        ClosedLoop.Record rec = ClosedLoop.run(new ClosedLoop.Spec(
                new MachineSettings(1, 0, 1), NO_HANDOFF, 2, false, ClosedLoop.fixed(300, 200), 4, 0, true));
        assertEquals(
                List.of(
                        "A think done @300", // A asked first (spawned first); B's think waits for the CPU
                        "B think done @600",
                        "A serve done @800", // A asked at 300, while B's think ran
                        "B serve done @1000",
                        "A think done @1300",
                        "B think done @1600",
                        "A serve done @1800",
                        "B serve done @2000"),
                rec.steps);
    }

    /** The run queue itself is FIFO with several steps waiting (where LIFO would differ). */
    @Test
    public void runQueueIsFifo() throws Exception {
        VirtualEngine engine = VirtualEngine.create();
        try {
            Cpus cpus = new FifoCpus(engine, 1);
            List<String> done = new ArrayList<>();
            cpus.run(100, () -> done.add("a@" + engine.now()));
            cpus.run(10, () -> done.add("b@" + engine.now()));
            cpus.run(20, () -> done.add("c@" + engine.now()));
            cpus.run(30, () -> done.add("d@" + engine.now()));
            assertEquals(3, cpus.queued());
            engine.runUntil(() -> done.size() == 4, t -> {}, 1_000_000_000L);
            assertEquals(List.of("a@100", "b@110", "c@130", "d@160"), done);
            assertEquals(160, cpus.counters().busyNanos());
        } finally {
            engine.unregister();
        }
    }

    /** Two tasks wait on a mutex: they are granted it in lock order, each after the hand-off. */
    @Test
    public void mutexGrantsInLockOrderAfterHandoff() throws Exception {
        VirtualEngine engine = VirtualEngine.create();
        try {
            Mutex mutex = new Mutex(engine, "m", 50);
            List<String> log = new ArrayList<>();
            mutex.lock(() -> log.add("a@" + engine.now()));
            mutex.lock(() -> log.add("b@" + engine.now()));
            mutex.lock(() -> log.add("c@" + engine.now()));
            engine.schedule(1_000, mutex::unlock);
            engine.schedule(2_000, mutex::unlock);
            engine.runUntil(() -> log.size() == 3, t -> {}, 1_000_000_000L);
            assertEquals(List.of("a@0", "b@1050", "c@2050"), log);
            assertEquals(2, mutex.contended());
        } finally {
            engine.unregister();
        }
    }

    private record Go(int n, ActorRef<Long> replyTo) {}

    private static Behavior<Object> pinger() {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
            Machine m = Machine.get(ctx.getSystem());
            final Go[] go = new Go[1];
            final int[] left = new int[1];
            return Behaviors.receiveMessage(msg -> {
                if (msg instanceof Go g) {
                    go[0] = g;
                    left[0] = g.n();
                    timers.startSingleTimer("t", "tick", Duration.ofNanos(1500));
                } else if ("tick".equals(msg)) {
                    if (--left[0] == 0) {
                        go[0].replyTo().tell(m.nanoTime());
                    } else {
                        m.compute(700, () -> ctx.getSelf().tell("computed"));
                    }
                } else if ("computed".equals(msg)) {
                    timers.startSingleTimer("t", "tick", Duration.ofNanos(1500));
                }
                return Behaviors.same();
            });
        }));
    }

    /** Akka timers and CPU steps add up in simulated ns: n timers of 1500 and n - 1 steps of 700. */
    @Test
    public void timersAndComputeRunInSimulatedNanoseconds() throws Exception {
        ActorSystem<Object> sys = VirtualSystem.create(pinger(), "v", ConfigFactory.load());
        try {
            Machine m = Machine.get(sys);
            m.configure(new MachineSettings(2, 0, 1), 0);
            long t0 = m.nanoTime();
            int n = 200_000;
            CompletableFuture<Long> f = AskPattern.<Object, Long>ask(
                            sys, rt -> new Go(n, rt), Duration.ofSeconds(10_000), sys.scheduler())
                    .toCompletableFuture();
            m.engine().runUntil(f::isDone, t -> {}, 5_000_000_000L);
            assertEquals((long) n * 1500 + (long) (n - 1) * 700, f.get() - t0);
        } finally {
            ClosedLoop.terminate(sys);
        }
    }

    private static VirtualScheduler scheduler(VirtualEngine engine) {
        return new VirtualScheduler(
                ConfigFactory.parseMap(Map.of("netns-lab.machine.engine-id", engine.id())), null, null);
    }

    /** A cancelled scheduleOnce neither runs nor moves the clock: the run ends at the other timer's time. */
    @Test
    public void cancelledTimerDoesNotMoveTheClock() throws Exception {
        VirtualEngine engine = VirtualEngine.create();
        try {
            VirtualScheduler scheduler = scheduler(engine);
            ExecutionContext ec = ExecutionContexts.fromExecutor(engine::execute);
            List<String> fired = new ArrayList<>();
            Cancellable late = scheduler.scheduleOnce(
                    FiniteDuration.create(10_000, TimeUnit.NANOSECONDS), () -> fired.add("late"), ec);
            scheduler.scheduleOnce(FiniteDuration.create(3_000, TimeUnit.NANOSECONDS), () -> fired.add("early"), ec);
            assertTrue(late.cancel());
            assertTrue(late.isCancelled());
            assertFalse("a second cancel reports it was already cancelled", late.cancel());
            // the condition never holds: the engine runs all it has, then reports the stall
            try {
                engine.runUntil(() -> false, t -> {}, 20_000_000L);
                Assert.fail("expected a stall");
            } catch (VirtualEngine.Stalled expected) {
                // nothing left to run
            }
            assertEquals(List.of("early"), fired);
            assertEquals(3_000, engine.now());
        } finally {
            engine.unregister();
        }
    }

    /** A periodic timer fires at each interval and, once cancelled, neither fires nor moves the clock. */
    @Test
    public void cancelledPeriodicTimerStops() throws Exception {
        VirtualEngine engine = VirtualEngine.create();
        try {
            VirtualScheduler scheduler = scheduler(engine);
            ExecutionContext ec = ExecutionContexts.fromExecutor(engine::execute);
            List<Long> fired = new ArrayList<>();
            Cancellable[] c = new Cancellable[1];
            c[0] = scheduler.schedule(
                    FiniteDuration.create(500, TimeUnit.NANOSECONDS),
                    FiniteDuration.create(1_000, TimeUnit.NANOSECONDS),
                    () -> {
                        fired.add(engine.now());
                        if (fired.size() == 3) {
                            c[0].cancel();
                        }
                    },
                    ec);
            try {
                engine.runUntil(() -> false, t -> {}, 20_000_000L);
                Assert.fail("expected a stall");
            } catch (VirtualEngine.Stalled expected) {
                // nothing left to run
            }
            assertEquals(List.of(500L, 1_500L, 2_500L), fired);
            assertEquals(2_500, engine.now());
        } finally {
            engine.unregister();
        }
    }
}
