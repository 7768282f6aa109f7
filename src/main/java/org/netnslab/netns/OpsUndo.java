package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.netnslab.machine.Machine;
import org.netnslab.rcu.RcuDomain;

/**
 * The one pernet-op teardown: ops_undo_list() of net/core/net_namespace.c followed by its caller's
 * rcu_barrier(). Since the 2025 factoring ("net: Factorise setup_net() and cleanup_net()", Kuniyuki
 * Iwashima, v6.16) both a failed setup_net ({@code ops_undo_list(&pernet_list, ops, ...)}: the ops
 * before the failing one) and cleanup_net ({@code ops_undo_list(&pernet_list, NULL, ...)}: every op)
 * run this one sequence over a list of netns:
 *
 * <ol>
 *   <li>pre_exit of every op, in teardown order, for every netns;</li>
 *   <li>ONE synchronize_rcu;</li>
 *   <li>with {@code netns.rtnl.exit-share} above 0 (fair scheduler): ONE RTNL hold for the whole run, standing
 *       for v6.18's exit_rtnl block, default_device_exit_batch and fib_net_exit_batch: an expedited grace
 *       period, the CPU under RTNL on the kworker, an expedited grace period (unregister_netdevice_many's two
 *       synchronize_net());</li>
 *   <li>for each op in teardown order (ops_exit_list): its exit for each netns, one after the other,
 *       with {@code exitCost} spent after a netns's last exit, then its exit_batch with the netns ids;</li>
 *   <li>free every netns's per-op data (ops_free_list), then {@link DataFreed}: cleanup_net releases the
 *       lifecycle lock here;</li>
 *   <li>ONE rcu_barrier, then {@link Finished}: the caller drops the passive references (net_drop_ns).</li>
 * </ol>
 *
 * <p>The kernel's cleanup_net waits with synchronize_rcu_expedited since v6.9 ({@code netns.cleanup-rcu =
 * expedited}; a failed setup_net's undo waits a normal one) and runs the exit_rtnl hooks under RTNL
 * before the exits (v6.16+, e333b1c3cf25 and 7a60d91c690b); the model holds RTNL there when
 * {@code netns.rtnl.exit-share} is above 0.
 *
 * <p>A short-lived child of its caller, one per run (the Akka IoT tutorial's per-query aggregator): the
 * cleanup worker spawns one per batch, a netns whose setup_net failed spawns one for itself. It
 * watches the netns of the run; one that stops, or does not answer within {@code timeout}, is logged
 * and left out of the rest of the run and of {@link Finished}. The timer is restarted each time it
 * fires, so every wait of the run is bounded. A failure of an op's exit_batch stops this actor (the
 * typed default); its caller watches it.
 *
 * <p>Over the ~300-line guide: the six steps above are one state machine whose states share
 * the member bookkeeping and the timeout; split over classes they would pass that state back and forth.
 */
public final class OpsUndo extends AbstractBehavior<OpsUndo.Command> {

    /** The run's protocol. */
    public sealed interface Command
            permits NetnsDone,
                    RcuDone,
                    ExitCpuSpent,
                    ExitCostSpent,
                    RtnlTaken,
                    RtnlCpuSpent,
                    RtnlReleased,
                    MemberStopped,
                    TimedOut {}

    /** A netns of the run finished the step it was asked for. */
    public record NetnsDone(long netnsId) implements Command {}

    private enum RcuDone implements Command {
        INSTANCE
    }

    private enum ExitCostSpent implements Command {
        INSTANCE
    }

    /** A netns's exits' CPU ({@code costs.netns.exit-per-netns}) has run on a simulated CPU. */
    private enum ExitCpuSpent implements Command {
        INSTANCE
    }

    /** The run holds RTNL now. */
    private enum RtnlTaken implements Command {
        INSTANCE
    }

    /** The CPU of the run's RTNL hold has run. */
    private enum RtnlCpuSpent implements Command {
        INSTANCE
    }

    /** The kworker has released RTNL (on its CPU). */
    private enum RtnlReleased implements Command {
        INSTANCE
    }

    private record MemberStopped(long netnsId) implements Command {}

    private enum TimedOut implements Command {
        INSTANCE
    }

    /**
     * A netns of the run: only its id and actor, never its state.
     *
     * @param netnsId the netns id
     * @param actor the netns actor
     */
    public record Member(long netnsId, ActorRef<NetNamespace.Command> actor) {}

    /** What the run tells its caller. */
    public sealed interface Report permits DataFreed, Finished {}

