package org.netnslab.scenario;

import akka.actor.typed.ActorSystem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import org.netnslab.design.Design;
import org.netnslab.design.Strategies;
import org.netnslab.machine.Machine;
import org.netnslab.machine.MachineSettings;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RatioDefinition;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.SensitivityResult;
import org.netnslab.run.Execution;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.run.SharedObserver;

/**
 * Runs every design of a scenario {@link Scenario#repeat} times (replicates), in the same actor system,
 * with the runner its workload supplies ({@link org.netnslab.workload.Workload#runner}), and compares
 * each design with the baseline on the workload's measure ({@link org.netnslab.workload.Workload#comparedMeasure})
 * over the replicates' means. Within a replicate the designs run one after the other in the order
 * {@link org.netnslab.metrics.ReplicateOrder} gives (rotated from one replicate to the next); each design's run spawns a
 * fresh model under its own {@link org.netnslab.run.DesignGuardian}, which is stopped, and seen
 * terminated, before the next design starts, so no replicate inherits another's state.
 *
 * <p>A CPU sweep ({@link Execution#isSweep}) runs each replicate at every count, counts in the order
 * given, designs rotated within each; results are keyed {@code <design>@<n>cpu}, and comparisons and
 * derived ratios stay within one count (each design against the baseline at the same count). Each design
 * run's real wall time and, in virtual execution, its simulated time and engine events are kept
 * ({@link RunResult.Clocks}).
 *
 * <p>Those design runs ({@link DesignRun#plan}) run on one lane, one after the other, or on {@code jobs} lanes
 * side by side, each lane its own actor system ({@link Lanes}), or on a cluster's workers
 * ({@link RunDistributor}); the result is assembled from their outcomes by plan index, the same whoever ran
 * them. A sensitivity study ({@link Scenario#sensitivity()}) adds one more run of every design per sample.
 */
public final class ScenarioRunner {
    private final ActorSystem<?> system;
    private final RunSettings settings;
    private final RunObserver observer;
    private final int jobs;
    private final IntFunction<ActorSystem<?>> newSystem;
    private final RunDistributor distributor;

    /**
     * A runner that runs the design runs one after the other ({@code --jobs 1}).
     *
     * @param system the actor system the model runs on
     * @param settings the runner's settings
     * @param observer told of progress
     */
    public ScenarioRunner(ActorSystem<?> system, RunSettings settings, RunObserver observer) {
        this(system, settings, observer, 1, k -> {
            throw new IllegalStateException("one lane only");
        });
    }

    /**
     * A runner that runs up to {@code jobs} design runs side by side ({@code --jobs N}), each lane in its own
     * actor system ({@link Lanes}); the figures are those of {@code --jobs 1}.
     *
     * @param system the actor system of the first lane
     * @param settings the runner's settings
     * @param observer told of progress; from several threads when {@code jobs > 1} (it is wrapped in a
     *     {@link SharedObserver} then)
     * @param jobs lanes, &gt;= 1
     * @param newSystem builds the actor system of lane k &gt;= 1, the same execution as {@code system}
     */
    public ScenarioRunner(
            ActorSystem<?> system,
            RunSettings settings,
            RunObserver observer,
            int jobs,
            IntFunction<ActorSystem<?>> newSystem) {
        this(system, settings, observer, jobs, newSystem, null);
    }

