package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.ChildFailed;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.ReceiveBuilder;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.netnslab.machine.Clock;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.netns.NetNamespace.Command;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;

/**
 * The netns actor once its ops are being torn down, on either path of ops_undo_list: <b>dismantling</b>
 * (its last active reference is gone: on cleanup_list, then in a batch, until the worker drops its passive
 * reference and net_free runs) or <b>undoing</b> (an init failed: its own {@link OpsUndo} child undoes the
 * ops already run, then the creator gets the error and net_free runs). Both answer the steps an
 * {@link OpsUndo} asks for; an exit that waits for RCU or retries does so in {@link Exiting}. Only the
 * actor's own behaviours touch it.
 */
final class NetnsTeardown {
    private static final Duration RETRY = Duration.ofMillis(1);

    private final ActorContext<Command> ctx;
    private final Net net;
    /** The ops whose init ran: every op once set up, those before the failing one when undoing. */
    private final List<PernetOperations> initialised;

    private final long lastRefNanos;
    /** The RCU answers' adapter, made at the first exit that waits for RCU: most netns never need one. */
    private ActorRef<Done> rcuDone;

    private int passive = 1;

    /**
     * @param initialised the ops whose init ran, in registration order
     * @param lastRefNanos when the last active reference was dropped ({@link Clock#nanoTime()}), 0 if never
     */
    NetnsTeardown(ActorContext<Command> ctx, Net net, List<PernetOperations> initialised, long lastRefNanos) {
        this.ctx = ctx;
        this.net = net;
        this.initialised = initialised;
        this.lastRefNanos = lastRefNanos;
    }

    /**
     * @param meanwhile what the netns answers besides the teardown steps, also while an exit waits; added after
     *     every case of the teardown's own, so it may end in a catch-all
     * @return the dismantling behaviour
     */
    Behavior<Command> dismantling(UnaryOperator<ReceiveBuilder<Command>> meanwhile) {
        return new Dismantling(meanwhile);
    }

    /**
     * The undo of a failed setup_net: the same {@link OpsUndo} run a cleanup batch uses, over this netns
     * alone and the ops set up; the lifecycle lock stays held until it is over (copy_net_ns). Its exits
     * spend no {@code netns.exit-cost} and are not reported as cleanup progress.
     *
     * @param reason the failing op and its error, for the creator
     * @param created the creator
     * @param parent told that the setup is over once the undo is
     * @param timeout the run's timeout
     * @return the undoing behaviour
     */
    Behavior<Command> undoSetup(
            String reason, ActorRef<CreateResult> created, NetnsEnv.Parent parent, Duration timeout) {
        ActorRef<OpsUndo.Command> undo = ModelDispatcher.spawn(
                ctx,
                OpsUndo.create(
                        initialised,
                        List.of(new OpsUndo.Member(net.id(), ctx.getSelf())),
                        net.rcu,
                        ExitWork.NONE,
                        LifecycleProbe.NONE,
                        timeout,
                        ctx.messageAdapter(
                                OpsUndo.Report.class,
                                r -> r instanceof OpsUndo.Finished
                                        ? NetNamespace.UndoReport.FINISHED
                                        : NetNamespace.UndoReport.DATA_FREED)),
                "setup-undo");
        ctx.watch(undo);
        return new Undoing(reason, created, parent);
    }

    /** Runs {@code hook} for every initialised op in teardown order. */
    private void inTeardownOrder(Consumer<PernetOperations> hook) {
        TeardownOrder.of(initialised.size()).forEach(i -> hook.accept(initialised.get(i)));
    }

    /**
     * Carries out what is left of an exit without blocking: asks RCU, or schedules a retry, and waits in
     * {@link Exiting}; once nothing is left, answers {@code replyTo} and returns to {@code resume}.
     */
    private Behavior<Command> continueExit(
            ExitAction action, ActorRef<NetNamespace.StepDone> replyTo, Teardown resume) {
        if (action instanceof ExitAction.AfterRcu r && (r.synchronize() || r.barrier())) {
            if (rcuDone == null) {
                rcuDone = ctx.messageAdapter(Done.class, d -> NetNamespace.RcuDone.INSTANCE);
            }
            net.rcu.tell(r.synchronize() ? new RcuDomain.Synchronize(false, rcuDone) : new RcuDomain.Barrier(rcuDone));
            ExitAction rest = new ExitAction.AfterRcu(false, r.synchronize() && r.barrier(), r.then());
            return new Exiting(rest, replyTo, resume);
        }
        if (action instanceof ExitAction.AfterRcu r) {
            r.then().run();
        } else if (action instanceof ExitAction.RetryUntil u && !u.attempt().getAsBoolean()) {
            ctx.scheduleOnce(RETRY, ctx.getSelf(), NetNamespace.RetryTick.INSTANCE);
            return new Exiting(u, replyTo, resume);
        }
        replyTo.tell(new NetNamespace.StepDone(net.id()));
        return resume;
    }

    /** net_free: the ops' net_free hooks (teardown order), the report, and the actor stops (freed). */
    private Behavior<Command> netFree() {
        inTeardownOrder(op -> op.netFree(net));
        net.probe.netFreed(lastRefNanos == 0 ? 0 : Clock.nanoTime() - lastRefNanos, net.sockInuseAtFree);
        return Behaviors.stopped();
    }

