package org.netnslab.workload.churn;

import static org.netnslab.metrics.Invariants.Counter.LEAKED;
import static org.netnslab.metrics.Invariants.Counter.SOCK_INUSE_SUM;
import static org.netnslab.metrics.Invariants.Counter.USE_AFTER_FREE;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.design.Design;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.StandardPernetOps;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.run.CompletionTimes;
import org.netnslab.run.DesignResultBuilder;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
import org.netnslab.run.Phases;
import org.netnslab.run.RunFailure;

/**
 * Runs the {@code netns-churn} workload for one design: {@code workers} parallel loops creating and
 * dropping netns, then waits until every netns has reached net_free and checks the invariants.
 *
 * <p>Measures: {@link NetnsChurnWorkload#LOOP_WALL} (each worker's loop, s), {@link NetnsChurnWorkload#CREATE}
 * (request to the end of setup_net, lock wait included, us), {@link NetnsChurnWorkload#CLEANUP} (last
 * reference to net_free, us), {@link NetnsChurnWorkload#CLEANUP_BATCH} (netns per cleanup batch).
 * Throughput: netns lifecycles per second, from the start to the last net_free.
 *
 * @param w the workload
 * @param scale multiplies iterations per worker
 */
public record NetnsChurnRun(NetnsChurnWorkload w, double scale) implements DesignRunner {

    @Override
    public DesignResult run(Design design, DesignScope scope) throws RunFailure {
        long iterations = w.scaledIterations(scale);
        long warmup = w.scaledWarmup(scale) * w.workers();
        double warmupRate = 0;
        if (warmup > 0) {
            warmupRate = timedLoops(design, scope, w.scaledWarmup(scale), "warm-up", "warm-up");
        }
        if (!scope.machine().isVirtual() && iterations * w.workers() >= WARM_UP_FROM) {
            warmup += jitWarmUp(design, scope, iterations, warmupRate);
        }
        // the throughput counts lifecycles at net_free, so its series does too: the loops' own progress (creations)
        // ends long before the last net_free where the cleanup is held back
        CompletionTimes freedAt = new CompletionTimes(scope.machine()::nanoTime);
        LifecycleRecorder probe = new LifecycleRecorder(freedAt::completed);
        long start = scope.machine().nanoTime();
        Loops loops = loops(design, scope, iterations, probe, COUNTED, COUNTED);
        long end = scope.machine().nanoTime();
        double wallS = (end - start) / 1e9;
        RcuDomain.Stats rcu = scope.<NamespaceSupervisor.Command, RcuDomain.Stats>ask(
                loops.supervisor(), NamespaceSupervisor.GetRcuStats::new, "reading RCU stats");
        int live = scope.<NamespaceSupervisor.Command, Integer>ask(
                loops.supervisor(), NamespaceSupervisor.CountLive::new, "counting live netns");

        long lifecycles = iterations * w.workers();
        long failures = loops.failures().sum();
        // a netns still alive is one that never reached net_free: count it once
        long leaked = Math.max(live, lifecycles - failures - probe.freed());
        DesignResultBuilder result = new DesignResultBuilder(design)
                .measure(NetnsChurnWorkload.LOOP_WALL, loops.loopWall().merged())
                .measure(NetnsChurnWorkload.CREATE, probe.create())
                .measure(NetnsChurnWorkload.CLEANUP, probe.cleanup())
                .measure(NetnsChurnWorkload.CLEANUP_BATCH, probe.batches())
                .measure(NetnsChurnWorkload.CLEANUP_RUN, probe.cleanupRuns())
                .counter("warmup_lifecycles", warmup)
                .counter("netns_freed", probe.freed())
                .counter("create_failures", failures)
                .counter("cleanup_batches", probe.batchCount())
                .counter("cleanup_off_cpu_us", probe.cleanupOffCpuNanos() / 1000)
                .counter("grace_periods", rcu.gracePeriods())
                .counter("synchronize_rcu", rcu.synchronizeCalls())
                .counter("rcu_barrier", rcu.barrierCalls())
                .counter("rcu_callbacks", rcu.callbacksInvoked());
        probe.faultCounters(design.model().faults()).forEach(result::counter);
        return result.invariants(Invariants.NONE
                        .with(USE_AFTER_FREE, probe.useAfterFreeCount())
                        .with(LEAKED, leaked)
                        .with(SOCK_INUSE_SUM, probe.sockInuseSum()))
                .throughputSeries(freedAt.series(start, end))
                .build(lifecycles, "netns lifecycles", wallS);
    }

