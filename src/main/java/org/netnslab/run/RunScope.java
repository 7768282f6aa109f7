package org.netnslab.run;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.netnslab.machine.Machine;
import org.netnslab.machine.VirtualEngine;

/**
 * One scenario run's actors: a {@link RunGuardian} under the actor system's /system guardian, and a
 * {@link DesignScope} per design under it. Closing it stops the run guardian and waits for its
 * PostStop. Used from the runner's thread only.
 */
public final class RunScope implements AutoCloseable {
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final ActorSystem<?> system;
    private final RunSettings settings;
    private final RunObserver observer;
    private final CompletableFuture<Done> stopped = new CompletableFuture<>();
    private final ActorRef<RunGuardian.Command> guardian;
    private int designs;

    /**
     * Spawns the run's guardian.
     *
     * @param system the actor system the model runs on
     * @param settings the runner's settings
     * @param observer told of progress
     * @throws RunFailure when the guardian does not start within {@code netns-lab.run.ask-timeout}
     */
    public RunScope(ActorSystem<?> system, RunSettings settings, RunObserver observer) throws RunFailure {
        this.system = system;
        this.settings = settings;
        this.observer = observer;
        CompletableFuture<Done> started = new CompletableFuture<>();
        this.guardian = system.systemActorOf(
                RunGuardian.create(started, stopped), "netns-lab-run-" + RUNS.incrementAndGet(), Props.empty());
        // systemActorOf starts the actor asynchronously, through the /system guardian on Akka's internal
        // dispatcher (real threads). Virtual, a first ask could otherwise meet an engine with nothing to run
        // but that ask's own timeout, which it would fire at once: wait until the guardian has started
        // (no timed event is pending here, so the engine waits for the internal thread).
        awaitGuardian(started, "starting the run's guardian");
    }

    /**
     * @param design the design's name
     * @return a scope for running it; close it before opening the next
     * @throws RunFailure when the guardians do not answer in time
     */
    public DesignScope design(String design) throws RunFailure {
        return new DesignScope(system, guardian, settings, observer, design, "design-" + (designs++));
    }

    /**
     * Stops the run guardian and waits for it to stop.
     *
     * @throws RunFailure when it does not stop within {@code netns-lab.run.ask-timeout}
     */
    @Override
    public void close() throws RunFailure {
        guardian.tell(RunGuardian.Stop.INSTANCE);
        awaitGuardian(stopped, "stopping the run's actors");
    }

    /**
     * Waits for the run guardian's start or stop, at most {@code netns-lab.run.ask-timeout}.
     *
     * @param what what is awaited, for the failure's message
     * @throws RunFailure when it does not come in time, or the thread is interrupted
     */
    private void awaitGuardian(CompletableFuture<Done> f, String what) throws RunFailure {
        try {
            Driver.get(Machine.get(system), f, settings.askTimeout());
        } catch (TimeoutException e) {
            throw new RunFailure(
                    what + " failed: no answer within " + settings.askTimeout().toMillis()
                            + " ms (netns-lab.run.ask-timeout; raise it on a slow or busy machine)",
                    e);
        } catch (ExecutionException | VirtualEngine.Stalled e) {
            throw new RunFailure(what + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while " + what, e);
        }
    }
}
