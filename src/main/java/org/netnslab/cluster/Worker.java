package org.netnslab.cluster;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.netnslab.run.RunObserver;
import org.netnslab.scenario.DesignRun;
import org.netnslab.scenario.DesignRunLane;
import org.netnslab.scenario.LoadedRun;
import org.netnslab.scenario.ScenarioRun;

/**
 * A worker node's one actor: registers with the cluster's {@link Receptionist} under {@link #KEY}, answers a
 * coordinator's {@link Offer} with {@link Coordinator.Ready} (its version and the fingerprint of what it
 * loaded, {@link RunInputs#fingerprint}) or {@link Coordinator.Refused}, then pulls design runs one at a time
 * ({@link Coordinator.Pull}, work pulling) and runs each as {@code run --jobs 1} does: on one lane of its own
 * {@link ScenarioRun}, on a thread of its own (a design run drives its engine and must not hold this actor's
 * dispatcher). When the coordinator's run is over ({@link Finished}), or the coordinator refused it or is gone, the
 * worker drops its lane and ends, saying how ({@link WorkerNode.Ending}); its node serves the next coordinator.
 */
public final class Worker extends AbstractBehavior<Worker.Command> {
    /** The receptionist's key of every worker. */
    public static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "netns-lab-worker");

    /** The worker's protocol. */
    public sealed interface Command
            permits Offer, RunDesign, Rejected, Finished, Leave, Loaded, RunDone, CoordinatorGone {}

    /**
     * A coordinator offers its run.
     *
     * @param inputs what to load
     * @param coordinator who to answer
     */
    public record Offer(RunInputs inputs, ActorRef<Coordinator.Command> coordinator)
            implements Command, ClusterMessage {}

    /**
     * Run one design run.
     *
     * @param run the design run (of the plan both loaded)
     * @param label what progress lines call it
     */
    public record RunDesign(DesignRun run, String label) implements Command, ClusterMessage {}

    /**
     * The coordinator will not use this worker.
     *
     * @param reason why, one line
     * @param differs whether for what the worker has (another version, other inputs): fix the worker's side
     */
    public record Rejected(String reason, boolean differs) implements Command, ClusterMessage {}

    /** The coordinator has every design run's result: its run is over. */
    public enum Finished implements Command, ClusterMessage {
        INSTANCE
    }

    /**
     * This worker's node leaves the cluster (the worker was stopped): the worker stops watching its coordinator first,
     * so that the coordinator, ending later, does not notify a node that is gone and wait for its answer.
     */
    enum Leave implements Command {
        INSTANCE
    }

    private record Loaded(ScenarioRun run, DesignRunLane lane, String fingerprint, Throwable failure)
            implements Command {}

    private record RunDone(int index, WireOutcome outcome, Throwable failure) implements Command {}

    private enum CoordinatorGone implements Command {
        INSTANCE
    }

    private final RunLoader loader;
    private final String version;
    private final String address;
    private final Consumer<String> say;
    private final Consumer<WorkerNode.Ending> ended;
    private final RunObserver observer;
    private final ExecutorService laneThread;
    private ActorRef<Coordinator.Command> coordinator;
    private ScenarioRun run;
    private DesignRunLane lane;
    private boolean running;

    /**
     * @param loader loads the coordinator's inputs on this node
     * @param version this node's netns-lab version (the coordinator refuses another)
     * @param address this node's host:port, for lines
     * @param say prints a line about the worker
     * @param ended told {@link WorkerNode.Ending#TAKEN} when the worker takes a coordinator's offer, then how it
     *     ended, once its lane is dropped
     * @param observer told of the design runs' progress on this worker's lane (an interrupt's line names them)
     * @return the behaviour
     */
    public static Behavior<Command> create(
            RunLoader loader,
            String version,
            String address,
            Consumer<String> say,
            Consumer<WorkerNode.Ending> ended,
            RunObserver observer) {
        return Behaviors.setup(ctx -> new Worker(ctx, loader, version, address, say, ended, observer));
    }

    private Worker(
            ActorContext<Command> ctx,
            RunLoader loader,
            String version,
            String address,
            Consumer<String> say,
            Consumer<WorkerNode.Ending> ended,
            RunObserver observer) {
        super(ctx);
        this.observer = observer;
        this.loader = loader;
        this.version = version;
        this.address = address;
        this.say = say;
        this.ended = ended;
        this.laneThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "netns-lab-worker-lane");
            t.setDaemon(true);
            return t;
        });
        ctx.getSystem().receptionist().tell(Receptionist.register(KEY, ctx.getSelf()));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Offer.class, this::onOffer)
                .onMessage(Loaded.class, this::onLoaded)
                .onMessage(RunDesign.class, this::onRun)
                .onMessage(RunDone.class, this::onRunDone)
                .onMessage(Rejected.class, this::onRejected)
                .onMessageEquals(Finished.INSTANCE, this::onFinished)
                .onMessageEquals(Leave.INSTANCE, this::onLeave)
                .onMessageEquals(CoordinatorGone.INSTANCE, this::onCoordinatorGone)
                .build();
    }

    private Behavior<Command> onOffer(Offer o) {
        if (coordinator != null) {
            o.coordinator()
                    .tell(new Coordinator.Refused(
                            getContext().getSelf(), address, "already working for another coordinator"));
            return this;
        }
        coordinator = o.coordinator();
        getContext().watchWith(coordinator, CoordinatorGone.INSTANCE);
        ended.accept(WorkerNode.Ending.TAKEN);
        say.accept("coordinator " + coordinator.path().address() + " offers "
                + o.inputs().file() + ": loading it");
        CompletableFuture<Loaded> f = CompletableFuture.supplyAsync(
                () -> {
                    LoadedRun p = loader.load(o.inputs());
                    if (p == null) {
                        throw new IllegalStateException(notLoaded(o.inputs()));
                    }
                    String fp;
                    try {
                        fp = o.inputs()
                                .fingerprint(version, p.system(), p.scenario().overrides());
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException("cannot read " + e.getMessage(), e);
                    }
                    ScenarioRun r = ScenarioRun.open(p, "netns-lab-worker", null);
                    try {
                        return new Loaded(r, r.lane(observer), fp, null);
                    } catch (org.netnslab.run.RunFailure e) { // refused with its message, as a failed load is
                        IllegalStateException refused = new IllegalStateException(e.getMessage(), e);
                        try {
                            r.close();
                        } catch (Exception closing) {
                            refused.addSuppressed(closing);
                        }
                        throw refused;
                    }
                },
                laneThread);
        getContext().pipeToSelf(f, (l, e) -> e == null ? l : new Loaded(null, null, null, e));
        return this;
    }

    /**
     * @param in the coordinator's inputs, which this worker could not load (its stderr says why)
     * @return why, for the coordinator's line: a file the worker does not have at that path, named with the folder a
     *     relative path is read from, else the scenario file
     */
    static String notLoaded(RunInputs in) {
        String folder = " (a relative path is read from the worker's working folder, "
                + java.nio.file.Path.of("").toAbsolutePath() + ")";
        if (!java.nio.file.Files.isRegularFile(java.nio.file.Path.of(in.file()))) {
            return "this worker has no scenario file " + in.file() + folder;
        }
        if (!in.config().isEmpty() && !java.nio.file.Files.isRegularFile(java.nio.file.Path.of(in.config()))) {
            return "this worker has no --config file " + in.config() + folder;
        }
        return "this worker could not load " + in.file() + " (see its stderr)";
    }

    private Behavior<Command> onLoaded(Loaded m) {
        if (m.failure() != null) {
            Throwable e =
                    m.failure() instanceof java.util.concurrent.CompletionException c ? c.getCause() : m.failure();
            coordinator.tell(new Coordinator.Refused(getContext().getSelf(), address, e.getMessage()));
            say.accept("refused the run: " + e.getMessage());
            return end(WorkerNode.Ending.REFUSED);
        }
        run = m.run();
        lane = m.lane();
        coordinator.tell(new Coordinator.Ready(getContext().getSelf(), address, version, m.fingerprint()));
        coordinator.tell(new Coordinator.Pull(getContext().getSelf()));
        return this;
    }

    private Behavior<Command> onRun(RunDesign m) {
        if (lane == null || running) { // a second run while one runs would break the pull protocol: not sent
            return this;
        }
        running = true;
        say.accept("running " + m.label());
        CompletableFuture<WireOutcome> f = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return WireOutcome.of(lane.run(m.run(), m.label()));
                    } catch (org.netnslab.run.RunFailure e) {
                        throw new java.util.concurrent.CompletionException(e);
                    }
                },
                laneThread);
        getContext().pipeToSelf(f, (o, e) -> new RunDone(m.run().index(), o, e));
        return this;
    }

    private Behavior<Command> onRunDone(RunDone m) {
        running = false;
        if (coordinator == null) {
            return this;
        }
        if (m.failure() != null) {
            Throwable e =
                    m.failure() instanceof java.util.concurrent.CompletionException c ? c.getCause() : m.failure();
            coordinator.tell(
                    new Coordinator.RunFailed(getContext().getSelf(), m.index(), String.valueOf(e.getMessage())));
            return end(WorkerNode.Ending.FAILED);
        }
        coordinator.tell(new Coordinator.Result(getContext().getSelf(), m.index(), m.outcome()));
        coordinator.tell(new Coordinator.Pull(getContext().getSelf()));
        served++;
        return this;
    }

    /** Design runs this worker ran for its coordinator. */
    private int served;

    private Behavior<Command> onRejected(Rejected m) {
        // refused: its version or inputs differ (exit 2 with --once); else not taken: no run was left for it
        say.accept(
                (m.differs() ? "the coordinator refused this worker: " : "the coordinator did not take this worker: ")
                        + m.reason());
        return end(m.differs() ? WorkerNode.Ending.REFUSED : WorkerNode.Ending.FAILED);
    }

    private Behavior<Command> onFinished() {
        if (served == 0) { // taken, but every design run went to others: as a coordinator that needed none
            say.accept("the coordinator's run is done, with no design run for this worker (it needed none)");
            return end(WorkerNode.Ending.FAILED);
        }
        say.accept("the coordinator's run is done");
        return end(WorkerNode.Ending.SERVED);
    }

    private Behavior<Command> onLeave() {
        if (coordinator != null) {
            getContext().unwatch(coordinator);
        }
        return end(WorkerNode.Ending.FAILED);
    }

    private Behavior<Command> onCoordinatorGone() {
        // Terminated comes both when the coordinator ended and when the cluster removed one side as unreachable
        // (a paused or cut-off worker): this side cannot tell which
        say.accept("lost the coordinator before its run was done: it ended, or the cluster removed this worker as"
                + " unreachable (then the coordinator hands its design runs to others)");
        return end(WorkerNode.Ending.FAILED);
    }

    /** Drops the lane, then says how this worker ended; the worker stops. */
    private Behavior<Command> end(WorkerNode.Ending how) {
        coordinator = null;
        laneThread.execute(this::dropLane);
        laneThread.execute(() -> ended.accept(how));
        laneThread.shutdown();
        return Behaviors.stopped();
    }

    /** On the lane thread: stops the lane's run guardian and terminates its actor system. */
    private void dropLane() {
        DesignRunLane l = lane;
        ScenarioRun r = run;
        lane = null;
        run = null;
        if (l != null) {
            try {
                l.close();
                r.close();
            } catch (Exception e) {
                say.accept("dropping the lane: " + e);
            }
        }
    }
}
