package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PostStop;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import org.netnslab.fault.Faults;
import org.netnslab.machine.HostBackgroundTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.proc.ProcConnector;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.UeventSockOwner;
import org.netnslab.userns.UserNamespace;

/**
 * Creates and dismantles network namespaces for one design: {@code net_namespace_list} and
 * copy_net_ns/setup_net of net/core/net_namespace.c, with the lifecycle lock between creation and cleanup
 * ({@link LifecycleLock}). Its children: the design's RCU domain, the global uevent owner, the single
 * {@link CleanupWorker}, the initial netns's proc connector, and {@link NetnsGroup} actors of at most
 * {@link #GROUP_SIZE} netns each ({@link NetnsGroups}); messages for a netns go through its group, in order.
 * A child that fails stops (the typed default), but for a fault switch's {@code ModelFault}, which its actor
 * resumes; a netns that stops is removed from the list like a freed one.
 */
public final class NamespaceSupervisor extends AbstractBehavior<NamespaceSupervisor.Command> {

    /** The supervisor's protocol. */
    public sealed interface Command
            permits CreateNetns,
                    ReleaseNetns,
                    ReleaseAll,
                    AwaitAllFreed,
                    CountLive,
                    ReadSeqnum,
                    KernelUevent,
                    GetRcuStats,
                    GetProcConnector,
                    SetupFinished,
                    AcquireCleanupLock,
                    ReleaseCleanupLock,
                    NetnsStopped,
                    GroupStopped,
                    CountGroups,
                    HandedOff,
                    Stop {}

    /**
     * Stops the supervisor and everything it spawned (the embedder's stop; stopping the actor any other way has the
     * same effect). At its PostStop, after every child has stopped: each creation still waiting for the lifecycle
     * lock or in setup_net gets a {@link CreateResult.Failed} naming the stop; each open uevent listener stream and
     * proc connector socket fails with an exception naming the stop (their actors' PostStop). Replies typed
     * {@code Done} (release waiters) cannot carry a failure: {@code NetnsLab.Client} fails those at the stop.
     */
    public enum Stop implements Command {
        /** The one stop message. */
        INSTANCE
    }

    /** net_mutex reaches its next waiter after the hand-off latency (virtual execution). */
    record HandedOff(Object holder) implements Command {}

    /** The most netns one group actor holds. */
    public static final int GROUP_SIZE = 1000;

    /**
     * Asks for the initial netns's proc connector (drivers/connector/cn_proc.c), configured by the
     * design's {@code proc-connector.*} strategies.
     */
    public record GetProcConnector(ActorRef<ActorRef<ProcConnector.Command>> replyTo) implements Command {}

    /**
     * copy_net_ns with CLONE_NEWNET: a new netns owned by {@code owner}, its active count 1 (held by the
     * creating process). {@code replyTo} gets its {@link NetnsHandle} once setup_net has run, or a
     * {@link CreateResult.Failed} when a pernet init failed.
     */
    public record CreateNetns(UserNamespace owner, ActorRef<CreateResult> replyTo, org.netnslab.machine.CpuTask task)
            implements Command {
        /**
         * A creation by a process the model does not run as a task (setup_net's CPU runs as a one-off step).
         *
         * @param owner the owning user namespace
         * @param replyTo the handle or failure goes here
         */
        public CreateNetns(UserNamespace owner, ActorRef<CreateResult> replyTo) {
            this(owner, replyTo, null);
        }
    }

    /**
     * The creating process drops its reference to netns {@code id} (put_net; a second time, the netns refuses it with
     * a warning); {@code replyTo} gets Done when that netns has reached net_free (at once for an unknown id).
     */
    public record ReleaseNetns(long id, ActorRef<Done> replyTo) implements Command {}

    /** Drops the creating process's reference of every netns; {@code replyTo} gets Done when none is left. */
    public record ReleaseAll(ActorRef<Done> replyTo) implements Command {}

    /** {@code replyTo} gets Done when no netns is left and no creation is pending (nothing is released). */
    public record AwaitAllFreed(ActorRef<Done> replyTo) implements Command {}

    /** Asks how many netns actors are alive (the leak check after a teardown). */
    public record CountLive(ActorRef<Integer> replyTo) implements Command {}

    /** Reads {@code /sys/kernel/uevent_seqnum}: the last global SEQNUM assigned. */
    public record ReadSeqnum(ActorRef<Long> replyTo) implements Command {}

    /** Asks the design's RCU domain for its counters. */
    public record GetRcuStats(ActorRef<RcuDomain.Stats> replyTo) implements Command {}

    /**
     * A kernel-generated uevent (kobject_uevent_env): untagged when {@code deviceNetnsId} is negative
     * (to every netns owned by the initial user namespace), else tagged for that netns's network device.
     * An unknown netns id fails with EINVAL.
     */
    public record KernelUevent(
            String action,
            String devpath,
            String subsystem,
            Map<String, String> keys,
            long deviceNetnsId,
            ActorRef<InjectResult> replyTo)
            implements Command {}

    /** From a netns actor: its setup_net has finished ({@code ok}) or been undone. */
    public record SetupFinished(long id, boolean ok) implements Command {}

