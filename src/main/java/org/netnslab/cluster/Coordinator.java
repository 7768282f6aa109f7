package org.netnslab.cluster;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.actor.typed.receptionist.Receptionist;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.netnslab.scenario.DesignRun;
import org.netnslab.scenario.DesignRunOutcome;

/**
 * The coordinator of a cluster run: finds workers through the {@link Receptionist} ({@link Worker#KEY}),
 * offers each the run ({@link Worker.Offer}), accepts those of the same version that loaded the same run
 * (same {@link RunInputs#fingerprint}) and refuses the others with a line saying why, then hands out the
 * design runs one at a time to whichever accepted worker asks ({@link Pull}: work pulling), in plan order.
 * A worker that leaves or becomes unreachable gives its run back to the queue's front; another worker runs
 * it (a design run is deterministic: the same figures). When every run is done, the workers hear so
 * ({@link Worker.Finished}). When no accepted worker is left, or none came within {@code wait-for-workers}, the
 * run's future completes with what is done and what is left, for the local lanes. A design run that failed on a
 * worker fails the run (it would fail anywhere).
 */
public final class Coordinator extends AbstractBehavior<Coordinator.Command> {
    /** The coordinator's protocol. */
    public sealed interface Command
            permits Ready, Refused, Pull, Result, RunFailed, WorkersListed, WorkerGone, WaitedForWorkers {}

    /**
     * A worker loaded the run.
     *
     * @param worker the worker
     * @param address its host:port
     * @param version its netns-lab version
     * @param fingerprint what it loaded ({@link RunInputs#fingerprint})
     */
    public record Ready(ActorRef<Worker.Command> worker, String address, String version, String fingerprint)
            implements Command, ClusterMessage {}

    /**
     * A worker could not load the run.
     *
     * @param worker the worker
     * @param address its host:port
     * @param reason why
     */
    public record Refused(ActorRef<Worker.Command> worker, String address, String reason)
            implements Command, ClusterMessage {}

    /**
     * A worker asks for its next design run.
     *
     * @param worker the worker
     */
    public record Pull(ActorRef<Worker.Command> worker) implements Command, ClusterMessage {}

    /**
     * A design run's outcome.
     *
     * @param worker the worker that ran it
     * @param index the run's {@link DesignRun#index}
     * @param outcome what it measured
     */
    public record Result(ActorRef<Worker.Command> worker, int index, WireOutcome outcome)
            implements Command, ClusterMessage {}

    /**
     * A design run failed on a worker.
     *
     * @param worker the worker
     * @param index the run's index
     * @param reason the failure
     */
    public record RunFailed(ActorRef<Worker.Command> worker, int index, String reason)
            implements Command, ClusterMessage {}

    private record WorkersListed(Set<ActorRef<Worker.Command>> workers) implements Command {}

    private record WorkerGone(ActorRef<Worker.Command> worker) implements Command {}

    private enum WaitedForWorkers implements Command {
        INSTANCE
    }

    /**
     * How the coordinator ended.
     *
     * @param outcomes each run's outcome by index; null for the runs left
     * @param left the runs no worker did, in plan order (empty when the workers did them all)
     * @param why why runs are left, one line ("" when none are)
     */
    public record Done(DesignRunOutcome[] outcomes, List<DesignRun> left, String why) {}

    private final RunInputs inputs;
    private final String version;
    private final String fingerprint;
    private final List<DesignRun> plan;
    private final java.util.function.IntFunction<String> label;
    private final CompletableFuture<Done> done;
    private final Consumer<String> say;
    private final DesignRunOutcome[] outcomes;
    private final TreeMap<Integer, DesignRun> pending = new TreeMap<>();
    private final Map<ActorRef<Worker.Command>, String> offered = new HashMap<>();
    private final Map<ActorRef<Worker.Command>, String> accepted = new LinkedHashMap<>();
    private final Map<ActorRef<Worker.Command>, Integer> running = new HashMap<>();
    private final ArrayDeque<ActorRef<Worker.Command>> idle = new ArrayDeque<>();
    private final Set<ActorRef<Worker.Command>> seen = new HashSet<>();
    /** The workers refused (or that could not load the run): why, by address, in the order they were. */
    private final Map<String, String> refused = new LinkedHashMap<>();

    private int finished;

