package org.netnslab.run;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.Scheduler;
import akka.actor.typed.javadsl.AskPattern;
import akka.japi.function.Function;
import akka.stream.Materializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netnslab.machine.Machine;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.machine.VirtualEngine;
import org.netnslab.netns.CreateResult;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.userns.UserNamespace;

/**
 * What one design's run works with: its {@link DesignGuardian}, under which everything the run spawns
 * lives and on whose materializer its streams run; requests to the model, awaited as long as the model
 * progresses; and the design's {@link Phases}. Used from the runner's thread only (it
 * blocks that thread, never a dispatcher's). Closing it stops the guardian and returns once the
 * guardian has terminated with everything under it.
 */
public final class DesignScope implements AutoCloseable {
    private final ActorSystem<?> system;
    private final RunSettings settings;
    private final String design;
    private final ActorRef<RunGuardian.Command> run;
    private final ActorRef<DesignGuardian.Command> guardian;
    private final Materializer materializer;
    private final Phases phases;
    private final Machine machine;

    /**
     * Starts a design's guardian under the run's.
     *
     * @param actorName the guardian's actor name, unique in the run
     * @throws RunFailure when the guardians do not answer in time
     */
    DesignScope(
            ActorSystem<?> system,
            ActorRef<RunGuardian.Command> run,
            RunSettings settings,
            RunObserver observer,
            String design,
            String actorName)
            throws RunFailure {
        this.system = system;
        this.settings = settings;
        this.design = design;
        this.run = run;
        this.machine = Machine.get(system);
        this.guardian = ask(run, r -> new RunGuardian.StartDesign(actorName, r), "starting the design's guardian");
        this.materializer = ask(guardian, DesignGuardian.GetMaterializer::new, "creating the design's materializer");
        this.phases = new Phases(spawn(Phases.starter(), "phase-starter"), settings, observer, design, machine);
    }

    /** @return the design's name */
    public String design() {
        return design;
    }

    /** @return the materializer for the design's streams: they stop, at the latest, with the design */
    public Materializer materializer() {
        return materializer;
    }

    /** @return the machine the design runs on: its clock, and in virtual execution its CPUs and locks */
    public Machine machine() {
        return machine;
    }

    /** @return the design's phases: progress, stall detection, waits that follow progress */
    public Phases phases() {
        return phases;
    }

    /** @return the longest wait for one model request */
    public Duration askTimeout() {
        return settings.askTimeout();
    }

    /** @return the actor system's scheduler, for asks made through model helpers */
    public Scheduler scheduler() {
        return system.scheduler();
    }

    /**
     * Spawns an actor under the design's guardian, on the model's dispatcher ({@link ModelDispatcher}): the
     * workload's actors too, so that a design run's actors share one pool of one thread per core, as the kernel's
     * work and the processes' share the CPUs. Live, a second pool put twice the threads on the cores and made every
     * send between a workload actor and the model a wake-up of the other pool (live TC1 went 2x slower).
     *
     * @param behavior its behaviour
     * @param name its name, unique among the design's actors
     * @param <T> its protocol
     * @return its ref
     * @throws RunFailure when the guardian does not answer in time
     */
    public <T> ActorRef<T> spawn(Behavior<T> behavior, String name) throws RunFailure {
        return ask(
                guardian,
                r -> new DesignGuardian.Spawn<>(behavior, name, ModelDispatcher.props(system), r),
                "spawning " + name);
    }

    /**
     * @return the model dispatcher's threads as an executor ({@link ModelDispatcher#executor}), for a listener's
     *     reads without a mailbox in live execution
     */
    public Executor modelExecutor() {
        return ModelDispatcher.executor(system);
    }

    /**
     * Spawns several actors under the design's guardian, on the model's dispatcher as {@link #spawn}, named
     * {@code prefix-0}, {@code prefix-1}, ...
     *
     * @param behaviors their behaviours, in order
     * @param prefix their names' prefix
     * @param <T> their protocol
     * @return their refs, in the same order
     * @throws RunFailure when the guardian does not answer in time
     */
    public <T> List<ActorRef<T>> spawnEach(List<Behavior<T>> behaviors, String prefix) throws RunFailure {
        List<CompletionStage<ActorRef<T>>> spawning = new ArrayList<>();
        for (int k = 0; k < behaviors.size(); k++) {
            Behavior<T> b = behaviors.get(k);
            String name = prefix + "-" + k;
            spawning.add(request(guardian, r -> new DesignGuardian.Spawn<>(b, name, ModelDispatcher.props(system), r)));
        }
        List<ActorRef<T>> refs = new ArrayList<>();
        for (CompletionStage<ActorRef<T>> s : spawning) {
            refs.add(await(s, "spawning the " + prefix + " actors"));
        }
        return refs;
    }