    /** A state that answers the teardown steps of an {@link OpsUndo} run. */
    private abstract class Teardown extends AbstractBehavior<Command> {
        Teardown() {
            super(ctx);
        }

        /**
         * What the state answers besides the teardown steps, also while one of its exits waits. Added last: it may
         * end in a catch-all.
         */
        abstract ReceiveBuilder<Command> meanwhile(ReceiveBuilder<Command> b);

        /** How the state ends. */
        abstract ReceiveBuilder<Command> ending(ReceiveBuilder<Command> b);

        @Override
        public Receive<Command> createReceive() {
            // The teardown steps first: a built receive tries its cases in order, and the steps are what a
            // dismantling netns mostly gets. The cases match disjoint message types, so their order changes
            // nothing else.
            return meanwhile(ending(newReceiveBuilder()
                            .onMessage(NetNamespace.PreExit.class, m -> {
                                inTeardownOrder(op -> op.preExit(net));
                                m.replyTo().tell(new NetNamespace.StepDone(net.id()));
                                return this;
                            })
                            .onMessage(
                                    NetNamespace.Exit.class,
                                    m -> continueExit(initialised.get(m.op()).exit(net), m.replyTo(), this))
                            .onMessage(NetNamespace.FreeData.class, m -> {
                                inTeardownOrder(op -> op.freeData(net));
                                m.replyTo().tell(new NetNamespace.StepDone(net.id()));
                                return this;
                            })))
                    .build();
        }
    }

    /** The last active reference is gone: on cleanup_list, then in a batch, until net_free. */
    private final class Dismantling extends Teardown {
        private final UnaryOperator<ReceiveBuilder<Command>> meanwhile;

        Dismantling(UnaryOperator<ReceiveBuilder<Command>> meanwhile) {
            this.meanwhile = meanwhile;
        }

        @Override
        ReceiveBuilder<Command> meanwhile(ReceiveBuilder<Command> b) {
            return meanwhile.apply(b);
        }

        @Override
        ReceiveBuilder<Command> ending(ReceiveBuilder<Command> b) {
            return b.onMessageEquals(NetNamespace.DropPassive.INSTANCE, () -> --passive == 0 ? netFree() : this);
        }
    }

    /** An init failed: the ops already run are undone; then the creator gets the error. */
    private final class Undoing extends Teardown {
        private final String reason;
        private final ActorRef<CreateResult> created;
        private final NetnsEnv.Parent parent;

        Undoing(String reason, ActorRef<CreateResult> created, NetnsEnv.Parent parent) {
            this.reason = reason;
            this.created = created;
            this.parent = parent;
        }

        @Override
        ReceiveBuilder<Command> meanwhile(ReceiveBuilder<Command> b) {
            // Never published, so only the supervisor's fan-outs can reach it.
            return b.onMessageEquals(NetNamespace.Put.INSTANCE, this::ignoreReference)
                    .onMessageEquals(NetNamespace.Put.CREATOR, this::ignoreReference)
                    .onMessageEquals(NetNamespace.Get.INSTANCE, this::ignoreReference)
                    .onMessage(NetNamespace.EmitTaggedUevent.class, m -> {
                        m.replyTo().tell(new InjectResult.Failed(Errno.EINVAL, -1));
                        return Behaviors.same();
                    });
        }

        private Behavior<Command> ignoreReference() {
            ctx.getLog().warn("netns {}: get_net or put_net while its failed setup_net is undone; ignored", net.id());
            return Behaviors.same();
        }

        @Override
        ReceiveBuilder<Command> ending(ReceiveBuilder<Command> b) {
            return b.onMessageEquals(NetNamespace.UndoReport.FINISHED, this::failed)
                    .onMessageEquals(NetNamespace.UndoReport.DATA_FREED, () -> this)
                    .onSignal(ChildFailed.class, f -> {
                        throw new IllegalStateException(
                                "netns " + net.id() + ": the undo of its failed setup_net failed", f.getCause());
                    })
                    .onSignal(Terminated.class, t -> this);
        }

        /** copy_net_ns after a failed setup_net: the lock is released, the creator told, net_free. */
        private Behavior<Command> failed() {
            parent.setupFinished(net.id(), false);
            created.tell(new CreateResult.Failed(net.id(), reason));
            return netFree();
        }
    }

    /** An exit waits for synchronize_rcu or rcu_barrier, or retries; then it answers and resumes. */
    private final class Exiting extends AbstractBehavior<Command> {
        private final ExitAction rest;
        private final ActorRef<NetNamespace.StepDone> replyTo;
        private final Teardown resume;

        Exiting(ExitAction rest, ActorRef<NetNamespace.StepDone> replyTo, Teardown resume) {
            super(ctx);
            this.rest = rest;
            this.replyTo = replyTo;
            this.resume = resume;
        }

        @Override
        public Receive<Command> createReceive() {
            // its own cases first: meanwhile may end in a catch-all (a dismantling netns's published answers)
            return resume.meanwhile(newReceiveBuilder()
                            .onMessageEquals(NetNamespace.RcuDone.INSTANCE, () -> continueExit(rest, replyTo, resume))
                            .onMessageEquals(
                                    NetNamespace.RetryTick.INSTANCE, () -> continueExit(rest, replyTo, resume)))
                    .build();
        }
    }
}
