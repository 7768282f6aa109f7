package org.netnslab.scenario;

import akka.actor.typed.ActorSystem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.design.Design;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RatioDefinition;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.RunSettings;
import org.netnslab.run.DesignScope;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunScope;

/**
 * Runs every design of a scenario, one after the other in the same actor system, with the runner its
 * workload supplies ({@link org.netnslab.workload.Workload#runner}), and compares each design with the
 * baseline on the workload's measure ({@link org.netnslab.workload.Workload#comparedMeasure}). Each
 * design runs under its own {@link DesignGuardian}, which is stopped, and seen terminated, before the
 * next design starts.
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
   * @return the run's result
   * @throws RunFailure when the run itself fails: a model request timed out, a phase stalled, or a
   *     design's actors did not stop
   */
  public RunResult run(Scenario scenario) throws RunFailure {
    Instant started = Instant.now();
    long t0 = System.nanoTime();
    DesignRunner runner = scenario.workload().runner(scenario.scale());
    List<DesignResult> results = new ArrayList<>();
    try (RunScope run = new RunScope(system, settings, observer)) {
      for (Design d : scenario.designs()) {
        observer.designStarting(d.name());
        try (DesignScope scope = run.design(d.name())) {
          results.add(runner.run(d, scope));
        }
        observer.designDone(d.name());
      }
    }
    DesignResult base = results.stream().filter(r -> r.name().equals(scenario.baseline())).findFirst().orElseThrow();
    List<Comparison> comparisons = new ArrayList<>();
    String m = scenario.workload().comparedMeasure();
    for (DesignResult r : results) {
      if (r != base && base.recorders().containsKey(m) && r.recorders().containsKey(m)) {
        comparisons.add(Comparison.of(m, base, r));
      }
    }
    return new RunResult(scenario.name(), scenario.description(), scenario.seed(), scenario.scale(), started,
        (System.nanoTime() - t0) / 1e9, results, comparisons, scenario.seedRatios(), scenario.overrides(),
        RatioDefinition.evaluateAll(scenario.derivedRatios(), results));
  }
}
