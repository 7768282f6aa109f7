package org.netnslab.scenario;

import akka.actor.typed.ActorSystem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.netnslab.design.Design;
import org.netnslab.design.Strategies;
import org.netnslab.machine.Machine;
import org.netnslab.machine.MachineSettings;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RatioDefinition;
import org.netnslab.metrics.ReplicateOrder;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
import org.netnslab.run.Execution;
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
 *
 * <p>A CPU sweep ({@link Execution#isSweep}) runs each replicate at every count, counts in the order
 * given, designs rotated within each; results are keyed {@code <design>@<n>cpu}, and comparisons and
 * derived ratios stay within one count (each design against the baseline at the same count). Each design
 * run's real wall time and, in virtual execution, its simulated time and engine events are kept
 * ({@link RunResult.Clocks}).
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
    Execution execution = scenario.execution();
    Machine machine = Machine.get(system);
    if (execution.isVirtual() != machine.isVirtual()) { // else the result would name the wrong clock
      throw new RunFailure(scenario.name() + ": the scenario says execution = "
          + (execution.isVirtual() ? "virtual" : "live") + " but the actor system is "
          + (execution.isVirtual() ? "live (build it with machine.VirtualSystem)" : "virtual")
          + "; set execution to match (--set execution=...)");
    }
    boolean sweep = execution.isSweep();
    List<Integer> counts = execution.cpuCounts();
    List<Design> designs = scenario.designs();
    // result keys: the design's name, or <design>@<n>cpu in a sweep; count-major, designs in scenario order
    List<String> keys = new ArrayList<>();
    for (int n : counts) {
      designs.forEach(d -> keys.add(key(d.name(), n, sweep)));
    }
    List<RunResult.Replicate> replicates = new ArrayList<>();
    // per replicate, per count: the designs' results under their own names (what derived ratios name)
    List<Map<Integer, List<DesignResult>>> byCount = new ArrayList<>();
    try (RunScope run = new RunScope(system, settings, observer)) {
      for (int rep = 0; rep < scenario.repeat(); rep++) {
        List<String> order = new ArrayList<>();
        for (int n : counts) {
          for (int i : ReplicateOrder.of(designs.size(), rep)) {
            order.add(key(designs.get(i).name(), n, sweep));
          }
        }
        observer.replicateStarting(rep + 1, scenario.repeat(), order);
        Map<String, DesignResult> results = new LinkedHashMap<>();
        Map<String, RunResult.Clocks> clocks = new LinkedHashMap<>();
        Map<Integer, List<DesignResult>> own = new LinkedHashMap<>();
        for (int n : counts) {
          Map<String, DesignResult> atCount = new LinkedHashMap<>();
          for (int i : ReplicateOrder.of(designs.size(), rep)) {
            Design d = designs.get(i);
            String key = key(d.name(), n, sweep);
            observer.designStarting(key);
            if (machine.isVirtual()) { // a fresh machine per design run: its figures do not depend on the run order
              machine.configure(execution.machineFor(rep, n), d.model().costs().mutexHandoff().toNanos());
            }
            long wall0 = System.nanoTime();
            long sim0 = machine.isVirtual() ? machine.engine().now() : 0;
            long events0 = machine.isVirtual() ? machine.engine().eventsRun() : 0;
            DesignResult r;
            try (DesignScope scope = run.design(key)) {
              r = runner.run(d, scope);
            }
            double wallS = (System.nanoTime() - wall0) / 1e9;
            clocks.put(key, machine.isVirtual()
                ? new RunResult.Clocks(wallS, (machine.engine().now() - sim0) / 1e9, machine.engine().eventsRun() - events0)
                : new RunResult.Clocks(wallS, Double.NaN, -1));
            atCount.put(d.name(), r);
            results.put(key, sweep ? renamed(r, key) : r);
            observer.designDone(key);
          }
          own.put(n, designs.stream().map(d -> atCount.get(d.name())).toList());
        }
        replicates.add(new RunResult.Replicate(rep + 1, order, keys.stream().map(results::get).toList(),
            keys.stream().map(clocks::get).toList()));
        byCount.add(own);
      }
    }
    List<DesignResult> merged = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      merged.add(DesignResult.merge(column(replicates, i)));
    }
    int base = designs.indexOf(designs.stream().filter(d -> d.name().equals(scenario.baseline())).findFirst()
        .orElseThrow());
    List<Comparison> comparisons = new ArrayList<>();
    String m = scenario.workload().comparedMeasure();
    List<RunResult.DerivedRatio> ratios = new ArrayList<>();
    for (int c = 0; c < counts.size(); c++) { // comparisons stay within one CPU count: the baseline at the same count
      int off = c * designs.size();
      for (int i = 0; i < designs.size(); i++) {
        DesignResult b = merged.get(off + i);
        if (i != base && merged.get(off + base).recorders().containsKey(m) && b.recorders().containsKey(m)) {
          Comparison cmp = Comparison.of(m, column(replicates, off + base), column(replicates, off + i));
          Design da = designs.get(base);
          Design db = designs.get(i);
          if (Strategies.sameIn(da.model(), db.model(), scenario.workload().usedModelKeys())) {
            cmp = cmp.withSameModelNote(db.name() + " and " + da.name() + " differ in no model key this workload"
                + " uses (" + String.join(", ", new java.util.TreeSet<>(scenario.workload().usedModelKeys()))
                + "): the same model here, so their difference is noise, whatever its p-value");
          }
          comparisons.add(cmp);
        }
      }
      int n = counts.get(c);
      for (RunResult.DerivedRatio r : RatioDefinition.overReplicates(scenario.derivedRatios(),
          byCount.stream().map(own -> own.get(n)).toList())) {
        ratios.add(sweep ? new RunResult.DerivedRatio(r.name() + " @" + n + "cpu", r.model(), r.seed(), r.replicates(),
            r.ciLow(), r.ciHigh()) : r);
      }
    }
    MachineSettings ms = execution.machine();
    return new RunResult(scenario.name(), scenario.description(), scenario.seed(), scenario.scale(), started,
        (System.nanoTime() - t0) / 1e9, merged, comparisons, scenario.seedRatios(), scenario.overrides(), ratios,
        replicates, new RunResult.ExecutionInfo(execution.mode().name().toLowerCase(Locale.ROOT), counts, sweep,
            ms.jitter(), ms.randomSeed(), new RunResult.SchedulingInfo(
                ms.scheduling().scheduler().name().toLowerCase(Locale.ROOT),
                ms.scheduling().preempt().name().toLowerCase(Locale.ROOT), ms.scheduling().hz(),
                ms.scheduling().baseSliceNanos(), ms.scheduling().contextSwitchNanos())));
  }

  /** @return the key of a design's results: its name, or {@code <design>@<n>cpu} in a sweep */
  private static String key(String design, int cpus, boolean sweep) {
    return sweep ? RunResult.ExecutionInfo.key(design, cpus) : design;
  }

  private static DesignResult renamed(DesignResult r, String name) {
    return new DesignResult(name, r.strategies(), r.recorders(), r.throughputPerSec(), r.throughputUnit(),
        r.wallSeconds(), r.invariants(), r.counters(), r.throughputSeries());
  }

  /** @return design {@code i}'s result in each replicate, in replicate order */
  private static List<DesignResult> column(List<RunResult.Replicate> replicates, int i) {
    return replicates.stream().map(r -> r.designs().get(i)).toList();
  }
}
