package org.netnslab.workload.injection;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.rules.TemporaryFolder;
import org.netnslab.machine.Machine;
import org.netnslab.machine.VirtualEngine;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.ScenarioRunner;

/**
 * A test class's virtual actor system, made at its first scenario run and ended by {@link #close} (an {@code
 * AfterClass}): one system for the class, a fresh machine per design run all the same.
 */
final class VirtualRuns extends org.junit.rules.ExternalResource {
    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(200));

    private final String name;
    private ActorSystem<Void> system;

    /** @param name the actor system's name */
    VirtualRuns(String name) {
        this.name = name;
    }

    /**
     * Writes {@code text} to a new file of {@code tmp} and runs it at scale 1.
     *
     * @param tmp the test's temporary folder
     * @param text a scenario
     * @return the run's result
     * @throws Exception from writing, loading or running
     */
    RunResult run(TemporaryFolder tmp, String text) throws Exception {
        Path file = tmp.newFile().toPath();
        Files.writeString(file, text);
        return run(file, 1);
    }

    /**
     * @param file a scenario file
     * @param scale its scale
     * @return the run's result
     * @throws Exception from loading or running
     */
    RunResult run(Path file, double scale) throws Exception {
        Scenario s = new ScenarioLoader().load(file, List.of(), scale);
        if (system == null) {
            system = VirtualSystem.create(Behaviors.empty(), name, ConfigFactory.load());
        }
        return new ScenarioRunner(system, SETTINGS, RunObserver.SILENT).run(s);
    }

    /** @return the system, whose machine holds the last design run's state; null before the first run */
    ActorSystem<Void> system() {
        return system;
    }

    /** As a {@code @ClassRule}: {@link #close} once the class's tests are done. */
    @Override
    protected void after() {
        try {
            close();
        } catch (Exception e) {
            throw new IllegalStateException("terminating the test class's virtual actor system", e);
        }
    }

    /**
     * Terminates the system and unregisters its engine; nothing before the first run.
     *
     * @throws Exception from terminating
     */
    void close() throws Exception {
        if (system == null) {
            return;
        }
        VirtualEngine engine = Machine.get(system).engine();
        VirtualSystem.terminate(system, Duration.ofSeconds(5));
        engine.unregister();
        system = null;
    }

    /**
     * @param r a run's result
     * @param name a design it ran
     * @return that design's result
     */
    static DesignResult design(RunResult r, String name) {
        return r.designs().stream()
                .filter(d -> d.name().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