    /** The counted loops' phase. */
    static final String COUNTED = "loops";

    /** A JIT warm-up pass's intended length, s: long enough that spawning its workers is a small part of it. */
    static final double WARM_UP_PASS_S = 0.5;

    /**
     * The counted lifecycles from which a live run warms the JIT up first: fewer make a counted phase too short for a
     * rate (the run's note says so) and are a check or a test, not a measurement.
     */
    static final long WARM_UP_FROM = 1000;

    /** The JIT warm-up's time at most, s, and its passes at most. */
    static final double WARM_UP_MAX_S = 6;

    static final int WARM_UP_PASSES = 40;

    /**
     * The JIT warm-up ends after this many passes in a row during which the JIT compiled for under {@link #JIT_QUIET}
     * of the pass's time (where the JVM cannot say, whose rate rose by under that share).
     */
    static final int SETTLED_PASSES = 2;

    static final double JIT_QUIET = 0.10;

    /**
     * The warm-up a JVM runs before a quiet JIT may end it, s: C2 pauses between bursts while invocation counts
     * build, so two quiet passes in the first seconds say little. Counted over the JVM's life ({@link #warmedNanos}),
     * since the compiled code is the JVM's: a later design run or replicate needs only the quiet passes.
     */
    static final double WARM_UP_MIN_S = 4;

    /** The JIT warm-up this JVM has run so far, ns: the JIT's state is the JVM's, not a design run's. */
    private static final java.util.concurrent.atomic.AtomicLong warmedNanos =
            new java.util.concurrent.atomic.AtomicLong();

    /**
     * Live only, and from {@link #WARM_UP_FROM} counted lifecycles: untimed passes of the loops, each on a supervisor of
     * its own and left out of every figure, until the JIT has settled ({@link #SETTLED_PASSES} quiet passes, after
     * {@link #WARM_UP_MIN_S} in the JVM), at most {@link #WARM_UP_MAX_S}. A lifecycle is a few us of Akka messages when no cost sleeps, and a fresh JVM runs its
     * first few hundred thousand mostly before C2 has compiled them: on 2 cores, 0.5-s passes rose from 4k to 46k
     * lifecycles/s over the first 3.7 s and to 90k-160k by 6 s, C2 compiling through nearly all of that time, so
     * without this the counted phase of a first run measures the JIT. The rate alone is no sign: it stays flat for
     * passes while C2 works. Each pass is sized from the best rate so far to last about {@link #WARM_UP_PASS_S}, from
     * 1 to the counted iterations per worker. None runs when one iteration per worker outlasts that, as where the
     * costs sleep (a 105 ms exit a netns): the modelled costs set that rate, not the JIT; nor one that would end past
     * {@link #WARM_UP_MAX_S}.
     *
     * @param iterations the counted iterations per worker (a pass's most)
     * @param rate the configured warm-up's rate, lifecycles/s; 0 when there was none
     * @return the lifecycles the passes ran
     */
    private long jitWarmUp(Design design, DesignScope scope, long iterations, double rate) throws RunFailure {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean jitTimed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long ran = 0;
        long start = System.nanoTime();
        double best = rate;
        int quiet = 0;
        double minS = Math.max(0, WARM_UP_MIN_S - warmedNanos.get() / 1e9);
        for (int pass = 0;
                pass < WARM_UP_PASSES && (quiet < SETTLED_PASSES || (System.nanoTime() - start) / 1e9 < minS);
                pass++) {
            long perWorker = Math.max(1, Math.min(iterations, Math.round(best * WARM_UP_PASS_S / w.workers())));
            double expectedS = best > 0 ? perWorker * w.workers() / best : 0;
            if ((best > 0 && w.workers() / best > WARM_UP_PASS_S)
                    || (System.nanoTime() - start) / 1e9 + expectedS > WARM_UP_MAX_S) {
                break; // the modelled costs set the rate (one iteration per worker outlasts a pass), or out of time
            }
            long compiledMs = jitTimed ? jit.getTotalCompilationTime() : 0;
            double next = timedLoops(design, scope, perWorker, "warm-up-" + (pass + 1), "JIT warm-up " + (pass + 1));
            double passMs = perWorker * w.workers() / next * 1e3; // the pass's time, from its rate
            boolean settled = jitTimed
                    ? jit.getTotalCompilationTime() - compiledMs < JIT_QUIET * passMs
                    : next < best * (1 + JIT_QUIET);
            quiet = settled ? quiet + 1 : 0;
            ran += perWorker * w.workers();
            best = Math.max(best, next);
        }
        warmedNanos.addAndGet(System.nanoTime() - start);
        return ran;
    }