    /**
     * Asks without waiting, for requests sent together and awaited later with {@link #await}.
     *
     * @param to the actor asked
     * @param message builds the request around the reply address
     * @param <M> the actor's protocol
     * @param <R> the reply's type
     * @return the reply; Akka's own timeout on it is {@link #REQUEST_LIMIT}: the wait that follows progress
     *     ({@link #await}) is what ends a stalled request
     */
    public <M, R> CompletionStage<R> request(ActorRef<M> to, Function<ActorRef<R>, M> message) {
        return AskPattern.ask(to, message, REQUEST_LIMIT, system.scheduler());
    }

    /**
     * Akka's timeout on a request: a backstop only, near the longest delay Akka's live scheduler accepts
     * (2^31 ticks of 1 ms, about 24 days). A slow model (10 s grace periods, 10 s exit costs) is not an error.
     */
    public static final Duration REQUEST_LIMIT = Duration.ofDays(20);

    /**
     * Asks and waits for the reply.
     *
     * @param to the actor asked
     * @param message builds the request around the reply address
     * @param what what is asked, for the failure's message
     * @param <M> the actor's protocol
     * @param <R> the reply's type
     * @return the reply
     * @throws RunFailure when the model stops progressing before the reply comes, or the thread is interrupted
     */
    public <M, R> R ask(ActorRef<M> to, Function<ActorRef<R>, M> message, String what) throws RunFailure {
        return await(request(to, message), what);
    }

    /**
     * Waits for one model request as long as the model progresses (see {@link #outcome}).
     *
     * @param stage the request's answer
     * @param what what is awaited, for the failure's message
     * @param <T> the answer's type
     * @return the answer
     * @throws RunFailure when it fails, the model stops progressing ({@code netns-lab.run.ask-timeout}) or the
     *     thread is interrupted
     */
    public <T> T await(CompletionStage<T> stage, String what) throws RunFailure {
        try {
            return outcome(stage, what);
        } catch (ExecutionException e) {
            throw new RunFailure(design + ": " + what + " failed: " + e, e);
        }
    }

    /**
     * Creates one netns per owner (copy_net_ns with CLONE_NEWNET), all requested at once, and waits for
     * them as long as the model progresses.
     *
     * @param supervisor the design's supervisor
     * @param owners each netns's owning user namespace, in order
     * @return the handles, in the owners' order
     * @throws RunFailure naming the netns when a setup_net failed, or as {@link #await}
     */
    public List<NetnsHandle> createNetns(ActorRef<NamespaceSupervisor.Command> supervisor, List<UserNamespace> owners)
            throws RunFailure {
        List<CompletionStage<CreateResult>> creating = new ArrayList<>();
        for (UserNamespace owner : owners) {
            creating.add(request(supervisor, r -> new NamespaceSupervisor.CreateNetns(owner, r)));
        }
        List<NetnsHandle> netns = new ArrayList<>();
        for (CompletionStage<CreateResult> c : creating) {
            CreateResult r = await(c, "creating netns");
            if (r instanceof CreateResult.Failed f) {
                throw new RunFailure(design + ": creating netns " + f.netnsId() + " failed: " + f.reason());
            }
            netns.add((NetnsHandle) r);
        }
        return netns;
    }

    /**
     * Waits for {@code stage} however it ends, for callers that handle its failure themselves, as long as
     * the model progresses: a model step started ({@link Machine#modelSteps()}: CPU steps, grace periods,
     * setup and exit costs) or one still running ({@link Machine#busyUntil()}). A slow model is waited for;
     * the wait fails when {@code netns-lab.run.ask-timeout} passes (live: wall time; virtual: simulated time)
     * with neither, counted from the wait's start, the last step started or the last running step's end.
     *
     * @param stage an answer
     * @param what what is awaited, for the failure's message
     * @param <T> the answer's type
     * @return the answer
     * @throws ExecutionException when the stage failed
     * @throws RunFailure when the model stops progressing, deadlocks, or the thread is interrupted
     */
    public <T> T outcome(CompletionStage<T> stage, String what) throws ExecutionException, RunFailure {
        return outcome(stage, new Idle(what));
    }

