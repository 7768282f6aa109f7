package org.netnslab.calibrate;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.ScenarioRunner;

/**
 * One {@link ModelScenario} run in virtual time on its own actor system, as {@code run} would run its file, and the
 * figures read from its result.
 */
final class ModelRun {
    private ModelRun() {}

    /**
     * Writes the scenario into {@code folder} (for the user to run again) and runs it.
     *
     * @param system the calibrated configuration
     * @param scenario the scenario
     * @param folder where its file goes
     * @return its result
     * @throws ScenarioException the scenario is invalid
     * @throws RunFailure the model run failed
     * @throws IOException its file cannot be written
     */
    static RunResult run(Config system, ModelScenario scenario, Path folder)
            throws ScenarioException, RunFailure, IOException {
        Path file = scenario.file(folder);
        Files.writeString(file, scenario.text());
        return run(system, scenario, file.toString());
    }

    /**
     * Runs a scenario whose file is written already.
     *
     * @param system the calibrated configuration
     * @param scenario the scenario
     * @param source its file, named in a problem
     * @return its result
     * @throws ScenarioException the scenario is invalid
     * @throws RunFailure the model run failed
     */
    static RunResult run(Config system, ModelScenario scenario, String source) throws ScenarioException, RunFailure {
        Scenario loaded = new ScenarioLoader(system.getConfig("netns-lab")).load(scenario.config(), source);
        ActorSystem<Void> actors = VirtualSystem.create(Behaviors.empty(), "netns-lab-calibrate", system);
        try {
            return new ScenarioRunner(actors, RunSettings.fromConfig(system.getConfig("netns-lab")), RunObserver.SILENT)
                    .run(loaded);
        } finally {
            try {
                VirtualSystem.terminate(actors, Duration.ofSeconds(30));
            } catch (Exception e) {
                // the result is complete; a slow shutdown is worth a line, not a failed calibration
                System.err.println("calibrate: the model's actor system did not terminate cleanly: " + e);
            }
        }
    }

    /** @return a measure's mean in us, whatever unit its recorder keeps */
    static double mean(DesignResult d, String measure) {
        MeasureSummary s = d.recorders().get(measure).summary();
        return micros(s, s.mean());
    }

    /** @return value, in s's unit, in us */
    static double micros(MeasureSummary s, double value) {
        return switch (s.unit()) {
            case "ns" -> value / 1e3;
            case "us" -> value;
            case "ms" -> value * 1e3;
            case "s" -> value * 1e6;
            default -> throw new IllegalArgumentException("measure unit '" + s.unit() + "' is not a time unit");
        };
    }
}
