package org.netnslab.scenario;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.DispatcherSelector;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValueType;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;

/**
 * A loaded scenario ({@link LoadedRun}) on the actor system of its execution: {@code run} runs every design run
 * on it ({@link #run}, more lanes and a cluster's workers as asked), a cluster worker one design run at a time on
 * one lane of it ({@link #lane}), so that a design run is set up the same way on both. Close it to terminate the
 * actor system (and to close the distributor it was given).
 */
public final class ScenarioRun implements AutoCloseable {
    /** How long terminating a virtual actor system waits for Akka's own threads, wall time. */
    private static final Duration TERMINATE_IDLE = Duration.ofSeconds(30);

    private final LoadedRun loaded;
    private final String name;
    private final ActorSystem<Void> system;
    private final RunDistributor distributor;

    private ScenarioRun(LoadedRun loaded, String name, ActorSystem<Void> system, RunDistributor distributor) {
        this.loaded = loaded;
        this.name = name;
        this.system = system;
        this.distributor = distributor;
    }

    /**
     * Makes the run's actor system: a virtual one ({@link VirtualSystem}) in virtual execution, else a live one.
     *
     * @param loaded the loaded scenario and its configuration
     * @param name the actor system's name; further lanes' are {@code <name>-<k>}
     * @param distributor where design runs go first (a cluster's workers), or null; closed with the run, or here
     *     when the actor system cannot be made
     * @return the run
     * @throws IllegalArgumentException when Akka cannot start with the configuration ({@link #cannotStart})
     */
    public static ScenarioRun open(LoadedRun loaded, String name, RunDistributor distributor) {
        ActorSystem<Void> system = null;
        try {
            system = loaded.scenario().execution().isVirtual()
                    ? VirtualSystem.create(Behaviors.empty(), name, loaded.system())
                    : ActorSystem.create(Behaviors.empty(), name, loaded.system());
            // the model's dispatcher is made at its first actor's spawn: a bad one is said here, not by a run that
            // never gets going
            system.dispatchers().lookup(DispatcherSelector.fromConfig(ModelDispatcher.id(loaded.system())));
        } catch (Exception e) { // Akka may throw a checked exception (a class not found) unchecked
            if (distributor != null) {
                distributor.close();
            }
            if (system != null) {
                system.terminate();
            }
            throw cannotStart(loaded.system(), e);
        }
        return new ScenarioRun(loaded, name, system, distributor);
    }

    /**
     * What to say when Akka cannot start an actor system with a configuration that passed the checks made before
     * ({@link SystemConfig#load}): in one line, where the configuration's Akka settings came from and the cause's
     * words.
     *
     * @param system the merged configuration the actor system was made with
     * @param e what Akka threw while it started
     * @return the exception to throw, with {@code e} as its cause
     */
    public static IllegalArgumentException cannotStart(Config system, Exception e) {
        Set<String> sources = new TreeSet<>();
        String confFile = System.getProperty("config.file");
        for (String root : List.of("akka", "netns-lab")) {
            if (!system.hasPath(root) || system.getValue(root).valueType() != ConfigValueType.OBJECT) {
                continue;
            }
            for (var v : system.getConfig(root).entrySet()) {
                ConfigOrigin o = v.getValue().origin();
                if (o.filename() != null && o.resource() == null) { // a file, not the class path's reference.conf
                    sources.add((o.filename().equals(confFile) ? "" : "--config ") + o.filename());
                }
            }
        }
        String why = null;
        for (Throwable t = e; t != null && why == null; t = t.getCause()) {
            why = t instanceof ClassNotFoundException ? "class not found: " + t.getMessage() : t.getMessage();
        }
        return new IllegalArgumentException(
                "Akka cannot start with this configuration ("
                        + (sources.isEmpty() ? "Akka's defaults" : String.join(", ", sources))
                        + "): "
                        + (why == null
                                ? "no reason given"
                                : why.replaceAll("\\s+", " ").trim()),
                e);
    }

    /**
     * Runs every design run of the scenario and its sensitivity study ({@link ScenarioRunner#runWithStudy}).
     *
     * @param observer told of progress
     * @param jobs local lanes side by side, &gt;= 1; lane k &gt;= 1 gets an actor system of its own
     * @return the run's result and its study's
     * @throws RunFailure when the run itself fails
     */
    public ScenarioRunner.Outcome run(RunObserver observer, int jobs) throws RunFailure {
        return new ScenarioRunner(
                        system,
                        loaded.settings(),
                        observer,
                        jobs,
                        k -> VirtualSystem.create(Behaviors.empty(), name + "-" + k, loaded.system()),
                        distributor)
                .runWithStudy(loaded.scenario());
    }

    /**
     * One lane on the run's actor system, for design runs one at a time (a cluster worker's); close it before the
     * run.
     *
     * @param observer told of each design run's progress
     * @return the lane
     * @throws RunFailure when its run guardian does not start in time
     */
    public DesignRunLane lane(RunObserver observer) throws RunFailure {
        return new DesignRunLane(loaded.scenario(), system, loaded.settings(), observer);
    }

    /**
     * Closes the distributor and terminates the actor system, waiting for it ({@link VirtualSystem#terminate}).
     *
     * @throws Exception when the actor system does not terminate cleanly
     */
    @Override
    public void close() throws Exception {
        if (distributor != null) {
            distributor.close();
        }
        VirtualSystem.terminate(system, TERMINATE_IDLE);
    }

    /**
     * Closes the distributor and tells the actor system to terminate without waiting for it: after an
     * OutOfMemoryError an actor the error hit may never answer.
     */
    public void abandon() {
        if (distributor != null) {
            distributor.close();
        }
        system.terminate();
    }
}
