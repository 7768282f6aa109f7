package org.netnslab.scenario;

import akka.actor.typed.ActorSystem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.netnslab.machine.Machine;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.SensitivityResult;
import org.netnslab.run.Execution;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.run.SharedObserver;

/**
 * Runs a scenario's design runs ({@link DesignRun#plan}: each design in each replicate, at each CPU count of a
 * sweep, at each sensitivity sample) on one lane, on {@code jobs} lanes side by side ({@link Lanes}) or on a
 * cluster's workers ({@link RunDistributor}), and assembles the run's result from their outcomes
 * ({@link RunAssembly}): the same figures whoever ran them. Each design run has a fresh model under its own
 * design guardian, stopped before the lane's next run starts. {@link ScenarioRun} sets one up for a command.
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
        // live figures are the JVM's threads: the result says which
        RunResult.DispatcherInfo dispatcher = execution.isVirtual() ? null : dispatcherInfo(system);
        Sensitivity study = scenario.sensitivity();
        int samples = study.samples();
        List<DesignRun> plan = DesignRun.plan(scenario, samples);
        boolean oneLane = Math.min(jobs, plan.size()) <= 1 && distributor == null;
        int[] announced = {-1};
        RunDistributor.Local local = runs -> {
            observer.runsPlanned(runs.size());
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
        RunResult result =
                RunAssembly.assemble(scenario, plan, outcomes, 0, scenario.repeat(), started, t0, dispatcher);
        if (samples == 0) {
            return new Outcome(result, null);
        }
        // each sample reproduces the base run's first replicate with its costs moved: the study's base is that
        // replicate, not the mean over --repeat's
        List<Comparison> base = scenario.repeat() == 1
                ? result.comparisons()
                : RunAssembly.assemble(scenario, plan, outcomes, 0, 1, started, t0, dispatcher)
                        .comparisons();
        List<List<Comparison>> perSample = new ArrayList<>();
        for (int k = 1; k <= samples; k++) {
            Map<String, Comparison> byPair = new LinkedHashMap<>();
            RunAssembly.assemble(scenario, plan, outcomes, k, 1, started, t0, dispatcher)
                    .comparisons()
                    .forEach(c -> byPair.put(c.measure() + " " + c.a() + " " + c.b(), c));
            perSample.add(base.stream()
                    .map(c -> byPair.get(c.measure() + " " + c.a() + " " + c.b()))
                    .toList());
        }
        List<String> keys = study.keysFor(scenario);
        return new Outcome(
                result,
                SensitivityResult.of(
                        base,
                        c -> seedJudged(c.b(), scenario, execution),
                        perSample,
                        keys,
                        study.factors(keys.size(), execution.machine().randomSeed()),
                        study.spread(),
                        study.seedBand(),
                        execution.machine().randomSeed()));
    }

    /**
     * @param key a design's result key: its name, or a sweep's {@code <design>@<n>cpu}
     * @return the seed's ratio for it where the seed is judged (the scenario's own CPU count), else null
     */
    private static Double seedJudged(String key, Scenario scenario, Execution execution) {
        int cpus = execution.isSweep()
                ? RunResult.ExecutionInfo.cpusOf(key)
                : execution.machine().cpus();
        if (!RunResult.ExecutionInfo.judgesSeedAt(execution.isVirtual(), execution.seedCpus(), cpus)) {
            return null;
        }
        return scenario.seedRatios().get(execution.isSweep() ? RunResult.ExecutionInfo.designOf(key) : key);
    }

    /** @return the model dispatcher of a live system: its id, executor setting and threads */
    private static RunResult.DispatcherInfo dispatcherInfo(ActorSystem<?> system) {
        com.typesafe.config.Config config = system.settings().config();
        String id = ModelDispatcher.id(config);
        String executor = config.hasPath(id + ".executor") ? config.getString(id + ".executor") : "default-executor";
        return new RunResult.DispatcherInfo(id, executor, ModelDispatcher.threads(system));
    }
}
