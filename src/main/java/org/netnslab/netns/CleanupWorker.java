package org.netnslab.netns;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.ChildFailed;
import akka.actor.typed.SupervisorStrategy;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.netnslab.fault.FaultSwitch;
import org.netnslab.fault.Faults;
import org.netnslab.fault.ModelFault;
import org.netnslab.machine.Clock;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.rcu.RcuDomain;
import org.slf4j.event.Level;

/**
 * The single cleanup worker: {@code cleanup_list} and cleanup_net() of net/core/net_namespace.c on its
 * single-threaded workqueue. At most one batch runs at a time, over every netns on the list when the worker
 * takes it: the lifecycle lock, then an {@link OpsUndo} child over the batch (the lock released when its data
 * is freed), then each netns's passive reference dropped (net_free where it reaches 0). The worker knows the
 * netns only by id and actor. A batch that fails (an op's exit_batch threw) fails the worker (the typed
 * default): the run fails visibly rather than leaking netns. The fault switch {@code faults.cleanup-worker}
 * is resumed (see {@link #startIfIdle}).
 */
public final class CleanupWorker extends AbstractBehavior<CleanupWorker.Command> {

    /** The worker's protocol. */
    public sealed interface Command
            permits Enqueue, LockGranted, BatchReport, MemberStopped, QueueWork, CompleteDeferred {}

    /**
     * {@code netns.struct-net-free = next-cleanup}: the run waits for every netns freed; once nothing is left
     * to clean, the netns on defer_free_list are freed (the later cleanup_net the kernel would need).
     */
    public enum CompleteDeferred implements Command {
        INSTANCE
    }

    /** The work queued again after a fault: runs cleanup_net if the worker is idle (never faults itself). */
    private enum QueueWork implements Command {
        INSTANCE
    }

    /**
     * __put_net: a netns whose active count reached 0 joins cleanup_list.
     *
     * @param netnsId the netns id
     * @param actor the netns actor
     */
    public record Enqueue(long netnsId, ActorRef<NetNamespace.Command> actor) implements Command {}

    /** The supervisor granted the lifecycle lock for the batch. */
    public enum LockGranted implements Command {
        INSTANCE
    }

    private record BatchReport(OpsUndo.Report report) implements Command {}

    /** A netns on the list stopped before its batch: it failed. */
    private record MemberStopped(long netnsId) implements Command {}

    private final List<PernetOperations> ops;
    private final ActorRef<RcuDomain.Command> rcu;
    private final ActorRef<NamespaceSupervisor.Command> supervisor;
    private final LifecycleProbe probe;
    private final IntFunction<Duration> batchTimeout;
    private final ActorRef<OpsUndo.Report> reports;
    private final Faults faults;
    private final Map<Long, ActorRef<NetNamespace.Command>> cleanupList = new LinkedHashMap<>();
    /** The batch taken off the list, from the lock request to its end; null when idle. */
    private List<OpsUndo.Member> batch;
    /** When the running batch was taken off cleanup_list (ns), and its kworker's CPU clock then (ns). */
    private long runStart;

    private long runCpuAtStart;
    /** The netns workqueue's kworker (fair scheduler), or null. */
    private final CpuTask worker;
    /** What each batch's exits cost, on {@link #worker}. */
    private final ExitWork work;

    private final boolean deferFree;
    /** v6.13 defer_free_list: the last round's netns, their last passive reference not yet dropped. */
    private List<OpsUndo.Member> deferred = List.of();
    /** A run waits for every netns freed: free the deferred ones once nothing is left to clean. */
    private boolean completeWhenIdle;

    private long batches;

    /**
     * @param ops the registered pernet ops, in registration order
     * @param rcu the RCU domain
     * @param supervisor grants and takes back the lifecycle lock
     * @param probe told of each batch's size and run
     * @param settings the design: {@code netns.exit-cost}, {@code netns.cleanup-rcu}, {@code netns.struct-net-free},
     *     {@code netns.rtnl.exit-share}, and the exits' CPU per netns ({@code costs.netns.exit-per-netns}, charged
     *     on a simulated CPU in virtual execution only)
     * @param batchTimeout each batch's {@link OpsUndo} timeout for its number of netns, by default
     *     {@link OpsUndo#defaultTimeout}: max(60 s, batch size x (exit-cost + 10 x grace period))
     * @param faults the fault switches ({@code faults.cleanup-worker})
     * @return the worker's behaviour
     */
    public static Behavior<Command> create(
            List<PernetOperations> ops,
            ActorRef<RcuDomain.Command> rcu,
            ActorRef<NamespaceSupervisor.Command> supervisor,
            LifecycleProbe probe,
            ModelSettings settings,
            IntFunction<Duration> batchTimeout,
            Faults faults) {
        // the fault switch's ModelFault is resumed (startIfIdle); any other failure stops the worker
        return Behaviors.supervise(Behaviors.<Command>setup(
                        ctx -> new CleanupWorker(ctx, ops, rcu, supervisor, probe, settings, batchTimeout, faults)))
                .onFailure(ModelFault.class, SupervisorStrategy.resume().withLogLevel(Level.DEBUG));
    }

