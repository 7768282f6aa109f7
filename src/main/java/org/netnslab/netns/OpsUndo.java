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
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.netnslab.machine.Machine;
import org.netnslab.rcu.RcuDomain;

/**
 * The one pernet-op teardown: ops_undo_list() of net/core/net_namespace.c and its caller's rcu_barrier(), run
 * over a list of netns by cleanup_net (every op) and by a failed setup_net (the ops before the failing one).
 * A short-lived child of its caller, one per run; a netns of the run that stops, or does not answer a step
 * within {@code timeout}, is logged and left out of the rest of the run. A failure of an op's exit_batch stops
 * the run (the typed default); its caller watches it.
 */
public final class OpsUndo extends AbstractBehavior<OpsUndo.Command> {

    /** The run's protocol: every message is its own (the netns answer through a message adapter). */
    public sealed interface Command permits NetnsDone, MemberStopped, Event {}

    /** A netns of the run finished the step it was asked for. */
    private record NetnsDone(long netnsId) implements Command {}

    /** A netns of the run stopped. */
    private record MemberStopped(long netnsId) implements Command {}

    /** The run's own events: its RCU answers, its timers, the simulated machine's callbacks. */
    private enum Event implements Command {
        /** The grace period asked for is over. */
        RCU_DONE,
        /** A netns's exits' sleeping waits ({@code netns.exit-cost}) are over. */
        EXIT_COST_SPENT,
        /** A netns's exits' CPU ({@code costs.netns.exit-per-netns}) has run on a simulated CPU. */
        EXIT_CPU_SPENT,
        /** The run holds RTNL. */
        RTNL_TAKEN,
        /** The CPU of the run's RTNL hold has run. */
        RTNL_CPU_SPENT,
        /** The kworker has released RTNL (on its CPU). */
        RTNL_RELEASED,
        /** The run's timeout fired: it is restarted each time, so every wait of the run is bounded. */
        TIMED_OUT
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

    /** Every per-op data of the run is freed: cleanup_net releases the lifecycle lock here. */
    public enum DataFreed implements Report {
        INSTANCE
    }

    /**
     * The rcu_barrier is over; the run has stopped.
     *
     * @param remaining the members that took part to the end (not stopped, not timed out), in run order
     */
    public record Finished(List<Member> remaining) implements Report {}

    /**
     * The run's steps, in order: pre_exit of every op for every netns; ONE synchronize_rcu; the RTNL hold, if
     * any; the exits (ops_exit_list); the data frees (ops_free_list, then {@link DataFreed}); ONE rcu_barrier
     * (then {@link Finished}).
     */
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

    private final List<Member> members;
    private final OpsExitList exits;
    private final ActorRef<RcuDomain.Command> rcu;
    private final ExitWork work;
    /** The exits' CPU per netns outside RTNL, and in the run's one RTNL hold (0: RTNL not modelled), ns. */
    private final long exitCpuNanos;

    private final long rtnlCpuNanos;
    private final LifecycleProbe probe;
    private final Duration timeout;
    private final ActorRef<Report> replyTo;
    private final TimerScheduler<Command> timers;
    private final Machine machine;
    private final ActorRef<Command> self;
    private final ActorRef<Done> rcuDone;
    private final ActorRef<NetNamespace.StepDone> stepDone;
    private final Set<Long> awaiting = new HashSet<>();
    private final Set<Long> abandoned = new HashSet<>();
    private Step step = Step.PRE_EXIT;

    /**
     * @param ops the ops to undo, in registration order (every op, or those before a failed init)
     * @param members the netns to undo them for, in cleanup order
     * @param rcu the RCU domain
     * @param work what the exits cost and who runs them
     * @param probe told when a netns's exits are done
     * @param timeout longest wait for the netns of one step, e.g. {@link #defaultTimeout}
     * @param replyTo receives {@link DataFreed} and then {@link Finished}
     * @return the run's behaviour; it stops after {@link Finished}
     */
    public static Behavior<Command> create(
            List<PernetOperations> ops,
            List<Member> members,
            ActorRef<RcuDomain.Command> rcu,
            ExitWork work,
            LifecycleProbe probe,
            Duration timeout,
            ActorRef<Report> replyTo) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(
                timers -> new OpsUndo(ctx, timers, ops, members, rcu, work, probe, timeout, replyTo).start()));
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

    private OpsUndo(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            List<PernetOperations> ops,
            List<Member> members,
            ActorRef<RcuDomain.Command> rcu,
            ExitWork work,
            LifecycleProbe probe,
            Duration timeout,
            ActorRef<Report> replyTo) {
        super(ctx);
        this.machine = Machine.get(ctx.getSystem());
        this.self = ctx.getSelf();
        this.work = work;
        this.exitCpuNanos = work.outsideRtnlNanos(machine);
        this.rtnlCpuNanos = work.rtnlNanos(machine);
        this.timers = timers;
        this.members = List.copyOf(members);
        this.exits = new OpsExitList(ops, this.members);
        this.rcu = rcu;
        this.probe = probe;
        this.timeout = timeout;
        this.replyTo = replyTo;
        this.rcuDone = ctx.messageAdapter(Done.class, d -> Event.RCU_DONE);
        this.stepDone = ctx.messageAdapter(NetNamespace.StepDone.class, d -> new NetnsDone(d.netnsId()));
    }

