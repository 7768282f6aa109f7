package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.ReceiveBuilder;
import akka.actor.typed.javadsl.StashBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.netnslab.fault.FaultSwitch;
import org.netnslab.fault.ModelFault;
import org.netnslab.machine.Clock;
import org.netnslab.machine.Machine;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netns.NetNamespace.Command;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.sockinuse.SocketCloseFault;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.UeventCosts;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.uevent.UeventSerialization;
import org.netnslab.uevent.UeventSockOwner;
import org.netnslab.userns.UserNamespace;

/**
 * The {@link NetNamespace} actor up to its last active reference: setup_net (setting up), then live.
 * It holds what the actor owns besides {@link Net}: the active count, the open sockets and bound
 * listeners (user sockets: each holds an active reference, as sk_net_refcnt sockets do), the injection route, and the answers every published state gives (uevents, put_net, socket closes,
 * sock_inuse reads). At the last put_net it hands the netns to {@link NetnsTeardown}; a failed init
 * does too, at once. Only the actor's own behaviours touch it.
 *
 * <p>Fault switch {@code faults.netns-actor} ({@link FaultSwitch#NETNS_ACTOR}): every Nth uevent request
 * (Inject, SendUevent, EmitTaggedUevent, in any published state; not one that waited in the setup
 * stash) throws a {@link ModelFault} at the
 * start of its handler, before it has touched anything; the sender first gets {@link Errno#EAGAIN}, so
 * no injector waits for an answer that never comes. Supervision: <b>resume</b>
 * ({@code SupervisorStrategy.resume()} in {@link NetNamespace#create}). The kernel has no restart: a
 * syscall that fails before uevent_net_rcv_skb's broadcast (lib/kobject_uevent.c) leaves the netns as
 * it was, so the model's state must stay what the kernel's would be. Resume keeps the behaviour and
 * its state (SEQNUM counter: the next uevent takes the next number, no gap, no duplicate; active
 * count, sockets, sock_inuse, listeners); a restart would build a fresh {@link Net} (SEQNUM 0, no
 * references) beside a netns the rest of the model still counts, and STOP (the typed default) would
 * drop a live netns and its references without cleanup_net. Reference counting and teardown steps
 * (put_net, get_net, the exits) are never eligible: they cannot fail in the kernel (void functions),
 * and a dropped one would leak the netns or hang its batch. Any other failure still stops the actor.
 *
 * <p>Over the ~300-line guide: setting up (with its CPU and RTNL hold) and live are the two behaviours of one
 * actor over the same references, sockets and route; split, they would hand that state back and forth.
 */
final class NetnsActor {
    /** Messages that may arrive while setup_net's cost is spent: a few put_net or kernel uevents at most. */
    private static final int SETUP_STASH = 10_000;

    private final ActorContext<Command> ctx;
    private final Net net;
    private final List<PernetOperations> ops;
    private final NetNamespace.Env env;
    /** Open user sockets; allocated at the first (most netns of a large population never open one). */
    private Set<Long> sockets;
    /**
     * Bound listener sockets, each holding one active reference until its ListenerClosed; allocated at the
     * first. Insertion order: a virtual run is deterministic.
     */
    private Set<ReceiveQueue<Received>> listeners;
    /** Waiting for CloseListeners to have completed every listener stream; allocated at the first. */
    private List<ActorRef<Done>> closingListeners;
    /** Completed at the actor's PostStop (net_free, or a stop): the handle's {@link NetnsHandle#freed()}. */
    private final java.util.concurrent.CompletableFuture<Done> freed = new java.util.concurrent.CompletableFuture<>();

    private int active = 1;
    private long nextSocket = 1;
    private UeventRoute route;
    /** Messages stashed during setup_net are being handled: never eligible for a fault. */
    private boolean unstashing;

    NetnsActor(
            ActorContext<Command> ctx,
            long id,
            UserNamespace owner,
            ModelSettings settings,
            List<PernetOperations> ops,
            NetNamespace.Env env) {
        this.ctx = ctx;
        this.ops = ops;
        this.env = env;
        this.net = new Net(
                id, owner, settings, ctx.getSelf(), env.rcu(), env.globalOwner(), env.globalSeqnum(), env.probe());
    }