    private <T> T outcome(CompletionStage<T> stage, Idle idle) throws ExecutionException, RunFailure {
        // Virtual: completed on the engine at the answer's instant. Akka's stage completes on a pool thread a
        // little later in wall time, and meanwhile the idle engine would advance to its next timer (the
        // request's own backstop) and call a prompt answer a stall.
        CompletableFuture<T> f =
                machine.isVirtual() ? org.netnslab.machine.SameThread.of(stage) : stage.toCompletableFuture();
        try {
            if (machine.isVirtual()) {
                machine.engine().runUntil(f::isDone, idle::check, Driver.IDLE_WALL.toNanos());
                return answer(f, idle);
            }
            long poll = Math.max(1, Math.min(settings.askTimeout().toMillis() / 4, 1000));
            while (true) {
                if (f.isDone()) {
                    return answer(f, idle);
                }
                try {
                    f.get(poll, TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    idle.check(machine.nanoTime()); // done or not: answer() reads it next round
                }
            }
        } catch (VirtualEngine.Stalled e) {
            throw new RunFailure(e.getMessage().startsWith(design) ? e.getMessage() : idle.message(e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure(design + ": interrupted while " + idle.what, e);
        }
    }

    /**
     * A completed answer; Akka's own timeout on it ({@link #REQUEST_LIMIT}) is reported as the stall it is.
     */
    private <T> T answer(CompletableFuture<T> f, Idle idle)
            throws ExecutionException, VirtualEngine.Stalled, InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TimeoutException) {
                idle.check(machine.nanoTime());
            }
            throw e;
        }
    }

    /**
     * Waits for {@code stage} as {@link #outcome} does, but a model that stops progressing is an answer, not
     * a failure: for waits whose not-ending is counted (a netns nothing will dismantle is {@code leaked}).
     *
     * @param stage an answer
     * @param what what is awaited, for a failure's message
     * @return true when the stage completed successfully, false when the model stopped progressing first
     * @throws RunFailure when the stage failed or the thread is interrupted
     */
    public boolean completesWhileProgressing(CompletionStage<?> stage, String what) throws RunFailure {
        Idle idle = new Idle(what);
        try {
            outcome(stage, idle);
            return true;
        } catch (ExecutionException e) {
            throw new RunFailure(design + ": " + what + " failed: " + e.getCause(), e);
        } catch (RunFailure e) {
            if (idle.fired) {
                return false;
            }
            throw e;
        }
    }

    /** The stall rule of one wait: {@code netns-lab.run.ask-timeout} with no model progress. */
    private final class Idle {
        private final String what;
        private final long started = machine.nanoTime();
        private long steps = machine.modelSteps();
        private long lastStep = started;
        /** Set when {@link #check} found the model stopped. */
        private boolean fired;

        Idle(String what) {
            this.what = what;
        }

        void check(long now) throws VirtualEngine.Stalled {
            long s = machine.modelSteps();
            if (s != steps) {
                steps = s;
                lastStep = now;
            }
            long since = Math.max(lastStep, machine.busyUntil());
            if (now - since > settings.askTimeout().toNanos()) {
                fired = true;
                throw new VirtualEngine.Stalled(message("the model made no progress (no step started or running) for "
                        + settings.askTimeout().toMillis() + " ms"
                        + (machine.isVirtual() ? " of simulated time" : "")));
            }
        }

        String message(String why) {
            return design + ": " + what + " failed: " + why + " (netns-lab.run.ask-timeout = "
                    + settings.askTimeout().toMillis()
                    + " ms; raise it if the model is slower than that between steps)";
        }
    }

    /**
     * Stops the design's guardian, and so every actor and stream of the design, and waits until it has
     * terminated.
     *
     * @throws RunFailure when the guardian is not seen terminated in time
     */
    @Override
    public void close() throws RunFailure {
        this.<RunGuardian.Command, Done>ask(
                run, r -> new RunGuardian.StopDesign(guardian, r), "stopping the design's actors");
    }
}