    /**
     * A runner whose design runs go to {@code distributor} (a cluster's workers), and to {@code jobs} local
     * lanes for what it cannot place.
     *
     * @param system the actor system of the first local lane
     * @param settings the runner's settings
     * @param observer told of progress, from several threads (it is wrapped in a {@link SharedObserver})
     * @param jobs local lanes, &gt;= 1
     * @param newSystem builds the actor system of local lane k &gt;= 1
     * @param distributor where design runs go first; null: the local lanes only
     */
    public ScenarioRunner(
            ActorSystem<?> system,
            RunSettings settings,
            RunObserver observer,
            int jobs,
            IntFunction<ActorSystem<?>> newSystem,
            RunDistributor distributor) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be >= 1, got " + jobs);
        }
        this.system = system;
        this.settings = settings;
        this.observer = jobs > 1 || distributor != null ? new SharedObserver(observer) : observer;
        this.jobs = jobs;
        this.newSystem = newSystem;
        this.distributor = distributor;
    }

    /**
     * @param scenario a validated scenario
     * @return the run's result: each design merged over the replicates, and each replicate's own
     * @throws RunFailure when the run itself fails: a model request timed out, a phase stalled, or a
     *     design's actors did not stop
     */
    public RunResult run(Scenario scenario) throws RunFailure {
        return runWithStudy(scenario).result();
    }

    /**
     * A run's results.
     *
     * @param result the base run (the scenario's own costs)
     * @param sensitivity its sensitivity study ({@link Scenario#sensitivity()}), or null when it asks for none
     */
    public record Outcome(RunResult result, SensitivityResult sensitivity) {}

    /**
     * The run and, when the scenario asks for one ({@link Scenario#sensitivity()}), its sensitivity study:
     * every design run again at each sample of the cost block, on the same lanes.
     *
     * @param scenario a validated scenario
     * @return the base run's result and the study's
     * @throws RunFailure as {@link #run}
     */
    public Outcome runWithStudy(Scenario scenario) throws RunFailure {
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        Execution execution = scenario.execution();
        Machine machine = Machine.get(system);
        if (execution.isVirtual() != machine.isVirtual()) { // else the result would name the wrong clock
            throw new RunFailure(scenario.name() + ": the scenario says execution = "
                    + (execution.isVirtual() ? "virtual" : "live") + " but the actor system is "
                    + (execution.isVirtual() ? "live (build it with machine.VirtualSystem)" : "virtual")
                    + "; set execution to match (--set execution=...)");
        }
        Sensitivity study = scenario.sensitivity();
        int samples = study.samples();
        List<DesignRun> plan = DesignRun.plan(scenario, samples);
        boolean oneLane = Math.min(jobs, plan.size()) <= 1 && distributor == null;
        int[] announced = {-1};
        RunDistributor.Local local = runs -> {
            if (Math.min(jobs, runs.size()) > 1) {
                observer.runsStarting(runs.size(), Math.min(jobs, runs.size()));
            }
            return Lanes.run(
                    runs,
                    plan.size(),
                    jobs,
                    system,
                    newSystem,
                    s -> new DesignRunLane(scenario, s, settings, observer),
                    (lane, r) -> {
                        if (oneLane
                                && r.sample() == 0
                                && r.replicate() != announced[0]) { // one after another: a line per replicate
                            announced[0] = r.replicate();
                            observer.replicateStarting(
                                    r.replicate() + 1,
                                    scenario.repeat(),
                                    plan.stream()
                                            .filter(x -> x.sample() == 0 && x.replicate() == r.replicate())
                                            .map(DesignRun::key)
                                            .toList());
                        } else if (oneLane
                                && r.sample() == 1
                                && announced[0] >= 0) { // the samples: labelled by their own
                            announced[0] = -1;
                            observer.replicateStarting(1, 1, List.of());
                        }
                        return lane.run(r, oneLane && r.sample() == 0 ? r.key() : r.label(scenario, samples));
                    });
        };
        DesignRunOutcome[] outcomes = distributor != null ? distributor.run(scenario, plan, local) : local.run(plan);
        RunResult result = assemble(scenario, plan, outcomes, 0, scenario.repeat(), started, t0);
        if (samples == 0) {
            return new Outcome(result, null);
        }
        List<List<Comparison>> perSample = new ArrayList<>();
        for (int k = 1; k <= samples; k++) {
            Map<String, Comparison> byPair = new LinkedHashMap<>();
            assemble(scenario, plan, outcomes, k, 1, started, t0)
                    .comparisons()
                    .forEach(c -> byPair.put(c.measure() + " " + c.a() + " " + c.b(), c));
            perSample.add(result.comparisons().stream()
                    .map(c -> byPair.get(c.measure() + " " + c.a() + " " + c.b()))
                    .toList());
        }
        List<String> keys = study.keysFor(scenario);
        return new Outcome(
                result,
                SensitivityResult.of(
                        result.comparisons(),
                        c -> {
                            int at = c.b().lastIndexOf('@');
                            return scenario.seedRatios()
                                    .get(execution.isSweep() && at > 0 ? c.b().substring(0, at) : c.b());
                        },
                        perSample,
                        keys,
                        study.factors(keys.size(), execution.machine().randomSeed()),
                        study.spread(),
                        study.seedBand(),
                        execution.machine().randomSeed()));
    }

    /**
     * The run's result from its design runs' outcomes: replicates in order, designs merged over them,
     * comparisons over the replicates' means and derived ratios, as one lane has always made them.
     */
    private static RunResult assemble(
            Scenario scenario,
            List<DesignRun> plan,
            DesignRunOutcome[] outcomes,
            int sample,
            int repeat,
            Instant started,
            long t0) {
        Execution execution = scenario.execution();
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
        for (int rep = 0; rep < repeat; rep++) {
            int replicate = rep;
            List<DesignRun> runs = plan.stream()
                    .filter(r -> r.sample() == sample && r.replicate() == replicate)
                    .toList();
            Map<String, DesignResult> results = new LinkedHashMap<>();
            Map<String, RunResult.Clocks> clocks = new LinkedHashMap<>();
            Map<Integer, List<DesignResult>> own = new LinkedHashMap<>();
            for (int n : counts) {
                Map<String, DesignResult> atCount = new LinkedHashMap<>();
                for (DesignRun r : runs) {
                    if (r.cpus() == n) {
                        DesignRunOutcome o = outcomes[r.index()];
                        atCount.put(designs.get(r.design()).name(), o.result());
                        results.put(
                                r.key(),
                                readKeysOnly(
                                        sweep ? renamed(o.result(), r.key()) : o.result(),
                                        scenario.workload().usedModelKeys()));
                        clocks.put(r.key(), o.clocks());
                    }
                }
                own.put(n, designs.stream().map(d -> atCount.get(d.name())).toList());
            }
            replicates.add(new RunResult.Replicate(
                    rep + 1,
                    runs.stream().map(DesignRun::key).toList(),
                    keys.stream().map(results::get).toList(),
                    keys.stream().map(clocks::get).toList()));
            byCount.add(own);
        }
        List<DesignResult> merged = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            merged.add(DesignResult.merge(column(replicates, i)));
        }
        int base = designs.indexOf(designs.stream()
                .filter(d -> d.name().equals(scenario.baseline()))
                .findFirst()
                .orElseThrow());
        List<Comparison> comparisons = new ArrayList<>();
        String m = scenario.workload().comparedMeasure();
        List<RunResult.DerivedRatio> ratios = new ArrayList<>();
        for (int c = 0;
                c < counts.size();
                c++) { // comparisons stay within one CPU count: the baseline at the same count
            int off = c * designs.size();
            for (int i = 0; i < designs.size(); i++) {
                DesignResult b = merged.get(off + i);
                if (i != base
                        && merged.get(off + base).recorders().containsKey(m)
                        && b.recorders().containsKey(m)) {
                    Comparison cmp = Comparison.of(m, column(replicates, off + base), column(replicates, off + i));
                    Design da = designs.get(base);
                    Design db = designs.get(i);
                    if (Strategies.sameIn(
                            da.model(), db.model(), scenario.workload().usedModelKeys())) {
                        cmp = cmp.withSameModelNote(
                                db.name() + " and " + da.name() + " differ in no model key this workload"
                                        + " uses ("
                                        + String.join(
                                                ", ",
                                                new java.util.TreeSet<>(
                                                        scenario.workload().usedModelKeys()))
                                        + "): the same model here, so their difference is noise, whatever its p-value");
                    }
                    comparisons.add(cmp);
                }
            }
            int n = counts.get(c);
            for (RunResult.DerivedRatio r : RatioDefinition.overReplicates(
                    scenario.derivedRatios(),
                    byCount.stream().map(own -> own.get(n)).toList())) {
                ratios.add(
                        sweep
                                ? new RunResult.DerivedRatio(
                                        r.name() + " @" + n + "cpu",
                                        r.model(),
                                        r.seed(),
                                        r.replicates(),
                                        r.ciLow(),
                                        r.ciHigh())
                                : r);
            }
        }
        MachineSettings ms = execution.machine();
        return new RunResult(
                scenario.name(),
                scenario.description(),
                scenario.seed(),
                scenario.scale(),
                started,
                (System.nanoTime() - t0) / 1e9,
                merged,
                comparisons,
                scenario.seedRatios(),
                scenario.overrides(),
                ratios,
                replicates,
                new RunResult.ExecutionInfo(
                        execution.mode().name().toLowerCase(Locale.ROOT),
                        counts,
                        sweep,
                        ms.jitter(),
                        ms.randomSeed(),
                        new RunResult.SchedulingInfo(
                                ms.scheduling().scheduler().name().toLowerCase(Locale.ROOT),
                                ms.scheduling().preempt().name().toLowerCase(Locale.ROOT),
                                ms.scheduling().hz(),
                                ms.scheduling().baseSliceNanos(),
                                ms.scheduling().contextSwitchNanos(),
                                ms.scheduling().taskGroup().name().toLowerCase(Locale.ROOT),
                                counts.stream()
                                        .map(n -> ms.scheduling().sliceNanos(n))
                                        .toList())));
    }

    /** @return the key of a design's results: its name, or {@code <design>@<n>cpu} in a sweep */
    private static String key(String design, int cpus, boolean sweep) {
        return sweep ? RunResult.ExecutionInfo.key(design, cpus) : design;
    }

    private static DesignResult renamed(DesignResult r, String name) {
        return new DesignResult(
                name,
                r.strategies(),
                r.recorders(),
                r.throughputPerSec(),
                r.throughputUnit(),
                r.wallSeconds(),
                r.invariants(),
                r.counters(),
                r.throughputSeries());
    }

    /**
     * @param r a design's result
     * @param groups the model key groups the workload reads ({@code Workload.usedModelKeys})
     * @return it with only the strategies the workload reads: a uevent run does not list proc connector keys
     */
    private static DesignResult readKeysOnly(DesignResult r, java.util.Set<String> groups) {
        java.util.Map<String, String> read = new java.util.LinkedHashMap<>();
        r.strategies().forEach((k, v) -> {
            String g = org.netnslab.design.Strategies.groupOf(k);
            if (g == null || groups.contains(g)) {
                read.put(k, v);
            }
        });
        return new DesignResult(
                r.name(),
                read,
                r.recorders(),
                r.throughputPerSec(),
                r.throughputUnit(),
                r.wallSeconds(),
                r.invariants(),
                r.counters(),
                r.throughputSeries());
    }

    /** @return design {@code i}'s result in each replicate, in replicate order */
    private static List<DesignResult> column(List<RunResult.Replicate> replicates, int i) {
        return replicates.stream().map(r -> r.designs().get(i)).toList();
    }
}