    private CleanupWorker(
            ActorContext<Command> ctx,
            List<PernetOperations> ops,
            ActorRef<RcuDomain.Command> rcu,
            ActorRef<NamespaceSupervisor.Command> supervisor,
            LifecycleProbe probe,
            ModelSettings settings,
            IntFunction<Duration> batchTimeout,
            Faults faults) {
        super(ctx);
        this.faults = faults;
        this.ops = ops;
        this.rcu = rcu;
        this.supervisor = supervisor;
        this.probe = probe;
        this.batchTimeout = batchTimeout;
        this.reports = ctx.messageAdapter(OpsUndo.Report.class, BatchReport::new);
        Machine m = Machine.get(ctx.getSystem());
        // the netns workqueue (WQ_UNBOUND): the work item runs on one kworker at a time
        this.worker = m.fair() ? m.newTask("kworker/u:netns", CpuTask.Kind.KWORKER) : null;
        NetnsSettings netns = settings.netns();
        this.work = new ExitWork(
                netns.exitCost(),
                settings.costs().lifecycle().exitPerNetns(),
                worker,
                netns.cleanupRcu() == CleanupRcu.EXPEDITED,
                netns.rtnlExitShare());
        this.deferFree = netns.structNetFree() == StructNetFree.NEXT_CLEANUP;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Enqueue.class, m -> {
                    getContext().watchWith(m.actor(), new MemberStopped(m.netnsId()));
                    cleanupList.put(m.netnsId(), m.actor());
                    return startIfIdle(true);
                })
                .onMessageEquals(QueueWork.INSTANCE, () -> startIfIdle(false))
                .onMessageEquals(CompleteDeferred.INSTANCE, () -> {
                    completeWhenIdle = true;
                    return completeDeferredIfIdle();
                })
                .onMessageEquals(LockGranted.INSTANCE, this::runBatch)
                .onMessage(BatchReport.class, m -> m.report() instanceof OpsUndo.Finished f ? finished(f) : dataFreed())
                .onMessage(MemberStopped.class, m -> {
                    cleanupList.remove(m.netnsId());
                    return this;
                })
                .onSignal(ChildFailed.class, f -> {
                    throw new IllegalStateException("cleanup batch failed", f.getCause());
                })
                .onSignal(Terminated.class, t -> this) // a batch that reported Finished
                .build();
    }

    /**
     * cleanup_net's start: the whole list becomes the batch, and the batch waits for the lock.
     *
     * <p>Fault switch {@code faults.cleanup-worker} ({@link FaultSwitch#CLEANUP_WORKER}): every Nth
     * {@code eligible} start throws a {@link ModelFault} before it takes the list. Supervision: resume. In the
     * kernel a netns is on cleanup_list once __put_net has added it (llist_add cannot fail) and queued
     * net_cleanup_work; nothing can forget the list. Resume keeps the list and the batch in progress, so no
     * netns is lost (a restart would leak every netns on the list) and none is freed twice. The work is queued
     * again at once ({@link QueueWork}, not eligible), as the next __put_net's queue_work would, so the last
     * netns of a run is not stranded.
     *
     * @param eligible whether this start counts for the fault switch (not the retry of a faulted one)
     * @throws ModelFault when the switch fires
     */
    private Behavior<Command> startIfIdle(boolean eligible) {
        if (batch != null || cleanupList.isEmpty()) {
            return this;
        }
        ModelFault fault = eligible
                ? faults.next(
                        FaultSwitch.CLEANUP_WORKER,
                        () -> "the cleanup worker starting cleanup_net over " + cleanupList.size() + " netns")
                : null;
        if (fault != null) {
            getContext().getSelf().tell(QueueWork.INSTANCE);
            throw fault;
        }
        batch = cleanupList.entrySet().stream()
                .map(e -> new OpsUndo.Member(e.getKey(), e.getValue()))
                .toList();
        cleanupList.clear();
        batch.forEach(m -> getContext().unwatch(m.actor())); // from now on its batch watches it
        probe.cleanupBatch(batch.size());
        runStart = Clock.nanoTime();
        runCpuAtStart = worker != null ? worker.cpuNanos() : 0;
        supervisor.tell(new NamespaceSupervisor.AcquireCleanupLock(getContext().getSelf()));
        return this;
    }

    private Behavior<Command> runBatch() {
        ActorRef<OpsUndo.Command> run = ModelDispatcher.spawn(
                getContext(),
                OpsUndo.create(ops, batch, rcu, work, probe, batchTimeout.apply(batch.size()), reports),
                "cleanup-batch-" + ++batches);
        getContext().watch(run);
        return this;
    }

    private Behavior<Command> dataFreed() {
        supervisor.tell(NamespaceSupervisor.ReleaseCleanupLock.INSTANCE);
        return this;
    }

    /** After the batch's rcu_barrier: net_drop_ns for each netns still there, then the next batch. */
    private Behavior<Command> finished(OpsUndo.Finished f) {
        if (deferFree) { // v6.13: net_complete_free() of the last round, then this round's net_passive_dec()
            deferred.forEach(m -> m.actor().tell(NetNamespace.DropPassive.INSTANCE));
            deferred = f.remaining();
        } else {
            f.remaining().forEach(m -> m.actor().tell(NetNamespace.DropPassive.INSTANCE));
        }
        long wall = Clock.nanoTime() - runStart;
        long cpu = worker != null
                ? worker.cpuNanos() - runCpuAtStart
                : work.exitCpu().toNanos() * batch.size();
        probe.cleanupRun(wall, Math.max(0, wall - cpu));
        batch = null;
        startIfIdle(true);
        return completeDeferredIfIdle();
    }

    private Behavior<Command> completeDeferredIfIdle() {
        if (completeWhenIdle && batch == null && cleanupList.isEmpty() && !deferred.isEmpty()) {
            deferred.forEach(m -> m.actor().tell(NetNamespace.DropPassive.INSTANCE));
            deferred = List.of();
        }
        return this;
    }
}
