package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.SupervisorStrategy;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.ReceiveBuilder;
import akka.actor.typed.javadsl.StashBuffer;
import akka.pattern.StatusReply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.netnslab.fault.FaultSwitch;
import org.netnslab.fault.ModelFault;
import org.netnslab.machine.Clock;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.OnStop;
import org.netnslab.netns.NetNamespace.Command;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.userns.UserNamespace;
import org.slf4j.event.Level;

/**
 * The actor of one network namespace ({@link NetNamespace}'s protocol, {@code struct net} of
 * net/core/net_namespace.c) up to its last active reference: setup_net (setting up), then live. It owns its
 * {@link Net} and the active count; its uevent side is {@link NetnsUevents}, its user sockets
 * {@link NetnsSockets}. At the last put_net, or when an init fails, it hands the netns to
 * {@link NetnsTeardown}.
 *
 * <p>Supervision: a failure stops the actor (the typed default), so no counter is ever silently reset,
 * except the {@link ModelFault} of {@code faults.netns-actor}, which is resumed (see {@link #faultPoint}).
 */
final class NetnsActor {
    /** Messages that may arrive while setup_net's cost is spent: a few put_net or kernel uevents at most. */
    private static final int SETUP_STASH = 10_000;

    private final ActorContext<Command> ctx;
    private final Net net;
    private final List<PernetOperations> ops;
    private final NetnsEnv env;
    private final NetnsUevents uevents;
    private final NetnsSockets sockets;
    /** Completed at the actor's PostStop (net_free, or a stop): the handle's {@link NetnsHandle#freed()}. */
    private final CompletableFuture<Done> freed = new CompletableFuture<>();

    private int active = 1;
    /** Whether the creating process has dropped its reference ({@link NetNamespace.Put#CREATOR}). */
    private boolean creatorPut;

    private UeventRoute route;
    /** Messages stashed during setup_net are being handled: never eligible for a fault. */
    private boolean unstashing;

    /**
     * copy_net_ns's new netns: setup_net runs when the actor starts.
     *
     * @param id the netns id
     * @param owner the owning user namespace
     * @param settings the design in force
     * @param ops the registered pernet ops, in registration order
     * @param env the domain's shared actors and counters
     * @param requestNanos when the creation was requested ({@link Clock#nanoTime()})
     * @param created receives the handle, or the failure, once setup_net has run
     * @param task the creating process's task: setup_net's CPU runs as a kernel step of its unshare() call
     *     (fair scheduler); null: a one-off step
     * @return the netns behaviour
     */
    static Behavior<Command> create(
            long id,
            UserNamespace owner,
            ModelSettings settings,
            List<PernetOperations> ops,
            NetnsEnv env,
            long requestNanos,
            ActorRef<CreateResult> created,
            CpuTask task) {
        // faults.netns-actor: resumed, never restarted (faultPoint); any other failure stops it.
        // No Behaviors.withTimers: a TimerScheduler per netns costs heap in a population of a million; the few
        // one-shot waits (setup cost, retries) use ctx.scheduleOnce.
        return Behaviors.supervise(Behaviors.<Command>setup(ctx -> {
                    NetnsActor actor = new NetnsActor(ctx, id, owner, settings, ops, env);
                    return OnStop.wrap(Command.class, actor.setupNet(requestNanos, created, task), actor::stopped);
                }))
                .onFailure(ModelFault.class, SupervisorStrategy.resume().withLogLevel(Level.DEBUG));
    }

    private NetnsActor(
            ActorContext<Command> ctx,
            long id,
            UserNamespace owner,
            ModelSettings settings,
            List<PernetOperations> ops,
            NetnsEnv env) {
        this.ctx = ctx;
        this.ops = ops;
        this.env = env;
        this.net = new Net(
                id, owner, settings, ctx.getSelf(), env.rcu(), env.globalOwner(), env.globalSeqnum(), env.probe());
        this.uevents = new NetnsUevents(ctx, net, env.faults());
        this.sockets = new NetnsSockets(ctx, net);
    }