    /**
     * @param name its actors' name (unique in the run)
     * @param label its phase, as progress shows it
     * @return the rate of one untimed set of loops, lifecycles/s (on the machine's clock; net_free included)
     */
    private double timedLoops(Design design, DesignScope scope, long iterations, String name, String label)
            throws RunFailure {
        long t0 = scope.machine().nanoTime();
        loops(design, scope, iterations, new LifecycleRecorder(), name, label);
        return iterations * w.workers() / Math.max(1e-9, (scope.machine().nanoTime() - t0) / 1e9);
    }

    /** What one set of loops leaves behind, once every netns it created has reached net_free. */
    private record Loops(
            ActorRef<NamespaceSupervisor.Command> supervisor, StripedRecorder loopWall, LongAdder failures) {}

    /**
     * Runs one set of loops on a supervisor of its own (actors named after {@code name}, progress shown as phase
     * {@code label}), then waits until every netns has reached
     * net_free: as long as the cleanup progresses (netns exited or freed), however long it takes.
     */
    private Loops loops(
            Design design, DesignScope scope, long iterations, LifecycleRecorder probe, String name, String label)
            throws RunFailure {
        ActorRef<NamespaceSupervisor.Command> supervisor = scope.spawn(
                NamespaceSupervisor.create(design.model(), StandardPernetOps.all(), probe), "supervisor-" + name);
        StripedRecorder loopWall = new StripedRecorder("s", 1e9);
        LongAdder progress = new LongAdder();
        LongAdder failures = new LongAdder();
        CountDownLatch done = new CountDownLatch(w.workers());
        List<Behavior<ChurnWorker.Command>> behaviors = new ArrayList<>();
        for (int k = 0; k < w.workers(); k++) {
            behaviors.add(ChurnWorker.create(
                    supervisor,
                    w,
                    iterations,
                    1 + k * iterations,
                    loopWall,
                    progress,
                    failures,
                    design.model().costs().lifecycle().unshareProcess(),
                    design.model().costs().lifecycle().unshareUser(),
                    done::countDown));
        }
        List<ActorRef<ChurnWorker.Command>> workers = scope.spawnEach(behaviors, "churn-" + name);
        scope.phases()
                .run(
                        label,
                        () -> workers.forEach(x -> x.tell(ChurnWorker.Start.INSTANCE)),
                        done,
                        progress,
                        iterations * w.workers(),
                        null);
        // the counted loops' last net_free can come seconds after their last creation (a barrier per exit)
        Phases.Waiting freeing = label.equals(COUNTED)
                ? scope.phases().waiting("net_free", iterations * w.workers(), probe::freed)
                : null;
        awaitFreedWhileProgressing(supervisor, scope);
        if (freeing != null) {
            freeing.done();
        }
        workers.forEach(x -> x.tell(ChurnWorker.Stop.INSTANCE));
        return new Loops(supervisor, loopWall, failures);
    }

    /**
     * Waits for every net_free as long as the model progresses ({@link DesignScope#completesWhileProgressing}:
     * a slow cleanup, 10 s exit costs and grace periods, is waited for). A netns still alive when the model
     * has stopped progressing for {@code netns-lab.run.ask-timeout} is left to the leak count ({@code leaked}
     * counts it through CountLive), not a run failure: a netns nothing will ever dismantle is what that
     * invariant is for.
     *
     * @throws RunFailure when the supervisor fails or the wait is interrupted
     */
    private static void awaitFreedWhileProgressing(ActorRef<NamespaceSupervisor.Command> supervisor, DesignScope scope)
            throws RunFailure {
        scope.completesWhileProgressing(
                scope.<NamespaceSupervisor.Command, Done>request(supervisor, NamespaceSupervisor.AwaitAllFreed::new),
                "waiting for every net_free");
    }
}