    private Behavior<Command> start() {
        // A member already stopped is reported at once: the run goes on without it.
        members.forEach(m -> getContext().watchWith(m.actor(), new MemberStopped(m.netnsId())));
        timers.startSingleTimer(Event.TIMED_OUT, timeout);
        return askAll(NetNamespace.PreExit::new);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(NetnsDone.class, m -> answered(m.netnsId()))
                .onMessage(MemberStopped.class, this::onMemberStopped)
                .onMessageEquals(Event.RCU_DONE, this::onRcuDone)
                .onMessageEquals(Event.EXIT_COST_SPENT, this::nextNetns)
                .onMessageEquals(Event.EXIT_CPU_SPENT, this::exitWaits)
                .onMessageEquals(Event.RTNL_TAKEN, this::synchronizeNet)
                .onMessageEquals(Event.RTNL_RELEASED, this::nextExit)
                .onMessageEquals(Event.RTNL_CPU_SPENT, () -> {
                    step = Step.RTNL_SECOND_SYNC;
                    return synchronizeNet();
                })
                .onMessageEquals(Event.TIMED_OUT, this::onTimedOut)
                .build();
    }

    /** Sends {@code request} to every member still in the run; the step ends when each has answered. */
    private Behavior<Command> askAll(Function<ActorRef<NetNamespace.StepDone>, NetNamespace.Command> request) {
        members.stream().filter(m -> !abandoned.contains(m.netnsId())).forEach(m -> {
            awaiting.add(m.netnsId());
            m.actor().tell(request.apply(stepDone));
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
                rcu.tell(new RcuDomain.Synchronize(work.expedited(), rcuDone));
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

    /**
     * The run's grace periods are over, one after the other: the synchronize_rcu after the pre_exits, the RTNL
     * hold's two, and the rcu_barrier after the data frees.
     *
     * <p>With {@code netns.rtnl.exit-share} above 0 (a kworker, fair scheduler) the run holds RTNL once, right
     * after its grace period, for its share of every exit's CPU. It stands for the several holds of a kernel
     * cleanup (ops_undo_list's exit_rtnl block, default_device_exit_batch, fib_net_exit_batch) in the shape of
     * unregister_netdevice_many: synchronize_net(), the CPU, synchronize_net(). Creations that reach their own
     * RTNL hold meanwhile sleep on the mutex.
     */
    private Behavior<Command> onRcuDone() {
        if (step == Step.SYNCHRONIZE) {
            if (rtnlHoldNanos() > 0) { // the batch's RTNL hold, then the exits outside it
                step = Step.RTNL;
                Rtnl.lock(machine, work.worker(), () -> self.tell(Event.RTNL_TAKEN));
                return this;
            }
            return nextExit();
        }
        if (step == Step.RTNL) { // unregister_netdevice_many's first synchronize_net is over: its CPU
            Rtnl.hold(machine, work.worker(), rtnlHoldNanos(), () -> self.tell(Event.RTNL_CPU_SPENT));
            return this;
        }
        if (step == Step.RTNL_SECOND_SYNC) {
            Rtnl.unlock(machine, work.worker(), () -> self.tell(Event.RTNL_RELEASED));
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

    /** @return the CPU of the run's RTNL hold: its share of the exits of the netns still in the run, ns */
    private long rtnlHoldNanos() {
        return rtnlCpuNanos * (members.size() - abandoned.size());
    }

    /** ops_exit_list, op after op: the exit for the next netns of the op running, or the data frees. */
    private Behavior<Command> nextExit() {
        Member m = exits.next(abandoned);
        if (m != null) {
            step = Step.EXIT;
            awaiting.add(m.netnsId());
            m.actor().tell(new NetNamespace.Exit(exits.op(), stepDone));
            return this;
        }
        step = Step.FREE_DATA;
        return askAll(NetNamespace.FreeData::new);
    }

    /** A netns's exit of the op running is done; after its last exit, its exits' CPU and waits are spent. */
    private Behavior<Command> exited() {
        if (exits.lastOp() && !abandoned.contains(exits.current().netnsId())) {
            probe.netnsExited();
            if (exitCpuNanos > 0) { // the kworker's CPU for this netns's exits, then their sleeping waits
                step = Step.EXIT_COST;
                work.spendExitCpu(machine, exitCpuNanos, () -> self.tell(Event.EXIT_CPU_SPENT));
                return this;
            }
            return exitWaits();
        }
        return nextNetns();
    }

    /** The exits' sleeping waits ({@code netns.exit-cost}), if any, then the next netns. */
    private Behavior<Command> exitWaits() {
        if (!work.exitCost().isZero()) {
            step = Step.EXIT_COST;
            machine.timedStep(work.exitCost().toNanos()); // slow by design, not stalled
            timers.startSingleTimer(Event.EXIT_COST_SPENT, work.exitCost());
            return this;
        }
        return nextNetns();
    }

    private Behavior<Command> nextNetns() {
        exits.advance();
        return nextExit();
    }

    private Behavior<Command> onTimedOut() {
        timers.startSingleTimer(Event.TIMED_OUT, timeout);
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
        return switch (step) {
            case EXIT, EXIT_COST -> "exit of op " + exits.opName();
            case SYNCHRONIZE -> "synchronize_rcu";
            case RTNL, RTNL_SECOND_SYNC -> "RTNL hold (unregister_netdevice_many)";
            case BARRIER -> "rcu_barrier";
            default -> step.name().toLowerCase(Locale.ROOT);
        };
    }
}
