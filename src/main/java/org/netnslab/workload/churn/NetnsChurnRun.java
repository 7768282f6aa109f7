package org.netnslab.workload.churn;

import static org.netnslab.metrics.Invariants.Counter.LEAKED;
import static org.netnslab.metrics.Invariants.Counter.SOCK_INUSE_SUM;
import static org.netnslab.metrics.Invariants.Counter.USE_AFTER_FREE;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
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
import org.netnslab.run.DesignResultBuilder;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
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
        long warmup = w.scaledWarmup(scale);
        if (warmup > 0) {
            loops(design, scope, warmup, new LifecycleRecorder(), "warm-up");
        }
        LifecycleRecorder probe = new LifecycleRecorder();
        long iterations = w.scaledIterations(scale);
        long start = scope.machine().nanoTime();
        Loops loops = loops(design, scope, iterations, probe, "loops");
        double wallS = (scope.machine().nanoTime() - start) / 1e9;
        RcuDomain.Stats rcu = scope.<NamespaceSupervisor.Command, RcuDomain.Stats>ask(
                loops.supervisor(), NamespaceSupervisor.GetRcuStats::new, "reading RCU stats");
        int live = scope.<NamespaceSupervisor.Command, Integer>ask(
                loops.supervisor(), NamespaceSupervisor.CountLive::new, "counting live netns");

        long lifecycles = iterations * w.workers();
        long failures = loops.failures().sum();
        // a netns still alive is one that never reached net_free: count it once
        long leaked = Math.max(live, lifecycles - failures - probe.freed());
        return new DesignResultBuilder(design)
                .measure(NetnsChurnWorkload.LOOP_WALL, loops.loopWall().merged())
                .measure(NetnsChurnWorkload.CREATE, probe.create())
                .measure(NetnsChurnWorkload.CLEANUP, probe.cleanup())
                .measure(NetnsChurnWorkload.CLEANUP_BATCH, probe.batches())
                .measure(NetnsChurnWorkload.CLEANUP_RUN, probe.cleanupRuns())
                .counter("warmup_lifecycles", warmup * w.workers())
                .counter("netns_freed", probe.freed())
                .counter("create_failures", failures)
                .counter("cleanup_batches", probe.batchCount())
                .counter("cleanup_off_cpu_us", probe.cleanupOffCpuNanos() / 1000)
                .counter("grace_periods", rcu.gracePeriods())
                .counter("synchronize_rcu", rcu.synchronizeCalls())
                .counter("rcu_barrier", rcu.barrierCalls())
                .counter("rcu_callbacks", rcu.callbacksInvoked())
                .invariants(Invariants.NONE
                        .with(USE_AFTER_FREE, probe.useAfterFreeCount())
                        .with(LEAKED, leaked)
                        .with(SOCK_INUSE_SUM, probe.sockInuseSum()))
                .throughputSeries(loops.series())
                .build(lifecycles, "netns lifecycles", wallS);
    }

    /** What one set of loops leaves behind, once every netns it created has reached net_free. */
    private record Loops(
            ActorRef<NamespaceSupervisor.Command> supervisor,
            StripedRecorder loopWall,
            LongAdder failures,
            List<double[]> series) {}

    /**
     * Runs one set of loops on a supervisor of its own, then waits until every netns has reached
     * net_free: as long as the cleanup progresses (netns exited or freed), however long it takes.
     */
    private Loops loops(Design design, DesignScope scope, long iterations, LifecycleRecorder probe, String label)
            throws RunFailure {
        ActorRef<NamespaceSupervisor.Command> supervisor = scope.spawnModel(
                NamespaceSupervisor.create(design.model(), StandardPernetOps.all(), probe), "supervisor-" + label);
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
        List<ActorRef<ChurnWorker.Command>> workers = scope.spawnEach(behaviors, "churn-" + label);
        List<double[]> series = new ArrayList<>();
        scope.phases()
                .run(
                        label,
                        () -> workers.forEach(x -> x.tell(ChurnWorker.Start.INSTANCE)),
                        done,
                        progress,
                        iterations * w.workers(),
                        series);
        awaitFreedWhileProgressing(supervisor, scope);
        workers.forEach(x -> x.tell(ChurnWorker.Stop.INSTANCE));
        return new Loops(supervisor, loopWall, failures, series);
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
