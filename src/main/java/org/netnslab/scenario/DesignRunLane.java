package org.netnslab.scenario;

import akka.actor.typed.ActorSystem;
import java.util.List;
import org.netnslab.design.Design;
import org.netnslab.machine.Machine;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunScope;
import org.netnslab.run.RunSettings;

/**
 * One lane of design runs: an actor system and its run guardian ({@link RunScope}), on which a scenario's
 * design runs ({@link DesignRun}) run one after the other, each on a fresh machine and under its own
 * design guardian. {@code --jobs N} has N of them ({@link Lanes}); a cluster worker has one. Used from one
 * thread at a time (it drives the actor system's engine); close it to stop the run guardian.
 */
public final class DesignRunLane implements AutoCloseable {
    private final Scenario scenario;
    private final ActorSystem<?> system;
    private final RunObserver observer;
    private final RunScope scope;
    private final DesignRunner runner;
    private final List<List<Design>> atSample;

    /**
     * Spawns the lane's run guardian.
     *
     * @param scenario the validated scenario whose design runs it runs
     * @param system the lane's actor system, of the scenario's execution
     * @param settings the runner's settings
     * @param observer told of each run's progress
     * @throws RunFailure when the run guardian does not start in time
     */
    public DesignRunLane(Scenario scenario, ActorSystem<?> system, RunSettings settings, RunObserver observer)
            throws RunFailure {
        this.scenario = scenario;
        this.system = system;
        this.observer = observer;
        this.scope = new RunScope(system, settings, observer);
        this.runner = scenario.workload().runner(scenario.scale());
        this.atSample = scenario.sensitivity().samples() == 0
                ? List.of(scenario.designs())
                : scenario.sensitivity().designs(scenario);
    }

    /** @return the lane's actor system */
    public ActorSystem<?> system() {
        return system;
    }

    /**
     * Runs one design run: a fresh machine (virtual: CPUs, locks, jitter seeded {@code random-seed +
     * replicate}), the design's guardian, its clocks.
     *
     * @param r the design run, one of {@link DesignRun#plan} of this lane's scenario
     * @param label what progress lines call it
     * @return its outcome
     * @throws RunFailure when it fails
     */
    public DesignRunOutcome run(DesignRun r, String label) throws RunFailure {
        Design d = atSample.get(r.sample()).get(r.design());
        Machine machine = Machine.get(system);
        observer.designStarting(label);
        if (machine.isVirtual()) { // a fresh machine per design run: its figures do not depend on the run order
            machine.configure(
                    scenario.execution().machineFor(r.replicate(), r.cpus()),
                    d.model().costs().mutexHandoff().toNanos());
        }
        long wall0 = System.nanoTime();
        long sim0 = machine.isVirtual() ? machine.engine().now() : 0;
        long events0 = machine.isVirtual() ? machine.engine().eventsRun() : 0;
        DesignResult result;
        try (DesignScope ds = scope.design(label)) {
            result = runner.run(d, ds);
        }
        double wallS = (System.nanoTime() - wall0) / 1e9;
        RunResult.Clocks clocks = machine.isVirtual()
                ? new RunResult.Clocks(
                        wallS,
                        (machine.engine().now() - sim0) / 1e9,
                        machine.engine().eventsRun() - events0)
                : new RunResult.Clocks(wallS, Double.NaN, -1);
        observer.designDone(label);
        return new DesignRunOutcome(result, clocks);
    }

    /**
     * Stops the lane's run guardian and waits for it.
     *
     * @throws RunFailure when it does not stop in time
     */
    @Override
    public void close() throws RunFailure {
        scope.close();
    }
}