    /**
     * @param inputs the run's inputs, offered to every worker
     * @param version this node's version
     * @param fingerprint this node's {@link RunInputs#fingerprint}
     * @param plan every design run
     * @param label each run's label, by index
     * @param waitForWorkers how long to wait for a first accepted worker
     * @param say prints a line
     * @param done completed when every run is done, or with what is left for the local lanes
     * @return the behaviour
     */
    public static Behavior<Command> create(
            RunInputs inputs,
            String version,
            String fingerprint,
            List<DesignRun> plan,
            java.util.function.IntFunction<String> label,
            Duration waitForWorkers,
            Consumer<String> say,
            CompletableFuture<Done> done) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
                new Coordinator(ctx, timers, inputs, version, fingerprint, plan, label, waitForWorkers, say, done)));
    }

    private Coordinator(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            RunInputs inputs,
            String version,
            String fingerprint,
            List<DesignRun> plan,
            java.util.function.IntFunction<String> label,
            Duration waitForWorkers,
            Consumer<String> say,
            CompletableFuture<Done> done) {
        super(ctx);
        this.inputs = inputs;
        this.version = version;
        this.fingerprint = fingerprint;
        this.plan = plan;
        this.label = label;
        this.say = say;
        this.done = done;
        this.outcomes = new DesignRunOutcome[plan.size()];
        plan.forEach(r -> pending.put(r.index(), r));
        ActorRef<Receptionist.Listing> listings = ctx.messageAdapter(
                Receptionist.Listing.class, l -> new WorkersListed(l.getServiceInstances(Worker.KEY)));
        ctx.getSystem().receptionist().tell(Receptionist.subscribe(Worker.KEY, listings));
        timers.startSingleTimer(WaitedForWorkers.INSTANCE, waitForWorkers);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(WorkersListed.class, this::onListed)
                .onMessage(Ready.class, this::onReady)
                .onMessage(Refused.class, this::onRefused)
                .onMessage(Pull.class, this::onPull)
                .onMessage(Result.class, this::onResult)
                .onMessage(RunFailed.class, this::onRunFailed)
                .onMessage(WorkerGone.class, this::onGone)
                .onMessageEquals(WaitedForWorkers.INSTANCE, this::onWaited)
                .build();
    }

    private Behavior<Command> onListed(WorkersListed m) {
        for (ActorRef<Worker.Command> w : m.workers()) {
            if (seen.add(w)) {
                getContext().watchWith(w, new WorkerGone(w));
                offered.put(w, String.valueOf(w.path().address()));
                w.tell(new Worker.Offer(inputs, getContext().getSelf()));
            }
        }
        for (ActorRef<Worker.Command> w : List.copyOf(accepted.keySet())) { // deregistered: its node left
            if (!m.workers().contains(w)) {
                getContext().getSelf().tell(new WorkerGone(w));
            }
        }
        return this;
    }

    /**
     * @param workerVersion a worker's version ({@code netns-lab X (code D)}: its classes' digest)
     * @param workerFingerprint what it loaded ({@link RunInputs#fingerprint})
     * @param version this coordinator's
     * @param fingerprint this coordinator's
     * @return why the worker is refused, or null when it ran the same code on the same inputs
     */
    static String refusal(String workerVersion, String workerFingerprint, String version, String fingerprint) {
        if (!workerVersion.equals(version)) {
            String release = version.replaceFirst(" \\(code [^)]*\\)$", "");
            return "it runs " + workerVersion + ", this coordinator " + version
                    + (workerVersion.startsWith(release + " (code ")
                            ? " (one version built from other code: build both from one commit)"
                            : "");
        }
        return workerFingerprint.equals(fingerprint)
                ? null
                : "the worker read other inputs than the coordinator: "
                        + RunInputs.differs(workerFingerprint, fingerprint) + " (fingerprints: worker "
                        + workerFingerprint + ", coordinator " + fingerprint + ")";
    }

    private Behavior<Command> onReady(Ready m) {
        offered.remove(m.worker());
        String why = refusal(m.version(), m.fingerprint(), version, fingerprint);
        if (why != null) {
            say.accept("worker " + m.address() + " refused: " + why);
            refused.put(m.address(), why);
            m.worker().tell(new Worker.Rejected(why, true));
            return this;
        }
        accepted.put(m.worker(), m.address());
        say.accept("worker " + m.address() + " joined (" + accepted.size() + " working)");
        return this;
    }

    private Behavior<Command> onRefused(Refused m) {
        offered.remove(m.worker());
        say.accept("worker " + m.address() + " cannot take the run: " + m.reason());
        refused.put(m.address(), m.reason());
        return this;
    }

    private Behavior<Command> onPull(Pull m) {
        if (accepted.containsKey(m.worker()) && !running.containsKey(m.worker())) {
            idle.remove(m.worker());
            idle.add(m.worker());
            dispatch();
        }
        return this;
    }

    /** Gives the queue's first runs to idle workers. */
    private void dispatch() {
        while (!idle.isEmpty() && !pending.isEmpty()) {
            ActorRef<Worker.Command> w = idle.poll();
            DesignRun r = pending.pollFirstEntry().getValue();
            running.put(w, r.index());
            say.accept("[" + label.apply(r.index()) + "] on worker " + accepted.get(w));
            w.tell(new Worker.RunDesign(r, label.apply(r.index())));
        }
    }

    private Behavior<Command> onResult(Result m) {
        Integer was = running.get(m.worker());
        if (was != null && was == m.index()) {
            running.remove(m.worker());
        }
        if (outcomes[m.index()] == null) { // a run given back and run twice gives the same figures: keep the first
            try {
                outcomes[m.index()] = m.outcome().outcome();
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
                return Behaviors.stopped();
            }
            pending.remove(m.index());
            finished++;
            say.accept("[" + label.apply(m.index()) + "] done on worker " + accepted.getOrDefault(m.worker(), "(gone)")
                    + " (" + finished + "/" + plan.size() + ")");
        }
        if (finished == plan.size()) {
            done.complete(new Done(outcomes, List.of(), ""));
            for (ActorRef<Worker.Command> w : present()) {
                w.tell(Worker.Finished.INSTANCE);
            }
            return Behaviors.stopped();
        }
        return this;
    }

    private Behavior<Command> onRunFailed(RunFailed m) {
        done.completeExceptionally(new org.netnslab.run.RunFailure("design run " + label.apply(m.index())
                + " failed on worker " + accepted.getOrDefault(m.worker(), "?") + ": " + m.reason()));
        return Behaviors.stopped();
    }

    private Behavior<Command> onGone(WorkerGone m) {
        offered.remove(m.worker());
        String address = accepted.remove(m.worker());
        idle.remove(m.worker());
        Integer r = running.remove(m.worker());
        if (address == null) {
            return this;
        }
        if (r != null && outcomes[r] == null) {
            pending.put(r, plan.get(r));
            say.accept("worker " + address + " left during " + label.apply(r) + ": the run goes back to the queue");
        } else {
            say.accept("worker " + address + " left");
        }
        if (accepted.isEmpty()) {
            return leftLocally("the last worker left");
        }
        dispatch();
        return this;
    }

    private Behavior<Command> onWaited() {
        if (accepted.isEmpty() && finished == 0) {
            return leftLocally(
                    refused.isEmpty()
                            ? "no worker joined within the wait (netns-lab.cluster.wait-for-workers; a worker"
                                    + " --joins the address exactly as --cluster spells it: 127.0.0.1 and localhost"
                                    + " differ; and both or neither use TLS, akka.remote.artery.transport = tls-tcp)"
                            : refusedOnly());
        }
        return this;
    }

    /** @return why no worker works when every one that joined was refused, e.g. {@code 1 worker joined and ...} */
    private String refusedOnly() {
        StringBuilder b = new StringBuilder();
        refused.forEach((address, why) -> b.append(b.length() == 0 ? "" : "; ")
                .append(address)
                .append(": ")
                .append(why));
        return refused.size()
                + (refused.size() == 1 ? " worker joined and was refused" : " workers joined and were" + " refused")
                + " (" + b + "), and no other within the wait (netns-lab.cluster.wait-for-workers)";
    }

    private Behavior<Command> leftLocally(String why) {
        List<DesignRun> left = new ArrayList<>();
        for (DesignRun r : plan) {
            if (outcomes[r.index()] == null) {
                left.add(r);
            }
        }
        done.complete(new Done(outcomes, left, why));
        for (ActorRef<Worker.Command> w : offered.keySet()) {
            w.tell(new Worker.Rejected("the coordinator runs the rest itself", false));
        }
        return Behaviors.stopped();
    }

    /** @return the workers offered the run or working on it, not gone */
    private Set<ActorRef<Worker.Command>> present() {
        Set<ActorRef<Worker.Command>> all = new HashSet<>(offered.keySet());
        all.addAll(accepted.keySet());
        return all;
    }
}