    /** From the cleanup worker: it wants the lifecycle lock for a batch. */
    public record AcquireCleanupLock(ActorRef<CleanupWorker.Command> replyTo) implements Command {}

    /** From the cleanup worker: the batch's data is freed, the lock is released. */
    public enum ReleaseCleanupLock implements Command {
        /** The one message. */
        INSTANCE
    }

    /** From a group: its netns {@code id} stopped (through net_free, or a failure). */
    record NetnsStopped(long id) implements Command {}

    /** A group actor stopped. */
    record GroupStopped(ActorRef<NetnsGroup.Command> group) implements Command {}

    /** Asks how many group actors are alive (tests). */
    record CountGroups(ActorRef<Integer> replyTo) implements Command {}

    private final NetnsEnv env;
    private final ActorRef<CleanupWorker.Command> cleanup;
    /** Every netns alive or being set up, by id, with the group that holds it. */
    private final NetnsGroups netns;

    private final HostBackgroundTask background; // the host's work beside the load: reads netns on the engine
    /** Creations, through the lifecycle lock to setup_net. */
    private final NetnsCreations creations;

    private final Map<Long, List<ActorRef<Done>>> releaseWaiters = new HashMap<>();
    private final List<ActorRef<Done>> allFreedWaiters = new ArrayList<>();
    private final SeqnumCounter globalSeqnum;
    private final ActorRef<ProcConnector.Command> procConnector;

    /**
     * A supervisor with the standard pernet ops and no probe.
     *
     * @param settings the design every netns of this supervisor follows
     * @return the supervisor behaviour
     */
    public static Behavior<Command> create(ModelSettings settings) {
        return create(settings, StandardPernetOps.all(), LifecycleProbe.NONE);
    }

    /**
     * @param settings the design every netns of this supervisor follows
     * @param ops the pernet ops to register, in order
     * @param probe where lifecycle events are reported
     * @return the supervisor behaviour
     */
    public static Behavior<Command> create(ModelSettings settings, List<PernetOperations> ops, LifecycleProbe probe) {
        return create(settings, ops, probe, GROUP_SIZE, Optional.empty());
    }

    /**
     * As {@link #create(ModelSettings, List, LifecycleProbe)}, with the group size and {@link OpsUndo} timeout
     * chosen (tests).
     *
     * @param groupSize the most netns one group holds, at least 1
     * @param undoTimeout the timeout of every {@link OpsUndo} run, instead of {@link OpsUndo#defaultTimeout}
     * @throws IllegalArgumentException when {@code groupSize} is below 1
     */
    static Behavior<Command> create(
            ModelSettings settings,
            List<PernetOperations> ops,
            LifecycleProbe probe,
            int groupSize,
            Optional<Duration> undoTimeout) {
        if (groupSize < 1) {
            throw new IllegalArgumentException("group size must be >= 1, got " + groupSize);
        }
        return Behaviors.setup(
                ctx -> new NamespaceSupervisor(ctx, settings, List.copyOf(ops), probe, groupSize, undoTimeout));
    }