    /** Every per-op data of the run is freed: cleanup_net releases the lifecycle lock now. */
    public enum DataFreed implements Report {
        INSTANCE
    }

    /**
     * The rcu_barrier is over; the run has stopped.
     *
     * @param remaining the members that took part to the end (not stopped, not timed out), in run order
     */
    public record Finished(List<Member> remaining) implements Report {}

    private enum Step {
        PRE_EXIT,
        SYNCHRONIZE,
        RTNL,
        RTNL_SECOND_SYNC,
        EXIT,
        EXIT_COST,
        FREE_DATA,
        BARRIER
    }

    private final List<PernetOperations> ops;
    private final List<Integer> order;
    private final List<Member> members;
    private final List<Long> ids;
    private final ActorRef<RcuDomain.Command> rcu;
    private final Duration exitCost;
    private final long exitCpuNanos;
    /** The exits' CPU per netns spent under RTNL, in the run's one hold (0: RTNL not modelled). */
    private final long rtnlCpuNanos;
    /** The kworker running cleanup_net (fair scheduler), or null: the exits' CPU as one-off steps. */
    private final org.netnslab.machine.CpuTask worker;

    private final boolean expedited;
    private final LifecycleProbe probe;
    private final Duration timeout;
    private final ActorRef<Report> replyTo;
    private final TimerScheduler<Command> timers;
    private final ActorRef<Done> rcuDone;
    private final Set<Long> awaiting = new HashSet<>();
    private final Set<Long> abandoned = new HashSet<>();
    private Step step = Step.PRE_EXIT;
    /** During the exits: the position in {@link #order} of the op running, and the netns it runs for. */
    private int opPos;

    private int netnsPos;

    /**
     * @param ops the ops to undo, in registration order (every op, or those before a failed init)
     * @param members the netns to undo them for, in cleanup order
     * @param rcu the RCU domain
     * @param exitCost simulated kernel work of the exits per netns, lock held (0: none)
     * @param probe told when a netns's exits are done
     * @param timeout longest wait for the netns of one step, e.g. {@link #defaultTimeout}
     * @param replyTo receives {@link DataFreed} and then {@link Finished}
     * @return the run's behaviour; it stops after {@link Finished}
     */
    public static Behavior<Command> create(
            List<PernetOperations> ops,
            List<Member> members,
            ActorRef<RcuDomain.Command> rcu,
            Duration exitCost,
            LifecycleProbe probe,
            Duration timeout,
            ActorRef<Report> replyTo) {
        return create(ops, members, rcu, exitCost, Duration.ZERO, probe, timeout, replyTo);
    }

    /**
     * As {@link #create(List, List, ActorRef, Duration, LifecycleProbe, Duration, ActorRef)}, with the
     * exits' CPU work per netns ({@code costs.netns.exit-per-netns}), run on a simulated CPU after a
     * netns's last exit, before {@code exitCost}, in virtual execution only.
     *
     * @param exitCpu CPU of the exits per netns, lock held (ignored in live execution)
     */
    public static Behavior<Command> create(
            List<PernetOperations> ops,
            List<Member> members,
            ActorRef<RcuDomain.Command> rcu,
            Duration exitCost,
            Duration exitCpu,
            LifecycleProbe probe,
            Duration timeout,
            ActorRef<Report> replyTo) {
        return create(ops, members, rcu, exitCost, exitCpu, probe, timeout, replyTo, null, false);
    }

    /**
     * As the other factories, as cleanup_net runs it: on the netns kworker's task and with the batch's
     * grace-period wait expedited or not ({@code netns.cleanup-rcu}).
     *
     * @param worker the kworker's task (fair scheduler: the exits' CPU are its kernel steps, each ending at
     *     ops_exit_list()'s cond_resched()); null: one-off steps
     * @param expedited synchronize_rcu_expedited() instead of synchronize_rcu()
     */
    public static Behavior<Command> create(
            List<PernetOperations> ops,
            List<Member> members,
            ActorRef<RcuDomain.Command> rcu,
            Duration exitCost,
            Duration exitCpu,
            LifecycleProbe probe,
            Duration timeout,
            ActorRef<Report> replyTo,
            org.netnslab.machine.CpuTask worker,
            boolean expedited) {
        return create(ops, members, rcu, exitCost, exitCpu, probe, timeout, replyTo, worker, expedited, 0);
    }