    /** setup_net: every init in order; on failure, the undo of the ones run. */
    private Behavior<Command> setupNet(long requestNanos, ActorRef<CreateResult> created, CpuTask task) {
        for (int i = 0; i < ops.size(); i++) {
            try {
                ops.get(i).init(net);
            } catch (PernetInitException | RuntimeException e) {
                String reason = ops.get(i).name() + " init failed: " + e.getMessage();
                ctx.getLog().debug("netns {}: {}, undoing {} op(s)", net.id(), reason, i);
                return new NetnsTeardown(ctx, net, ops.subList(0, i), 0)
                        .undoSetup(
                                reason, created, env.parent(), env.undoTimeout().apply(1));
            }
        }
        route = uevents.route();
        Duration cost = net.settings.netns().setupCost();
        Machine machine = Machine.get(ctx.getSystem());
        long cpu = machine.isVirtual()
                ? net.settings.costs().lifecycle().setupNet().toNanos()
                : 0;
        if (cost.isZero() && cpu == 0) {
            return publish(requestNanos, created);
        }
        if (cpu > 0) { // the inits' CPU on the unshare task's CPU, then the waits; the lock is held throughout
            ActorRef<Command> self = ctx.getSelf();
            Runnable spent = () -> self.tell(NetNamespace.SetupCpuSpent.INSTANCE);
            double rtnl = net.settings.netns().rtnlSetupShare();
            if (task != null && machine.fair() && rtnl > 0) {
                Rtnl.setupNet(machine, task, cpu, rtnl, spent);
            } else if (task != null && machine.fair()) { // a kernel step of unshare() (ops_init: no cond_resched)
                machine.compute(task, org.netnslab.machine.Step.KERNEL, cpu, spent);
            } else {
                machine.compute(cpu, spent);
            }
        } else {
            machine.timedStep(cost.toNanos()); // slow by design, not stalled: runner waits follow it
            // setup_net's sleeping waits, lock held
            ctx.scheduleOnce(cost, ctx.getSelf(), NetNamespace.SetupCostSpent.INSTANCE);
        }
        return Behaviors.withStash(SETUP_STASH, stash -> new SettingUp(stash, requestNanos, created));
    }

    /** setup_net has finished: the netns is on the list and its creator gets the handle. */
    private Behavior<Command> publish(long requestNanos, ActorRef<CreateResult> created) {
        env.probe().created(Clock.nanoTime() - requestNanos);
        env.parent().setupFinished(net.id(), true);
        created.tell(new NetnsHandle(net.id(), net.owner(), ctx.getSelf(), route, freed));
        return new Live();
    }

    /**
     * What a published netns answers in every state (live and dismantling): uevents, put_net, socket closes,
     * sock_inuse reads. One dispatch, not a per-actor table of receive cases (a million live netns each held one).
     *
     * @return the next behaviour, or null when {@code m} is not one of the published answers
     */
    private Behavior<Command> onPublished(Command m) {
        if (m instanceof NetNamespace.Inject i) {
            faultPoint(i, i.replyTo());
            uevents.inject(i);
        } else if (m instanceof NetNamespace.SendUevent u) {
            faultPoint(u, u.replyTo());
            uevents.send(u, route);
        } else if (m instanceof NetNamespace.EmitTaggedUevent t) {
            faultPoint(t, t.replyTo());
            uevents.emitTagged(t);
        } else if (m == NetNamespace.Put.INSTANCE) {
            return onPut();
        } else if (m == NetNamespace.Put.CREATOR) {
            return onCreatorPut();
        } else if (m instanceof NetNamespace.ListenerClosed c) {
            return uevents.closed(c) ? onPut() : Behaviors.same();
        } else if (m instanceof NetNamespace.CloseListeners c) {
            uevents.closeListeners(c.replyTo());
        } else if (m == NetNamespace.CloseListenersTick.INSTANCE) {
            uevents.closeListeners();
        } else if (m instanceof NetNamespace.CloseSocket c) {
            return onCloseSocket(c);
        } else if (m instanceof NetNamespace.ReadSockInuse r) {
            r.replyTo().tell(sockets.inuse());
        } else {
            return null;
        }
        return Behaviors.same();
    }

    /**
     * Fault switch {@code faults.netns-actor} ({@link FaultSwitch#NETNS_ACTOR}): every Nth uevent request
     * (Inject, SendUevent, EmitTaggedUevent, in any published state; not one that waited in the setup stash)
     * gets {@link Errno#EAGAIN}, so no injector waits for an answer that never comes, and then throws a
     * {@link ModelFault} before anything is touched. The actor resumes: a syscall that fails before
     * uevent_net_rcv_skb's broadcast (lib/kobject_uevent.c) leaves the netns as it was, so the behaviour and
     * its state stay (the next uevent takes the next SEQNUM, no gap, no duplicate). A restart would build a
     * fresh {@link Net} beside a netns the rest of the model still counts; a stop would drop a live netns
     * without cleanup_net. Reference counting and teardown steps are never eligible: they cannot fail in the
     * kernel, and a dropped one would leak the netns or hang its batch.
     *
     * @throws ModelFault when the switch fires
     */
    private void faultPoint(Command m, ActorRef<InjectResult> replyTo) {
        if (unstashing) {
            return;
        }
        ModelFault fault = env.faults()
                .next(
                        FaultSwitch.NETNS_ACTOR,
                        () -> "netns " + net.id() + " handling " + m.getClass().getSimpleName());
        if (fault != null) {
            replyTo.tell(new InjectResult.Failed(Errno.EAGAIN, -1));
            throw fault;
        }
    }

    /**
     * Dismantling: the published answers, and nothing may take a new reference. A catch-all case, so it goes
     * after the teardown's own cases ({@link NetnsTeardown#dismantling}).
     */
    private ReceiveBuilder<Command> dismantling(ReceiveBuilder<Command> b) {
        return b.onAnyMessage(this::onDismantling);
    }

