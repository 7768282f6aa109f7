package org.netnslab.workload.churn;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.AskPattern;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.design.Design;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.StandardPernetOps;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.run.Phases;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;

/**
 * Runs the {@code netns-churn} workload for one design: {@code workers} parallel loops creating and
 * dropping netns, then waits until every netns has reached net_free and checks the invariants.
 *
 * <p>Measures: {@code netns.loop_wall} (each worker's loop, s), {@code netns.create} (request to the
 * end of setup_net, lock wait included, us), {@code netns.cleanup} (last reference to net_free, us),
 * {@code netns.cleanup_batch} (netns per cleanup batch). Throughput: netns lifecycles per second,
 * from the start to the last net_free.
 */
public final class NetnsChurnRun {
  private final ActorSystem<?> system;
  private final RunSettings settings;
  private final Phases phases;
  private int runs;

  /**
   * @param system the actor system the model runs on
   * @param settings timeouts and progress interval
   * @param observer told of progress
   */
  public NetnsChurnRun(ActorSystem<?> system, RunSettings settings, RunObserver observer) {
    this.system = system;
    this.settings = settings;
    this.phases = new Phases(system, settings, observer);
  }

  /**
   * @param design the design to run
   * @param w the workload
   * @param scale multiplies iterations per worker
   * @return the design's result
   * @throws RunFailure when a phase stalls or the teardown does not finish
   */
  public DesignResult run(Design design, NetnsChurnWorkload w, double scale) throws RunFailure {
    if (w.warmupIterations() > 0) {
      loops(design, w, w.warmupIterations(), new LifecycleRecorder(), "warm-up");
    }
    LifecycleRecorder probe = new LifecycleRecorder();
    long iterations = w.scaledIterations(scale);
    long start = System.nanoTime();
    Loops loops = loops(design, w, iterations, probe, "loops");
    double wallS = (System.nanoTime() - start) / 1e9;
    ActorRef<NamespaceSupervisor.Command> supervisor = loops.supervisor();
    LongAdder failures = loops.failures();
    StripedRecorder loopWall = loops.loopWall();
    RcuDomain.Stats rcu = phases.await(AskPattern.<NamespaceSupervisor.Command, RcuDomain.Stats>ask(supervisor,
        NamespaceSupervisor.GetRcuStats::new, settings.askTimeout(), system.scheduler()), design.name(), "reading RCU stats");
    int live = phases.await(AskPattern.<NamespaceSupervisor.Command, Integer>ask(supervisor,
        NamespaceSupervisor.CountLive::new, settings.askTimeout(), system.scheduler()), design.name(), "counting live netns");

    Map<String, LatencyRecorder> measures = new LinkedHashMap<>();
    measures.put(NetnsChurnWorkload.LOOP_WALL, loopWall.merged());
    measures.put("netns.create", probe.create());
    measures.put("netns.cleanup", probe.cleanup());
    measures.put("netns.cleanup_batch", probe.batches());
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("netns_freed", probe.freed());
    counters.put("create_failures", failures.sum());
    counters.put("cleanup_batches", probe.batchCount());
    counters.put("grace_periods", rcu.gracePeriods());
    counters.put("synchronize_rcu", rcu.synchronizeCalls());
    counters.put("rcu_barrier", rcu.barrierCalls());
    counters.put("rcu_callbacks", rcu.callbacksInvoked());
    long lifecycles = iterations * w.workers();
    long leaked = live + (lifecycles - failures.sum() - probe.freed());
    return new DesignResult(design.name(), design.strategies(), measures, lifecycles / wallS, "netns lifecycles", wallS,
        new Invariants(0, 0, 0, 0, 0, 0, probe.useAfterFreeCount(), leaked, probe.sockInuseSum()), counters,
        loops.series());
  }

  /** What one set of loops leaves behind, once every netns it created has reached net_free. */
  private record Loops(ActorRef<NamespaceSupervisor.Command> supervisor, StripedRecorder loopWall, LongAdder failures,
      List<double[]> series) {}

  /**
   * Waits until every netns has reached net_free. The cleanup may legitimately take longer than one
   * ask timeout (4000 netns with 100 ms of simulated exit work each), so it fails only when an
   * ask timeout passes with no netns exited or freed.
   */
  private void awaitAllFreed(Design design, ActorRef<NamespaceSupervisor.Command> supervisor, LifecycleRecorder probe)
      throws RunFailure {
    long freedBefore = -1;
    while (true) {
      long freed = probe.freed() + probe.exited();
      try {
        AskPattern.<NamespaceSupervisor.Command, Done>ask(supervisor, NamespaceSupervisor.AwaitAllFreed::new,
            settings.askTimeout(), system.scheduler()).toCompletableFuture().get();
        return;
      } catch (java.util.concurrent.ExecutionException e) {
        if (!(e.getCause() instanceof java.util.concurrent.TimeoutException) || freed == freedBefore) {
          throw new RunFailure(design.name() + ": waiting for every net_free failed after " + probe.freed()
              + " net_free(s), no progress in the last " + settings.askTimeout().toSeconds() + " s: " + e.getCause(), e);
        }
        freedBefore = freed;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RunFailure(design.name() + ": interrupted while waiting for every net_free", e);
      }
    }
  }

  private Loops loops(Design design, NetnsChurnWorkload w, long iterations, LifecycleRecorder probe, String label)
      throws RunFailure {
    String tag = design.name() + "-" + (runs++);
    ActorRef<NamespaceSupervisor.Command> supervisor = system.systemActorOf(
        NamespaceSupervisor.create(design, StandardPernetOps.all(), probe), "supervisor-" + tag, Props.empty());
    StripedRecorder loopWall = new StripedRecorder("s", 1e9);
    LongAdder progress = new LongAdder();
    LongAdder failures = new LongAdder();
    CountDownLatch done = new CountDownLatch(w.workers());
    List<ActorRef<ChurnWorker.Command>> workers = new ArrayList<>();
    for (int k = 0; k < w.workers(); k++) {
      workers.add(system.systemActorOf(ChurnWorker.create(supervisor, w, iterations, 1 + k * iterations, loopWall,
          progress, failures, done::countDown), "churn-" + tag + "-" + k, Props.empty()));
    }
    List<double[]> series = new ArrayList<>();
    phases.run(design.name(), label, () -> workers.forEach(x -> x.tell(ChurnWorker.Start.INSTANCE)), done, progress,
        iterations * w.workers(), series);
    awaitAllFreed(design, supervisor, probe);
    workers.forEach(x -> x.tell(ChurnWorker.Stop.INSTANCE));
    return new Loops(supervisor, loopWall, failures, series);
  }

}