    /**
     * As the other factories, with RTNL held for a share of the exits' CPU ({@code netns.rtnl.exit-share}), in one
     * hold for the whole run right after its grace period. v6.18 takes RTNL several times per batch: ops_undo_list's
     * exit_rtnl block (ops_exit_rtnl_list), default_device_exit_batch (net/core/dev.c: rtnl_lock, the batch's
     * loopbacks to unregister_netdevice_many, rtnl_unlock) and fib_net_exit_batch; the model makes them one hold of
     * unregister_netdevice_many's shape: synchronize_net(), the CPU, synchronize_net() (both expedited under RTNL).
     * Creations that reach their own RTNL hold meanwhile sleep on the mutex.
     *
     * @param rtnlShare the share of each netns's exit CPU spent under RTNL, 0..1; used with a kworker task only
     */
    public static Behavior<Command> create(
            List<PernetOperations> ops,
            List<Member> members,
            ActorRef<RcuDomain.Command> rcu,
            Duration exitCost,
            Duration exitCpu,
            LifecycleProbe probe,
            Duration timeout,
            ActorRef<Report> replyTo,
            org.netnslab.machine.CpuTask worker,
            boolean expedited,
            double rtnlShare) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
            Machine machine = Machine.get(ctx.getSystem());
            long cpu = machine.isVirtual() ? exitCpu.toNanos() : 0;
            long underRtnl = worker != null && machine.fair() ? Math.round(cpu * rtnlShare) : 0;
            return new OpsUndo(
                            ctx,
                            timers,
                            ops,
                            members,
                            rcu,
                            exitCost,
                            cpu - underRtnl,
                            underRtnl,
                            probe,
                            timeout,
                            replyTo,
                            worker,
                            expedited)
                    .start();
        }));
    }

    /**
     * The default timeout of a run: max(60 s, netns x (exit-cost + 10 x grace period)), generous enough
     * that only a netns that cannot finish its exit (a listener that never drains) reaches it.
     *
     * @param netns netns in the run
     * @param exitCost {@code netns.exit-cost}
     * @param gracePeriod {@code rcu.grace-period}
     * @return the timeout
     */
    public static Duration defaultTimeout(int netns, Duration exitCost, Duration gracePeriod) {
        Duration perNetns = exitCost.plus(gracePeriod.multipliedBy(10));
        Duration derived = perNetns.multipliedBy(netns);
        Duration floor = Duration.ofSeconds(60);
        return derived.compareTo(floor) > 0 ? derived : floor;
    }

    /**
     * The teardown order of {@code count} registered ops (list_for_each_entry_reverse over pernet_list):
     * their registration indices from last to first. The only place the model writes that order.
     *
     * @param count ops registered (or initialised)
     * @return indices {@code count-1 .. 0}
     */
    static List<Integer> teardownOrder(int count) {
        if (count < SMALL_ORDERS.length) {
            return SMALL_ORDERS[count];
        }
        return buildTeardownOrder(count);
    }

    /**
     * The orders of 0 to 15 ops, built once: every netns asks for its order three times in a cleanup
     * (pre_exit, data free, net_free), which the churn profile showed allocating each time.
     */
    private static final List<Integer>[] SMALL_ORDERS = smallOrders();

    @SuppressWarnings("unchecked")
    private static List<Integer>[] smallOrders() {
        List<Integer>[] orders = new List[16];
        for (int n = 0; n < orders.length; n++) {
            orders[n] = buildTeardownOrder(n);
        }
        return orders;
    }

    private static List<Integer> buildTeardownOrder(int count) {
        List<Integer> order = new ArrayList<>(count);
        for (int i = count - 1; i >= 0; i--) {
            order.add(i);
        }
        return List.copyOf(order);
    }

    private OpsUndo(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            List<PernetOperations> ops,
            List<Member> members,
            ActorRef<RcuDomain.Command> rcu,
            Duration exitCost,
            long exitCpuNanos,
            long rtnlCpuNanos,
            LifecycleProbe probe,
            Duration timeout,
            ActorRef<Report> replyTo,
            org.netnslab.machine.CpuTask worker,
            boolean expedited) {
        super(ctx);
        this.exitCpuNanos = exitCpuNanos;
        this.rtnlCpuNanos = rtnlCpuNanos;
        this.worker = worker;
        this.expedited = expedited;
        this.timers = timers;
        this.ops = List.copyOf(ops);
        this.order = teardownOrder(ops.size());
        this.members = List.copyOf(members);
        this.ids = members.stream().map(Member::netnsId).toList();
        this.rcu = rcu;
        this.exitCost = exitCost;
        this.probe = probe;
        this.timeout = timeout;
        this.replyTo = replyTo;
        this.rcuDone = ctx.messageAdapter(Done.class, d -> RcuDone.INSTANCE);
    }

    private Behavior<Command> start() {
        // A member already stopped is reported at once: the run goes on without it.
        members.forEach(m -> getContext().watchWith(m.actor(), new MemberStopped(m.netnsId())));
        timers.startSingleTimer(TimedOut.INSTANCE, timeout);
        return askAll(NetNamespace.PreExit::new);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(NetnsDone.class, m -> answered(m.netnsId()))
                .onMessage(MemberStopped.class, this::onMemberStopped)
                .onMessageEquals(RcuDone.INSTANCE, this::onRcuDone)
                .onMessageEquals(ExitCostSpent.INSTANCE, this::nextNetns)
                .onMessageEquals(ExitCpuSpent.INSTANCE, this::exitWaits)
                .onMessageEquals(RtnlTaken.INSTANCE, this::synchronizeNet)
                .onMessageEquals(RtnlReleased.INSTANCE, this::nextExit)
                .onMessageEquals(RtnlCpuSpent.INSTANCE, () -> {
                    step = Step.RTNL_SECOND_SYNC;
                    return synchronizeNet();
                })
                .onMessageEquals(TimedOut.INSTANCE, this::onTimedOut)
                .build();
    }

    /** Sends {@code request} to every member still in the run; the step ends when each has answered. */
    private Behavior<Command> askAll(java.util.function.Function<ActorRef<Command>, NetNamespace.Command> request) {
        members.stream().filter(m -> !abandoned.contains(m.netnsId())).forEach(m -> {
            awaiting.add(m.netnsId());
            m.actor().tell(request.apply(getContext().getSelf()));
        });
        return awaiting.isEmpty() ? stepDone() : this;
    }

    private Behavior<Command> answered(long id) {
        return awaiting.remove(id) && awaiting.isEmpty() ? stepDone() : this;
    }

    private Behavior<Command> onMemberStopped(MemberStopped m) {
        if (awaiting.contains(m.netnsId())) {
            getContext()
                    .getLog()
                    .error("netns {} stopped during its {}; the run goes on without it", m.netnsId(), describe());
        }
        abandoned.add(m.netnsId());
        return answered(m.netnsId());
    }

    /** Every member asked in the current step has answered (or left the run). */
    private Behavior<Command> stepDone() {
        switch (step) {
            case PRE_EXIT:
                step = Step.SYNCHRONIZE;
                rcu.tell(new RcuDomain.Synchronize(expedited, rcuDone));
                return this;
            case EXIT:
                return exited();
            case FREE_DATA:
                replyTo.tell(DataFreed.INSTANCE);
                step = Step.BARRIER;
                rcu.tell(new RcuDomain.Barrier(rcuDone));
                return this;
            default:
                throw new IllegalStateException("ops_undo: no netns answer expected in step " + step);
        }
    }

    private Behavior<Command> onRcuDone() {
        if (step == Step.SYNCHRONIZE) {
            opPos = 0;
            netnsPos = 0;
            if (rtnlHoldNanos() > 0) { // the batch's RTNL hold, then the exits outside it
                step = Step.RTNL;
                ActorRef<Command> self = getContext().getSelf();
                onWorker(() -> rtnl().lock(worker, () -> self.tell(RtnlTaken.INSTANCE)));
                return this;
            }
            return nextExit();
        }
        if (step == Step.RTNL) { // unregister_netdevice_many's first synchronize_net is over: its CPU
            ActorRef<Command> self = getContext().getSelf();
            Machine.get(getContext().getSystem())
                    .compute(
                            worker,
                            org.netnslab.machine.Step.KERNEL,
                            rtnlHoldNanos(),
                            () -> self.tell(RtnlCpuSpent.INSTANCE));
            return this;
        }
        if (step == Step.RTNL_SECOND_SYNC) {
            ActorRef<Command> self = getContext().getSelf();
            onWorker(() -> {
                rtnl().unlock();
                self.tell(RtnlReleased.INSTANCE);
            });
            return this;
        }
        if (step == Step.BARRIER) {
            replyTo.tell(new Finished(members.stream()
                    .filter(m -> !abandoned.contains(m.netnsId()))
                    .toList()));
            return Behaviors.stopped();
        }
        throw new IllegalStateException("ops_undo: unexpected RCU answer in step " + step);
    }

    /**
     * synchronize_net() under RTNL: synchronize_rcu_expedited(), as net/core/dev.c synchronize_net() does when
     * rtnl_is_locked() (or from cleanup_net); the kworker sleeps holding the mutex.
     */
    private Behavior<Command> synchronizeNet() {
        rcu.tell(new RcuDomain.Synchronize(true, rcuDone));
        return this;
    }

    /**
     * Runs {@code call} on the kworker's CPU (fair): woken from its grace period, the kworker calls rtnl_lock() or
     * rtnl_unlock() only once it runs, so a sleeping kworker neither takes nor releases the mutex. Without a
     * kworker task (fifo) at once.
     */
    private void onWorker(Runnable call) {
        if (worker != null) {
            Machine.get(getContext().getSystem()).compute(worker, org.netnslab.machine.Step.KERNEL, 0, call);
        } else {
            call.run();
        }
    }

    /** @return the CPU of the run's RTNL hold: its share of the exits of the netns still in the run, ns */
    private long rtnlHoldNanos() {
        return rtnlCpuNanos * (members.size() - abandoned.size());
    }

    private org.netnslab.machine.Mutex rtnl() {
        return Machine.get(getContext().getSystem()).mutex(NetnsActor.RTNL);
    }

    /** ops_exit_list, op after op: the exit for the next netns of the op running, or its exit_batch. */
    private Behavior<Command> nextExit() {
        while (opPos < order.size()) {
            int op = order.get(opPos);
            if (netnsPos < members.size()) {
                Member m = members.get(netnsPos);
                if (!abandoned.contains(m.netnsId())) {
                    step = Step.EXIT;
                    awaiting.add(m.netnsId());
                    m.actor().tell(new NetNamespace.Exit(op, getContext().getSelf()));
                    return this;
                }
                netnsPos++;
            } else {
                ops.get(op).exitBatch(ids);
                opPos++;
                netnsPos = 0;
            }
        }
        step = Step.FREE_DATA;
        return askAll(NetNamespace.FreeData::new);
    }

    /** A netns's exit of the op running is done; after its last exit, its exit cost is spent. */
    private Behavior<Command> exited() {
        boolean lastExit = opPos == order.size() - 1;
        if (lastExit && !abandoned.contains(members.get(netnsPos).netnsId())) {
            probe.netnsExited();
            if (exitCpuNanos > 0) { // the kworker's CPU for this netns's exits, then their sleeping waits
                step = Step.EXIT_COST;
                ActorRef<Command> self = getContext().getSelf();
                Machine machine = Machine.get(getContext().getSystem());
                if (worker != null) { // ops_exit_list: cond_resched() after each ops->exit(net)
                    machine.compute(
                            worker,
                            org.netnslab.machine.Step.COND_RESCHED,
                            exitCpuNanos,
                            () -> self.tell(ExitCpuSpent.INSTANCE));
                } else {
                    machine.compute(exitCpuNanos, () -> self.tell(ExitCpuSpent.INSTANCE));
                }
                return this;
            }
            return exitWaits();
        }
        return nextNetns();
    }

    /** The exits' sleeping waits ({@code exitCost}), if any, then the next netns. */
    private Behavior<Command> exitWaits() {
        if (!exitCost.isZero()) {
            step = Step.EXIT_COST;
            Machine.get(getContext().getSystem()).timedStep(exitCost.toNanos()); // slow by design, not stalled
            timers.startSingleTimer(ExitCostSpent.INSTANCE, exitCost);
            return this;
        }
        return nextNetns();
    }

    private Behavior<Command> nextNetns() {
        netnsPos++;
        return nextExit();
    }

    private Behavior<Command> onTimedOut() {
        timers.startSingleTimer(TimedOut.INSTANCE, timeout);
        if (awaiting.isEmpty()) {
            getContext()
                    .getLog()
                    .warn("ops_undo of {} netns: still in its {} after {}", members.size(), describe(), timeout);
            return this;
        }
        getContext()
                .getLog()
                .error(
                        "ops_undo of {} netns: no answer within {} from netns {} to its {}; the run goes on "
                                + "without them",
                        members.size(),
                        timeout,
                        new TreeSet<>(awaiting),
                        describe());
        abandoned.addAll(awaiting);
        awaiting.clear();
        return stepDone();
    }

    private String describe() {
        switch (step) {
            case EXIT:
            case EXIT_COST:
                return "exit of op " + ops.get(order.get(opPos)).name();
            case SYNCHRONIZE:
                return "synchronize_rcu";
            case RTNL:
            case RTNL_SECOND_SYNC:
                return "RTNL hold (unregister_netdevice_many)";
            case BARRIER:
                return "rcu_barrier";
            default:
                return step.name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
