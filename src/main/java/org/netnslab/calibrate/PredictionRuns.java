package org.netnslab.calibrate;

import com.typesafe.config.Config;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.netnslab.metrics.DesignResult;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.ScenarioException;

/**
 * Runs the model's side of the prediction-set loads: each a {@link ModelScenario} of the host's era on the calibrated
 * costs and the host's CPU count, {@link #SEEDS} times with random seeds 1 to {@link #SEEDS} ({@link ModelRuns}),
 * written to {@code scenario-<load>.conf} beside the results so a user can run it again, with a progress line per load.
 */
final class PredictionRuns {
    /** The model's runs of each load, seeds 1 to this: an odd count, so a median is one run's figure. */
    static final int SEEDS = 5;

    private final Config system;
    private final String design;
    private final int cpus;
    private final Path folder;
    private final PrintStream progress;
    private final Consumer<String> stage;

    /**
     * @param system the configuration with the calibrated costs and the host's design era
     * @param design the era's design name
     * @param cpus the host's CPUs: the simulated machine's
     * @param folder where the generated scenarios go
     * @param progress where a line per model run goes
     * @param stage told which model run runs now (for the line a Ctrl-C prints)
     */
    PredictionRuns(Config system, String design, int cpus, Path folder, PrintStream progress, Consumer<String> stage) {
        this.system = system;
        this.design = design;
        this.cpus = cpus;
        this.folder = folder;
        this.progress = progress;
        this.stage = stage;
    }

    /** @return where the lines about the model runs go */
    PrintStream progress() {
        return progress;
    }

    /**
     * @param load the load's name: its file's, and the stage's
     * @param name the scenario's name
     * @param description what the load is, for the scenario's description
     * @param workload its workload block ({@link ModelScenario#workload})
     * @param model its model block, or empty
     * @return the era's result in each of the {@link #SEEDS} runs
     * @throws ScenarioException the generated scenario is invalid
     * @throws RunFailure the model run failed
     * @throws IOException the scenario file cannot be written
     */
    ModelRuns run(String load, String name, String description, Map<String, Object> workload, Map<String, Object> model)
            throws ScenarioException, RunFailure, IOException {
        ModelScenario scenario = new ModelScenario(
                load,
                name,
                List.of(
                        "Written by `netns-lab calibrate`: the model's side of one prediction-set load. Run it again"
                                + " with",
                        "./netns-lab run THIS_FILE --config calibrated.conf (the calibrated.conf beside it)",
                        "calibrate compares each figure's median over the " + SEEDS + " replicates (random-seed 1 to "
                                + SEEDS + "); result.json merges them"),
                "calibrate prediction: " + description,
                "netns-lab calibrate, prediction set (measured on this host)",
                workload,
                model,
                cpus,
                List.of(design),
                SEEDS);
        stage.accept("model: " + load);
        long t0 = System.nanoTime();
        List<DesignResult> runs = ModelRun.run(system, scenario, folder).replicates().stream()
                .map(r -> r.designs().get(0))
                .toList();
        progress.printf(
                "calibrate: model %s, %d seeds, in %.1f s%n", load, runs.size(), (System.nanoTime() - t0) / 1e9);
        return new ModelRuns(runs);
    }

    /**
     * @param load the load's name
     * @return the runs of {@code injectors} injectors into {@code netns} user-namespace-owned netns with one listener
     *     each, {@code perNetns} counted injections into each
     */
    ModelRuns injection(String load, int netns, int injectors, long perNetns)
            throws ScenarioException, RunFailure, IOException {
        return run(
                load,
                "inject-" + netns + "-" + injectors,
                injectors + " injectors into " + netns + " netns",
                ModelScenario.injection(netns, injectors, perNetns),
                Map.of());
    }
}