    private NamespaceSupervisor(
            ActorContext<Command> ctx,
            ModelSettings settings,
            List<PernetOperations> ops,
            LifecycleProbe probe,
            int groupSize,
            Optional<Duration> undoTimeout) {
        super(ctx);
        this.netns = new NetnsGroups(ctx, groupSize);
        this.globalSeqnum = new SeqnumCounter();
        ActorRef<RcuDomain.Command> rcu = ModelDispatcher.spawn(
                ctx,
                RcuDomain.create(
                        settings.rcu().gracePeriod(),
                        settings.rcu().expeditedGracePeriod(),
                        settings.rcu().gpKthread()),
                "rcu");
        Machine machine = Machine.get(ctx.getSystem());
        if (machine.isVirtual()) { // a process exit's frees (rcu.ExitFrees) share its grace periods
            RcuDomain.register(machine, rcu);
        }
        this.background = HostBackgroundTask.start(machine, netns::netnsCount);
        ActorRef<UeventSockOwner.Command> owner =
                ModelDispatcher.spawn(ctx, UeventSockOwner.create(globalSeqnum), "uevent-sock-owner");
        IntFunction<Duration> timeout = n -> undoTimeout.orElseGet(() -> OpsUndo.defaultTimeout(
                n, settings.netns().exitCost(), settings.rcu().gracePeriod()));
        Faults faults = new Faults(settings.faults(), probe::faultInjected);
        this.cleanup = ModelDispatcher.spawn(
                ctx, CleanupWorker.create(ops, rcu, ctx.getSelf(), probe, settings, timeout, faults), "cleanup-net");
        this.env = new NetnsEnv(
                rcu,
                owner,
                globalSeqnum,
                new NetnsParent(ctx.getSelf(), cleanup, ctx.getSelf().path().name()),
                probe,
                timeout,
                faults);
        this.creations = new NetnsCreations(ctx, settings, ops, netns, env);
        this.procConnector = ModelDispatcher.spawn(
                ctx,
                ProcConnector.create(
                        settings.proc().filter(),
                        settings.proc().accounting(),
                        settings.sockInuse().cpus(),
                        settings.netlink(),
                        faults),
                "proc-connector");
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(CreateNetns.class, m -> {
                    creations.create(m);
                    return this;
                })
                .onMessage(SetupFinished.class, m -> {
                    creations.setupFinished(m.id());
                    return answerAllFreed();
                })
                // one per netns too, so early: a built receive tries its cases in order (types are disjoint)
                .onMessage(NetnsStopped.class, m -> {
                    if (netns.remove(m.id())) {
                        answerReleaseWaiters(m.id());
                    }
                    stoppedInSetup(m.id());
                    return answerAllFreed();
                })
                .onMessage(AcquireCleanupLock.class, m -> {
                    creations.lockForCleanup(m.replyTo());
                    return this;
                })
                .onMessageEquals(ReleaseCleanupLock.INSTANCE, () -> {
                    creations.unlockForCleanup();
                    return this;
                })
                .onMessage(ReleaseNetns.class, this::onRelease)
                .onMessage(ReleaseAll.class, m -> {
                    allFreedWaiters.add(m.replyTo());
                    cleanup.tell(CleanupWorker.CompleteDeferred.INSTANCE);
                    netns.tellAll(NetnsGroup.PutAll.INSTANCE);
                    return answerAllFreed();
                })
                .onMessage(AwaitAllFreed.class, m -> {
                    allFreedWaiters.add(m.replyTo());
                    cleanup.tell(CleanupWorker.CompleteDeferred.INSTANCE);
                    return answerAllFreed();
                })
                .onMessage(CountLive.class, m -> {
                    m.replyTo().tell(netns.netnsCount());
                    return this;
                })
                .onMessage(ReadSeqnum.class, m -> {
                    m.replyTo().tell(globalSeqnum.last());
                    return this;
                })
                .onMessage(GetProcConnector.class, m -> {
                    m.replyTo().tell(procConnector);
                    return this;
                })
                .onMessage(GetRcuStats.class, m -> {
                    env.rcu().tell(new RcuDomain.GetStats(m.replyTo()));
                    return this;
                })
                .onMessage(KernelUevent.class, this::onKernelUevent)
                .onMessage(GroupStopped.class, m -> {
                    List<Long> lost = netns.groupStopped(m.group());
                    if (!lost.isEmpty()) {
                        getContext()
                                .getLog()
                                .error(
                                        "netns group {} failed with {} netns in it",
                                        m.group().path().name(),
                                        lost.size());
                    }
                    lost.forEach(this::answerReleaseWaiters);
                    lost.forEach(this::stoppedInSetup);
                    return answerAllFreed();
                })
                .onMessage(HandedOff.class, m -> {
                    creations.grant(m.holder());
                    return this;
                })
                .onMessage(CountGroups.class, m -> {
                    m.replyTo().tell(netns.groupCount());
                    return this;
                })
                .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
                .onSignal(PostStop.class, s -> {
                    background.stop();
                    creations.failPending();
                    return this;
                })
                .build();
    }

    /** Netns {@code id} stopped: a creation still in its setup_net ends, failed. */
    private void stoppedInSetup(long id) {
        if (creations.stopped(id)) {
            answerAllFreed();
        }
    }

    private Behavior<Command> onRelease(ReleaseNetns m) {
        ActorRef<NetnsGroup.Command> group = netns.groupOf(m.id());
        if (group == null) {
            m.replyTo().tell(Done.getInstance());
        } else {
            releaseWaiters.computeIfAbsent(m.id(), k -> new ArrayList<>()).add(m.replyTo());
            group.tell(new NetnsGroup.Deliver(m.id(), NetNamespace.Put.CREATOR));
        }
        return this;
    }

    private Behavior<Command> onKernelUevent(KernelUevent m) {
        if (m.deviceNetnsId() < 0) {
            env.globalOwner()
                    .tell(new UeventSockOwner.KernelUevent(
                            m.action(), m.devpath(), m.subsystem(), m.keys(), null, m.replyTo()));
            return this;
        }
        ActorRef<NetnsGroup.Command> group = netns.groupOf(m.deviceNetnsId());
        if (group == null) {
            m.replyTo().tell(new InjectResult.Failed(Errno.EINVAL, -1));
        } else {
            group.tell(new NetnsGroup.Deliver(
                    m.deviceNetnsId(),
                    new NetNamespace.EmitTaggedUevent(m.action(), m.devpath(), m.subsystem(), m.keys(), m.replyTo())));
        }
        return this;
    }

    private void answerReleaseWaiters(long id) {
        List<ActorRef<Done>> waiters = releaseWaiters.remove(id);
        if (waiters != null) {
            waiters.forEach(w -> w.tell(Done.getInstance()));
        }
    }

    private Behavior<Command> answerAllFreed() {
        if (netns.netnsCount() == 0 && creations.idle() && !allFreedWaiters.isEmpty()) {
            allFreedWaiters.forEach(r -> r.tell(Done.getInstance()));
            allFreedWaiters.clear();
        }
        return this;
    }
}
