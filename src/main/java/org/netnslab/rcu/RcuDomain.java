package org.netnslab.rcu;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.netnslab.machine.Machine;

/**
 * An RCU domain (kernel/rcu/tree.c, Documentation/RCU): call_rcu, synchronize_rcu (and its expedited form),
 * rcu_barrier and read-side critical sections. Grace periods are shared: every waiter and callback that
 * arrived before one started completes at its end, which comes after its length and once every reader inside
 * a read-side section at its start has left. Waiters are woken first; callbacks run in a later step, in queue
 * order (rcu_do_batch). rcu_barrier waits for the callbacks queued before it and starts no grace period.
 * Under the fair scheduler a normal grace period also waits for its kthread's runs ({@link GpKthread}).
 *
 * <p>One domain per design run in virtual execution is registered on the machine ({@link #register},
 * {@link #of}), so that a process exit's frees ({@link ExitFrees}) share its grace periods. Callbacks run
 * inside this actor and must not block; one that throws is counted and logged, and does not stop the domain.
 */
public final class RcuDomain extends AbstractBehavior<RcuDomain.Command> {

    /** The domain's protocol. */
    public sealed interface Command
            permits CallRcu,
                    Synchronize,
                    Barrier,
                    ReadLock,
                    ReadUnlock,
                    GetStats,
                    GracePeriodElapsed,
                    InvokeCallbacks,
                    CleanedUp,
                    ForceQuiescentState,
                    FqsWait {}

    /** call_rcu: {@code callback} runs in the domain after a full grace period; never blocks the caller. */
    public record CallRcu(Runnable callback) implements Command {}

    /** synchronize_rcu ({@code expedited}: synchronize_rcu_expedited): Done after a full grace period. */
    public record Synchronize(boolean expedited, ActorRef<Done> replyTo) implements Command {}

    /** rcu_barrier: Done when every callback queued before it has been invoked. */
    public record Barrier(ActorRef<Done> replyTo) implements Command {}

    /** rcu_read_lock by reader {@code readerId}: grace periods starting now wait until it unlocks. */
    public record ReadLock(long readerId) implements Command {}

    /** rcu_read_unlock by reader {@code readerId}. */
    public record ReadUnlock(long readerId) implements Command {}

    /** Asks for the domain's counters. */
    public record GetStats(ActorRef<Stats> replyTo) implements Command {}

    /**
     * The domain's counters.
     *
     * @param gracePeriods grace periods completed
     * @param synchronizeCalls synchronize_rcu calls (expedited included)
     * @param barrierCalls rcu_barrier calls
     * @param callbacksInvoked callbacks run
     * @param callbackFailures callbacks that threw
     */
    public record Stats(
            long gracePeriods,
            long synchronizeCalls,
            long barrierCalls,
            long callbacksInvoked,
            long callbackFailures) {}

    private enum GracePeriodElapsed implements Command {
        INSTANCE
    }

    private enum InvokeCallbacks implements Command {
        INSTANCE
    }

    /** The grace-period kthread's rcu_gp_cleanup run is over: the grace period is complete. */
    private enum CleanedUp implements Command {
        INSTANCE
    }

    /** The grace-period kthread's force-quiescent-state timeout expired in grace period {@code gp} (a sequence). */
    private record ForceQuiescentState(long gp) implements Command {}

    /** The grace-period kthread's rcu_gp_init or scan run in grace period {@code gp} is over: it sleeps with a timeout. */
    private record FqsWait(long gp) implements Command {}

    private static final Object FQS_TIMER = "fqs";

    /** The domain registered on a machine for the current design run: the latest one created. */
    private static final class Registered {
        private ActorRef<Command> ref;
    }

    private static final String NAME = "rcu-domain";

    /** Waiters and callbacks that one grace period completes. */
    private static final class Batch {
        final List<ActorRef<Done>> waiters = new ArrayList<>();
        final List<Runnable> callbacks = new ArrayList<>();
        boolean expedited;

        boolean isEmpty() {
            return waiters.isEmpty() && callbacks.isEmpty();
        }
    }

    private record BarrierWaiter(long target, ActorRef<Done> replyTo) {}

