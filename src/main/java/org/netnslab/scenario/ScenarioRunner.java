package org.netnslab.scenario;

import akka.actor.typed.ActorSystem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.design.Design;
import org.netnslab.machine.Machine;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RatioDefinition;
import org.netnslab.metrics.ReplicateOrder;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunScope;
import org.netnslab.run.RunSettings;

/**
 * Runs every design of a scenario {@link Scenario#repeat} times (replicates), in the same actor system,
 * with the runner its workload supplies ({@link org.netnslab.workload.Workload#runner}), and compares
 * each design with the baseline on the workload's measure ({@link org.netnslab.workload.Workload#comparedMeasure})
 * over the replicates' means. Within a replicate the designs run one after the other in the order
 * {@link ReplicateOrder} gives (rotated from one replicate to the next); each design's run spawns a
 * fresh model under its own {@link org.netnslab.run.DesignGuardian}, which is stopped, and seen
 * terminated, before the next design starts, so no replicate inherits another's state.
 */
public final class ScenarioRunner {
  private final ActorSystem<?> system;
  private final RunSettings settings;
  private final RunObserver observer;

  /**
   * @param system the actor system the model runs on
   * @param settings the runner's settings
   * @param observer told of progress
   */
  public ScenarioRunner(ActorSystem<?> system, RunSettings settings, RunObserver observer) {
    this.system = system;
    this.settings = settings;
    this.observer = observer;
  }

  /**
   * @param scenario a validated scenario
   * @return the run's result: each design merged over the replicates, and each replicate's own
   * @throws RunFailure when the run itself fails: a model request timed out, a phase stalled, or a
   *     design's actors did not stop
   */
  public RunResult run(Scenario scenario) throws RunFailure {
    Instant started = Instant.now();
    long t0 = System.nanoTime();
    DesignRunner runner = scenario.workload().runner(scenario.scale());
    List<Design> designs = scenario.designs();
    List<RunResult.Replicate> replicates = new ArrayList<>();
    try (RunScope run = new RunScope(system, settings, observer)) {
      for (int rep = 0; rep < scenario.repeat(); rep++) {
        List<String> order = ReplicateOrder.of(designs.size(), rep).stream().map(i -> designs.get(i).name()).toList();
        observer.replicateStarting(rep + 1, scenario.repeat(), order);
        Map<String, DesignResult> results = new LinkedHashMap<>();
        for (int i : ReplicateOrder.of(designs.size(), rep)) {
          Design d = designs.get(i);
          observer.designStarting(d.name());
          Machine machine = Machine.get(system);
          if (machine.isVirtual()) { // a fresh machine per design run: its figures do not depend on the run order
            machine.configure(scenario.execution().machineFor(rep), d.model().costs().mutexHandoff().toNanos());
          }
          try (DesignScope scope = run.design(d.name())) {
            results.put(d.name(), runner.run(d, scope));
          }
          observer.designDone(d.name());
        }
        replicates.add(new RunResult.Replicate(rep + 1, order,
            designs.stream().map(d -> results.get(d.name())).toList()));
      }
    }
    List<DesignResult> merged = new ArrayList<>();
    for (int i = 0; i < designs.size(); i++) {
      merged.add(DesignResult.merge(column(replicates, i)));
    }
    int base = designs.indexOf(designs.stream().filter(d -> d.name().equals(scenario.baseline())).findFirst()
        .orElseThrow());
    List<Comparison> comparisons = new ArrayList<>();
    String m = scenario.workload().comparedMeasure();
    for (int i = 0; i < designs.size(); i++) {
      DesignResult b = merged.get(i);
      if (i != base && merged.get(base).recorders().containsKey(m) && b.recorders().containsKey(m)) {
        comparisons.add(Comparison.of(m, column(replicates, base), column(replicates, i)));
      }
    }
    return new RunResult(scenario.name(), scenario.description(), scenario.seed(), scenario.scale(), started,
        (System.nanoTime() - t0) / 1e9, merged, comparisons, scenario.seedRatios(), scenario.overrides(),
        RatioDefinition.overReplicates(scenario.derivedRatios(),
            replicates.stream().map(RunResult.Replicate::designs).toList()),
        replicates);
  }

  /** @return design {@code i}'s result in each replicate, in replicate order */
  private static List<DesignResult> column(List<RunResult.Replicate> replicates, int i) {
    return replicates.stream().map(r -> r.designs().get(i)).toList();
  }
}