    /** setup_net: every init in order; on failure, the undo of the ones run. */
    Behavior<Command> setupNet(long requestNanos, ActorRef<CreateResult> created, org.netnslab.machine.CpuTask task) {
        for (int i = 0; i < ops.size(); i++) {
            try {
                ops.get(i).init(net);
            } catch (PernetInitException | RuntimeException e) {
                String reason = ops.get(i).name() + " init failed: " + e.getMessage();
                ctx.getLog().debug("netns {}: {}, undoing {} op(s)", net.id(), reason, i);
                return new NetnsTeardown(ctx, net, ops.subList(0, i), 0)
                        .undoSetup(
                                reason,
                                created,
                                env.supervisor(),
                                env.undoTimeout().apply(1));
            }
        }
        route = routeFor(net.settings.uevent().serialization());
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
                setupUnderRtnl(machine, task, cpu, rtnl, spent);
            } else if (task != null
                    && machine.fair()) { // a kernel step of the creator's unshare() (ops_init: no cond_resched)
                machine.compute(task, org.netnslab.machine.Step.KERNEL, cpu, spent);
            } else {
                machine.compute(cpu, spent);
            }
        } else {
            machine.timedStep(cost.toNanos()); // slow by design, not stalled: runner waits follow it
            ctx.scheduleOnce(
                    cost, ctx.getSelf(), NetNamespace.SetupCostSpent.INSTANCE); // setup_net's sleeping waits, lock held
        }
        return Behaviors.withStash(SETUP_STASH, stash -> new SettingUp(stash, requestNanos, created));
    }

    /**
     * setup_net's CPU with its RTNL hold at the end: the subsys ops' inits, then the device ops' (after the subsys
     * ops on pernet_list), of which loopback_net_init's register_netdev takes rtnl_mutex (drivers/net/loopback.c;
     * net/core/dev.c register_netdev: rtnl_lock, register_netdevice, rtnl_unlock). A creator that finds RTNL held
     * sleeps on the mutex (the first kernel step ends at mutex_lock's might_sleep) and runs its hold when handed the
     * lock and given a CPU.
     *
     * @param share the share of {@code cpu} under RTNL, in (0, 1]
     */
    private static void setupUnderRtnl(
            Machine machine, org.netnslab.machine.CpuTask task, long cpu, double share, Runnable spent) {
        long held = Math.round(cpu * share);
        org.netnslab.machine.Mutex rtnlMutex = machine.mutex(RTNL);
        machine.compute(
                task,
                org.netnslab.machine.Step.MIGHT_SLEEP,
                cpu - held,
                () -> rtnlMutex.lock(
                        task,
                        () -> machine.compute(task, org.netnslab.machine.Step.KERNEL, held, () -> {
                            rtnlMutex.unlock();
                            spent.run();
                        })));
    }

    /** The name of RTNL's mutex in the machine (net/core/rtnetlink.c rtnl_mutex). */
    static final String RTNL = "rtnl_mutex";

    /** setup_net has finished: the netns is on the list and its creator gets the handle. */
    private Behavior<Command> publish(long requestNanos, ActorRef<CreateResult> created) {
        env.probe().created(Clock.nanoTime() - requestNanos);
        env.supervisor().tell(new NamespaceSupervisor.SetupFinished(net.id(), true));
        created.tell(new NetnsHandle(net.id(), net.owner(), ctx.getSelf(), route, freed));
        return new Live();
    }

    private UeventRoute routeFor(UeventSerialization serialization) {
        UeventCosts costs = net.settings.costs().uevent();
        switch (serialization) {
            case GLOBAL_OWNER:
                return UeventSockOwner.route(net.globalOwner, net.ueventSocket, costs);
            case PER_NETNS_OWNER:
            case PER_NETNS_OWNER_FIXED:
                if (net.owner().isInitial()) {
                    return UeventSockOwner.route(net.globalOwner, net.ueventSocket, costs);
                }
                ActorRef<Command> self = ctx.getSelf();
                return UeventRoute.charged(
                        (sender, payload, sentNanos, replyTo) ->
                                self.tell(new NetNamespace.Inject(sender, payload, sentNanos, replyTo)),
                        new UeventRoute.VirtualPath(net.ueventSocket, UeventRoute.ownLock(net.id()), false, costs));
            case LOCKLESS:
                return UeventRoute.lockless(net.ueventSocket, costs);
            default:
                throw new IllegalStateException("unhandled uevent.serialization " + serialization);
        }
    }

    /**
     * What a published netns answers in every state (live and dismantling): uevents, put_net, socket closes,
     * sock_inuse reads. One dispatch, not a per-actor table of receive cases (a million live netns each held one).
     *
     * @return the next behaviour, or null when {@code m} is not one of the published answers
     */
    private Behavior<Command> onPublished(Command m) {
        if (m instanceof NetNamespace.Inject i) {
            return onInject(i);
        } else if (m instanceof NetNamespace.SendUevent u) {
            return onSendUevent(u);
        } else if (m instanceof NetNamespace.EmitTaggedUevent t) {
            return onEmitTagged(t);
        } else if (m == NetNamespace.Put.INSTANCE) {
            return onPut();
        } else if (m instanceof NetNamespace.ListenerClosed c) {
            return onListenerClosed(c);
        } else if (m instanceof NetNamespace.CloseListeners c) {
            return onCloseListeners(c);
        } else if (m == NetNamespace.CloseListenersTick.INSTANCE) {
            return closeListeners();
        } else if (m instanceof NetNamespace.CloseSocket c) {
            return onCloseSocket(c);
        } else if (m instanceof NetNamespace.ReadSockInuse r) {
            return onReadSockInuse(r);
        }
        return null;
    }

    private Behavior<Command> onInject(NetNamespace.Inject m) {
        faultPoint(m, m.replyTo());
        m.replyTo().tell(net.ueventSocket.inject(m.sender(), m.payload(), m.sentNanos()));
        return Behaviors.same();
    }

    private Behavior<Command> onSendUevent(NetNamespace.SendUevent m) {
        faultPoint(m, m.replyTo());
        route.inject(m.sender(), m.payload(), Clock.nanoTime(), m.replyTo());
        return Behaviors.same();
    }

    private Behavior<Command> onEmitTagged(NetNamespace.EmitTaggedUevent m) {
        faultPoint(m, m.replyTo());
        if (net.settings
                .uevent()
                .serialization()
                .taggedUnderGlobalLock(net.owner().isInitial())) {
            net.globalOwner.tell(new UeventSockOwner.KernelUevent(
                    m.action(), m.devpath(), m.subsystem(), m.keys(), net.ueventSocket, m.replyTo()));
        } else { // this netns's own lock (per-netns-owner-fixed), or none at all (lockless)
            m.replyTo().tell(net.ueventSocket.tagged(m.action(), m.devpath(), m.subsystem(), m.keys()));
        }
        return Behaviors.same();
    }

    private Behavior<Command> onListenerClosed(NetNamespace.ListenerClosed m) {
        if (listeners == null || !listeners.remove(m.queue())) {
            return Behaviors.same(); // a listener refused at attach: it never held a reference
        }
        net.ueventSocket.detach(m.queue());
        return onPut();
    }

    private Behavior<Command> onCloseListeners(NetNamespace.CloseListeners m) {
        if (closingListeners == null) {
            closingListeners = new ArrayList<>(1);
        }
        closingListeners.add(m.replyTo());
        return closeListeners();
    }

    private Behavior<Command> onReadSockInuse(NetNamespace.ReadSockInuse m) {
        m.replyTo().tell(net.sockInuse.isFreed() ? -1 : net.sockInuse.get());
        return Behaviors.same();
    }

    /**
     * {@code faults.netns-actor}: on every Nth uevent request, answers EAGAIN and throws before anything
     * is touched (the resume supervision keeps the state; see the class Javadoc).
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
            a.queue().close();
            a.bound().completeExceptionally(new IllegalStateException("netns " + net.id() + " is being dismantled"));
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
     * Hands every listener its pending ENOBUFS and completes its stream; a listener whose queue is still
     * full is tried again a millisecond later. Only this netns's CloseListeners waiters wait.
     */
    private Behavior<Command> closeListeners() {
        if (net.ueventSocket.close() > 0) {
            ctx.scheduleOnce(Duration.ofMillis(1), ctx.getSelf(), NetNamespace.CloseListenersTick.INSTANCE);
            return Behaviors.same();
        }
        if (closingListeners != null) {
            closingListeners.forEach(r -> r.tell(Done.getInstance()));
            closingListeners = null;
        }
        return Behaviors.same();
    }

    /**
     * The actor's PostStop: after net_free nothing is open; after a stop (its supervisor stopped, or it
     * failed) the listeners still open fail with the reason, rather than wait for uevents that never come.
     */
    void stopped() {
        if (listeners != null
                && !listeners.isEmpty()) { // the exception (stack trace, message) only for a listener to fail
            IllegalStateException gone = new IllegalStateException("netns " + net.id()
                    + " stopped while this listener was open (its supervisor "
                    + env.supervisor().path().name()
                    + " stopped, or the netns actor failed)");
            listeners.stream().filter(q -> !q.isClosed()).forEach(q -> q.fail(gone));
        }
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
        env.cleanup().tell(new CleanupWorker.Enqueue(net.id(), ctx.getSelf()));
        return new NetnsTeardown(ctx, net, ops, lastRefNanos).dismantling(this::dismantling);
    }

    /**
     * sk_free of a user socket ({@code sk_net_refcnt = 1}), net/core/sock.c v4.16..v5.16: {@code __sk_free}
     * subtracts 1 from sock_inuse, then {@code sk_destruct} runs {@code __sk_destruct} (put_net) at once
     * or, for SOCK_RCU_FREE, through call_rcu. Under {@code EVERY_SOCKET_AT_DESTRUCT} accounting the -1
     * moves into {@code __sk_destruct} too, still before its put_net.
     */
    private Behavior<Command> onCloseSocket(NetNamespace.CloseSocket m) {
        if (sockets == null || !sockets.remove(m.socketId())) {
            ctx.getLog().warn("netns {}: close of unknown socket {}; ignored", net.id(), m.socketId());
            m.replyTo().tell(Done.getInstance());
            return Behaviors.same();
        }
        int cpu = net.cpu();
        SocketCloseFault fault = net.settings.sockInuse().fault();
        boolean decrement = fault != SocketCloseFault.SKIP_SOCK_INUSE_DEC;
        boolean put = fault != SocketCloseFault.SKIP_PUT_NET;
        boolean early = net.settings.sockInuse().free().accounting().decrementsBeforeDeferral();
        var counter = net.sockInuse;
        if (decrement && early) {
            counter.add(cpu, -1); // __sk_free
        }
        Behavior<Command> next = Behaviors.same();
        if (net.nextCloseDeferred()) {
            // SOCK_RCU_FREE: __sk_destruct (put_net, and the late -1 of the hazard accounting) runs from an RCU
            // callback.
            ActorRef<Command> self = ctx.getSelf();
            boolean late = decrement && !early;
            net.rcu.tell(new RcuDomain.CallRcu(() -> {
                if (late) {
                    counter.add(cpu, -1);
                }
                if (put) {
                    self.tell(NetNamespace.Put.INSTANCE);
                }
            }));
        } else {
            if (decrement && !early) {
                counter.add(cpu, -1);
            }
            if (put) {
                next = onPut();
            }
        }
        m.replyTo().tell(Done.getInstance());
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
                a.queue().bind(net.settings.netlink());
                a.queue()
                        .recvFault(() -> env.faults()
                                .next(
                                        FaultSwitch.LISTENER,
                                        () -> "a uevent listener of netns " + net.id() + " handling a recvmsg"));
                active++; // a user socket: sk_alloc's get_net (sk_net_refcnt)
                if (listeners == null) {
                    listeners = new LinkedHashSet<>();
                }
                listeners.add(a.queue());
                net.ueventSocket.attach(a.queue());
                a.bound().complete(Done.getInstance());
                return this;
            } else if (m == NetNamespace.Get.INSTANCE) {
                active++;
                return this;
            } else if (m instanceof NetNamespace.OpenSocket o) {
                active++;
                net.sockInuse.add(net.cpu(), 1);
                long id = nextSocket++;
                if (sockets == null) {
                    sockets = new HashSet<>();
                }
                sockets.add(id);
                o.replyTo().tell(id);
                return this;
            }
            return Behaviors.unhandled();
        }
    }
}