    private final Duration gracePeriod;
    private final Duration expeditedGracePeriod;
    /** The grace-period kthread (fair scheduler, {@code gpKthread} &gt; 0), else null. */
    private final GpKthread kthread;
    /** Grace periods started, the sequence of the current one. */
    private long gpSeq;
    /** The grace period's end is waiting for the kthread's rcu_gp_cleanup run. */
    private boolean cleaning;

    private final TimerScheduler<Command> timers;
    private final Set<Long> readers = new HashSet<>();
    private final ArrayDeque<Runnable> ready = new ArrayDeque<>();
    private final List<BarrierWaiter> barriers = new ArrayList<>();
    private Batch next = new Batch();
    private Batch current;
    private Set<Long> blockingReaders = Set.of();
    private boolean elapsed;
    private long queued;
    private long invoked;
    private long gracePeriods;
    private long synchronizeCalls;
    private long barrierCalls;
    private long failures;

    /**
     * @param gracePeriod length of a normal grace period (0 allowed: one message round)
     * @param expeditedGracePeriod length of an expedited grace period
     * @return the domain's behaviour, without a grace-period kthread
     */
    public static Behavior<Command> create(Duration gracePeriod, Duration expeditedGracePeriod) {
        return create(gracePeriod, expeditedGracePeriod, Duration.ZERO);
    }

    /**
     * @param gracePeriod length of a normal grace period (0 allowed: one message round)
     * @param expeditedGracePeriod length of an expedited grace period
     * @param gpKthread CPU of each run of the grace-period kthread (init, scans, cleanup: {@code rcu.gp-kthread});
     *     charged under the fair scheduler only, 0: none
     * @return the domain's behaviour
     */
    public static Behavior<Command> create(Duration gracePeriod, Duration expeditedGracePeriod, Duration gpKthread) {
        return Behaviors.setup(
                ctx -> Behaviors.withTimers(t -> new RcuDomain(ctx, t, gracePeriod, expeditedGracePeriod, gpKthread)));
    }

    /**
     * Makes {@code domain} the RCU domain of the machine's current design run, for {@link #of} (the latest registered,
     * as a design run's model has one). Its creator calls this as it spawns it (an actor's own set-up runs later).
     *
     * @param machine a machine in virtual execution
     * @param domain the domain
     * @throws IllegalStateException in live execution
     */
    public static void register(Machine machine, ActorRef<Command> domain) {
        machine.kernelObject(NAME, Registered.class, Registered::new).ref = domain;
    }

    /**
     * @param machine a machine in virtual execution
     * @return the RCU domain of its current design run
     * @throws IllegalStateException when none was created in this design run (the netns model creates one)
     */
    public static ActorRef<Command> of(Machine machine) {
        ActorRef<Command> ref = machine.kernelObject(NAME, Registered.class, Registered::new).ref;
        if (ref == null) {
            throw new IllegalStateException("no RCU domain in this design run: a process exit's frees need the netns"
                    + " model's (NamespaceSupervisor creates it)");
        }
        return ref;
    }

    private RcuDomain(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            Duration gracePeriod,
            Duration expeditedGracePeriod,
            Duration gpKthread) {
        super(ctx);
        this.timers = timers;
        this.gracePeriod = gracePeriod;
        this.expeditedGracePeriod = expeditedGracePeriod;
        this.kthread = GpKthread.of(Machine.get(ctx.getSystem()), gpKthread);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(CallRcu.class, m -> {
                    queued++;
                    next.callbacks.add(m.callback());
                    return startIfIdle();
                })
                .onMessage(Synchronize.class, m -> {
                    synchronizeCalls++;
                    next.waiters.add(m.replyTo());
                    next.expedited |= m.expedited();
                    return startIfIdle();
                })
                .onMessage(Barrier.class, m -> {
                    barrierCalls++;
                    if (invoked >= queued) {
                        m.replyTo().tell(Done.getInstance());
                    } else {
                        barriers.add(new BarrierWaiter(queued, m.replyTo()));
                    }
                    return this;
                })
                .onMessage(ReadLock.class, m -> {
                    readers.add(m.readerId());
                    return this;
                })
                .onMessage(ReadUnlock.class, m -> {
                    readers.remove(m.readerId());
                    return maybeEnd();
                })
                .onMessage(GetStats.class, m -> {
                    m.replyTo().tell(new Stats(gracePeriods, synchronizeCalls, barrierCalls, invoked, failures));
                    return this;
                })
                .onMessageEquals(GracePeriodElapsed.INSTANCE, () -> {
                    elapsed = true;
                    return maybeEnd();
                })
                .onMessageEquals(InvokeCallbacks.INSTANCE, this::invokeReady)
                .onMessageEquals(CleanedUp.INSTANCE, this::complete)
                .onMessage(ForceQuiescentState.class, this::forceQuiescentState)
                .onMessage(FqsWait.class, m -> {
                    if (inLoop(m.gp())) {
                        armFqs();
                    }
                    return this;
                })
                .build();
    }