    private Behavior<Command> onDismantling(Command m) {
        Behavior<Command> published = onPublished(m);
        if (published != null) {
            return published;
        }
        if (m instanceof NetNamespace.AttachListener a) {
            uevents.refuse(a);
            return Behaviors.same();
        } else if (m == NetNamespace.Get.INSTANCE) {
            ctx.getLog().warn("netns {}: get_net after the last reference was dropped; ignored", net.id());
            return Behaviors.same();
        } else if (m instanceof NetNamespace.OpenSocket o) {
            o.replyTo().tell(-1L);
            return Behaviors.same();
        }
        return Behaviors.unhandled();
    }

    /**
     * The actor's PostStop: after net_free nothing is open; after a stop (its supervisor stopped, or it
     * failed) the listeners still open fail with the reason.
     */
    private void stopped() {
        uevents.failOpenListeners(env.parent().name());
        freed.complete(Done.getInstance());
    }

    /** put_net; at 0, __put_net: the netns joins cleanup_list and is dismantled. */
    private Behavior<Command> onPut() {
        if (active <= 0) {
            ctx.getLog().warn("netns {}: put_net with no reference held; ignored", net.id());
            return Behaviors.same();
        }
        if (--active > 0) {
            return Behaviors.same();
        }
        long lastRefNanos = Clock.nanoTime();
        env.parent().cleanupListAdd(net.id(), ctx.getSelf());
        return new NetnsTeardown(ctx, net, ops, lastRefNanos).dismantling(this::dismantling);
    }

    /** The creating process's put_net, once: a second one would take a reference someone else holds. */
    private Behavior<Command> onCreatorPut() {
        if (creatorPut) {
            ctx.getLog()
                    .warn(
                            "netns {}: its creating process's reference was dropped already; this put_net is refused",
                            net.id());
            return Behaviors.same();
        }
        creatorPut = true;
        return onPut();
    }

    /** sk_free (see {@link NetnsSockets#close}): the reference goes now, or later from RCU. */
    private Behavior<Command> onCloseSocket(NetNamespace.CloseSocket m) {
        if (!sockets.isOpen(m.socketId())) {
            m.replyTo()
                    .tell(StatusReply.error("netns " + net.id() + ": socket " + m.socketId()
                            + " is not open in it (never opened there, or closed already); nothing was closed"));
            return Behaviors.same();
        }
        Behavior<Command> next = sockets.close(m.socketId()) ? onPut() : Behaviors.same();
        m.replyTo().tell(StatusReply.ack());
        return next;
    }

    /** setup_net's own kernel work is being spent: every other message waits for the end of it. */
    private final class SettingUp extends AbstractBehavior<Command> {
        private final StashBuffer<Command> stash;
        private final long requestNanos;
        private final ActorRef<CreateResult> created;

        SettingUp(StashBuffer<Command> stash, long requestNanos, ActorRef<CreateResult> created) {
            super(ctx);
            this.stash = stash;
            this.requestNanos = requestNanos;
            this.created = created;
        }

        @Override
        public Receive<Command> createReceive() {
            return newReceiveBuilder()
                    .onMessageEquals(NetNamespace.SetupCostSpent.INSTANCE, this::unstash)
                    .onMessageEquals(NetNamespace.SetupCpuSpent.INSTANCE, () -> {
                        Duration cost = net.settings.netns().setupCost();
                        if (cost.isZero()) {
                            return unstash();
                        }
                        Machine.get(getContext().getSystem()).timedStep(cost.toNanos());
                        ctx.scheduleOnce(cost, ctx.getSelf(), NetNamespace.SetupCostSpent.INSTANCE);
                        return this;
                    })
                    .onAnyMessage(m -> {
                        stash.stash(m);
                        return this;
                    })
                    .build();
        }

        /**
         * Publishes and handles what waited. No fault switch fires meanwhile: a fault in the middle of
         * unstashAll would leave the rest of the stash behind the new behaviour.
         */
        private Behavior<Command> unstash() {
            unstashing = true;
            try {
                return stash.unstashAll(publish(requestNanos, created));
            } finally {
                unstashing = false;
            }
        }
    }

    /** Published and referenced: processes may enter, open sockets and bind listeners. */
    private final class Live extends AbstractBehavior<Command> {
        Live() {
            super(ctx);
        }

        /** One receive case: {@link #onMessage} dispatches (no per-actor table of cases). */
        @Override
        public Receive<Command> createReceive() {
            return newReceiveBuilder().onAnyMessage(this::onMessage).build();
        }

        private Behavior<Command> onMessage(Command m) {
            Behavior<Command> published = onPublished(m);
            if (published != null) {
                return published;
            }
            if (m instanceof NetNamespace.AttachListener a) {
                active++; // a user socket: sk_alloc's get_net (sk_net_refcnt)
                uevents.attach(a);
                return this;
            } else if (m == NetNamespace.Get.INSTANCE) {
                active++;
                return this;
            } else if (m instanceof NetNamespace.OpenSocket o) {
                active++; // sk_alloc's get_net
                o.replyTo().tell(sockets.open());
                return this;
            }
            return Behaviors.unhandled();
        }
    }
}