    private Behavior<Command> startIfIdle() {
        if (current != null || next.isEmpty()) {
            return this;
        }
        current = next;
        next = new Batch();
        blockingReaders = new HashSet<>(readers);
        elapsed = false;
        gpSeq++;
        Duration length = current.expedited ? expeditedGracePeriod : gracePeriod;
        if (kthread != null && !current.expedited) { // rcu_gp_init: the kthread's run at the start, beside its own time
            kthreadRunThenWait();
        }
        if (length.isZero()) {
            getContext().getSelf().tell(GracePeriodElapsed.INSTANCE);
        } else {
            Machine.get(getContext().getSystem()).timedStep(length.toNanos()); // slow by design, not stalled
            timers.startSingleTimer(GracePeriodElapsed.INSTANCE, length);
        }
        return this;
    }

    /** A run of the grace-period kthread (rcu_gp_init or a scan), after which it sleeps in rcu_gp_fqs_loop. */
    private void kthreadRunThenWait() {
        ActorRef<Command> self = getContext().getSelf();
        FqsWait wait = new FqsWait(gpSeq);
        kthread.run(() -> self.tell(wait));
    }

    /** Arms rcu_gp_fqs_loop's swait timeout ({@link GpKthread#fqsTimeout}) as the kthread's run ends. */
    private void armFqs() {
        timers.startSingleTimer(FQS_TIMER, new ForceQuiescentState(gpSeq), kthread.fqsTimeout());
    }

    /**
     * The timeout expired: a force-quiescent-state scan (rcu_gp_fqs), unless the grace period is over (its length run
     * out and no reader holding it: {@link #maybeEnd} has begun rcu_gp_cleanup), which the loop checks first ({@code
     * !rnp->qsmask}: it breaks to rcu_gp_cleanup without a scan). Scans go on while readers hold the grace period past
     * its length. At a timeout due at the instant the length runs out, the length's timer, armed at the start, comes
     * first.
     */
    private Behavior<Command> forceQuiescentState(ForceQuiescentState m) {
        if (inLoop(m.gp())) {
            kthreadRunThenWait();
        }
        return this;
    }

    /** @return whether grace period {@code gp} is still in rcu_gp_fqs_loop: the current one, not yet cleaning up */
    private boolean inLoop(long gp) {
        return current != null && gp == gpSeq && !cleaning;
    }

    private Behavior<Command> maybeEnd() {
        if (current == null || !elapsed || cleaning) {
            return this;
        }
        blockingReaders.retainAll(readers);
        if (!blockingReaders.isEmpty()) {
            return this;
        }
        if (kthread != null && !current.expedited) { // rcu_gp_cleanup: the grace period is over once the kthread ran it
            cleaning = true;
            timers.cancel(FQS_TIMER);
            ActorRef<Command> self = getContext().getSelf();
            kthread.run(() -> self.tell(CleanedUp.INSTANCE));
            return this;
        }
        return complete();
    }

    private Behavior<Command> complete() {
        cleaning = false;
        Batch done = current;
        current = null;
        gracePeriods++;
        done.waiters.forEach(w -> w.tell(Done.getInstance()));
        if (!done.callbacks.isEmpty()) {
            ready.addAll(done.callbacks);
            getContext().getSelf().tell(InvokeCallbacks.INSTANCE);
        }
        return startIfIdle();
    }

    private Behavior<Command> invokeReady() {
        while (!ready.isEmpty()) {
            Runnable cb = ready.poll();
            try {
                cb.run();
            } catch (RuntimeException e) {
                failures++;
                getContext().getLog().error("RCU callback failed", e);
            }
            invoked++;
        }
        barriers.removeIf(b -> {
            if (b.target() <= invoked) {
                b.replyTo().tell(Done.getInstance());
                return true;
            }
            return false;
        });
        return this;
    }
}
