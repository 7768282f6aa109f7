package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.SupervisorStrategy;
import akka.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.netnslab.fault.Faults;
import org.netnslab.fault.ModelFault;
import org.netnslab.machine.Clock;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.UeventSockOwner;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.slf4j.event.Level;

/**
 * One network namespace ({@code struct net}, net/core/net_namespace.c): its protocol and its
 * behaviour factory. The actor owns its {@link Net} state: the uevent socket with its listeners, its
 * own SEQNUM counter under per-netns scope, its per-CPU sock_inuse counter, its sockets, and its
 * active and passive reference counts. Under {@code per-netns-owner} it also serializes the
 * injections into itself (the 2018 per-netns lock).
 *
 * <p>Its lifecycle is a sequence of behaviours:
 * <ul>
 *   <li><b>setting up</b> ({@link NetnsActor}): setup_net runs every pernet op's init in order when
 *       the actor starts, then spends {@code netns.setup-cost} while other messages wait in a stash;
 *       the creator gets the handle;</li>
 *   <li><b>live</b> ({@link NetnsActor}): until put_net drops the last active reference; the netns
 *       then joins the cleanup worker's list;</li>
 *   <li><b>dismantling</b> ({@link NetnsTeardown}): no new reference, socket or listener; it runs the
 *       steps its batch's {@link OpsUndo} asks for, an exit that waits for RCU or retries in a
 *       behaviour of its own; at the last passive reference, net_free;</li>
 *   <li><b>undoing</b> ({@link NetnsTeardown}): when an init fails, a child {@link OpsUndo} undoes the
 *       ops already run exactly as a cleanup batch would; then the creator gets the error and
 *       net_free runs;</li>
 *   <li><b>freed</b>: the actor stops.</li>
 * </ul>
 * A failure stops the actor (the typed default): no counter is ever silently reset; the supervisor
 * sees it stop. The one exception is the fault switch {@code faults.netns-actor}'s {@link ModelFault},
 * which is resumed (see {@link NetnsActor}).
 */
public final class NetNamespace {
    private NetNamespace() {}

    /** The netns actor's protocol. */
    public sealed interface Command
            permits Inject,
                    SendUevent,
                    AttachListener,
                    ListenerClosed,
                    CloseListeners,
                    EmitTaggedUevent,
                    Get,
                    Put,
                    OpenSocket,
                    CloseSocket,
                    ReadSockInuse,
                    PreExit,
                    Exit,
                    FreeData,
                    DropPassive,
                    RcuDone,
                    RetryTick,
                    CloseListenersTick,
                    SetupCostSpent,
                    SetupCpuSpent,
                    UndoReport {}

    /**
     * An injection under the per-netns lock (uevent_net_rcv_skb in this netns).
     *
     * @param sender the injecting task's credentials
     * @param payload message bytes without SEQNUM
     * @param sentNanos {@link Clock#nanoTime()} at the send
     * @param replyTo receives the {@link InjectResult} once the message is on every listener queue
     */
    public record Inject(Credentials sender, byte[] payload, long sentNanos, ActorRef<InjectResult> replyTo)
            implements Command {}

    /**
     * sendmsg on a uevent socket of this netns: the injection takes the design's route (global owner,
     * this actor, or lockless) as an injector's would, with one extra hop through this actor.
     */
    public record SendUevent(Credentials sender, byte[] payload, ActorRef<InjectResult> replyTo) implements Command {}

    /**
     * Binds a listener socket to this netns's uevent socket, sized by this netns's design sysctls
     * (socket() and setsockopt in this netns); {@code bound} completes when it is bound, or
     * exceptionally with {@link IllegalStateException} when the netns is being dismantled. A bound
     * listener is a user socket: it holds a netns reference (sk_alloc's get_net for
     * {@code sk_net_refcnt}) until its {@link ListenerClosed}.
     */
    public record AttachListener(org.netnslab.netlink.ReceiveQueue<Received> queue, CompletableFuture<Done> bound)
            implements Command {}

    /**
     * The listener socket whose receive queue is {@code queue} was closed from userspace (its stream
     * was cancelled or has completed): it leaves the uevent socket and drops the netns reference it
     * held (__sk_destruct's put_net). Sent by {@link NetnsHandle#uevents}; ignored for a listener the
     * netns refused.
     */
    record ListenerClosed(org.netnslab.netlink.ReceiveQueue<Received> queue) implements Command {}

    /**
     * Every listener process of this netns reads what is left and closes its socket (userspace, not the
     * kernel): each listener is handed its pending ENOBUFS, then its stream completes after the messages
     * already queued; once a stream has ended, its {@link ListenerClosed} drops its reference.
     * {@code replyTo} gets Done when every listener's stream has been completed (the ENOBUFS takes no
     * queue slot, af_netlink.c, so none has to wait for its reader). Only this netns waits; its
     * cleanup and every other netns go on.
     */
    public record CloseListeners(ActorRef<Done> replyTo) implements Command {}

    /**
     * A kernel-generated uevent for a network device in this netns (tagged): sent under the global
     * owner, this netns's own lock or none, as {@link org.netnslab.uevent.UeventSerialization#taggedUnderGlobalLock}
     * says for the design.
     */
    public record EmitTaggedUevent(
            String action, String devpath, String subsystem, Map<String, String> keys, ActorRef<InjectResult> replyTo)
            implements Command {}

    /** get_net: one more active reference (a process entering the netns). */
    public enum Get implements Command {
        INSTANCE
    }

    /** put_net: one active reference less; at 0 the netns goes to the cleanup worker. */
    public enum Put implements Command {
        INSTANCE
    }

    /**
     * A process opens a socket in the netns (sk_alloc): it takes an active reference and adds 1 to
     * sock_inuse on the current CPU. {@code replyTo} gets the socket's id, or -1 when the netns is
     * already being dismantled.
     */
    public record OpenSocket(ActorRef<Long> replyTo) implements Command {}

    /**
     * Closes socket {@code socketId} (sk_free): -1 on sock_inuse and the reference dropped at once, or,
     * for the {@code sockets.rcu-free-fraction} share (SOCK_RCU_FREE), both from an RCU callback after a
     * grace period. {@code replyTo} gets Done when the close is issued.
     */
    public record CloseSocket(long socketId, ActorRef<Done> replyTo) implements Command {}

    /** sock_inuse_get, as /proc/net/sockstat reads it: -1 when the counter is freed. */
    public record ReadSockInuse(ActorRef<Integer> replyTo) implements Command {}

    /** {@link OpsUndo}: run every initialised op's pre_exit (teardown order); answered with {@link OpsUndo.NetnsDone}. */
    public record PreExit(ActorRef<OpsUndo.Command> replyTo) implements Command {}

    /**
     * {@link OpsUndo}: run op {@code op}'s exit (index in registration order) and whatever it waits for;
     * answered with {@link OpsUndo.NetnsDone}.
     */
    public record Exit(int op, ActorRef<OpsUndo.Command> replyTo) implements Command {}

    /** {@link OpsUndo}: free every initialised op's per-netns data (teardown order); answered with {@link OpsUndo.NetnsDone}. */
    public record FreeData(ActorRef<OpsUndo.Command> replyTo) implements Command {}

    /** Cleanup worker: drop the passive reference taken at allocation; at 0, net_free. */
    public enum DropPassive implements Command {
        INSTANCE
    }

    /** The RCU domain answered the synchronize_rcu or rcu_barrier an exit waits for. */
    enum RcuDone implements Command {
        INSTANCE
    }

    /** Time to try again the exit that could not let go of a resource. */
    enum RetryTick implements Command {
        INSTANCE
    }

    /** Time to try again to close the listeners whose pending ENOBUFS could not be queued yet. */
    enum CloseListenersTick implements Command {
        INSTANCE
    }

    /** setup_net's own kernel work is done. */
    enum SetupCostSpent implements Command {
        INSTANCE
    }

    /** setup_net's CPU work ({@code costs.netns.setup-net}, virtual execution) has run on a simulated CPU. */
    enum SetupCpuSpent implements Command {
        INSTANCE
    }

    /** From the {@link OpsUndo} that undoes a failed setup_net. */
    record UndoReport(OpsUndo.Report report) implements Command {}

    /**
     * @param id the netns id
     * @param owner the owning user namespace
     * @param design the design in force
     * @param ops the registered pernet ops, in registration order
     * @param env the domain's shared actors and counters
     * @param requestNanos when the creation was requested ({@link Clock#nanoTime()})
     * @param created receives the handle, or the failure, once setup_net has run
     * @return the netns behaviour
     */
    public static Behavior<Command> create(
            long id,
            UserNamespace owner,
            ModelSettings settings,
            List<PernetOperations> ops,
            Env env,
            long requestNanos,
            ActorRef<CreateResult> created) {
        return create(id, owner, settings, ops, env, requestNanos, created, null);
    }

    /**
     * As the other factory, with the creating task: setup_net's CPU runs as a kernel step of its
     * unshare() call (fair scheduler); null: a one-off step.
     *
     * @param task the creating process's task, or null
     */
    public static Behavior<Command> create(
            long id,
            UserNamespace owner,
            ModelSettings settings,
            List<PernetOperations> ops,
            Env env,
            long requestNanos,
            ActorRef<CreateResult> created,
            org.netnslab.machine.CpuTask task) {
        // faults.netns-actor: resumed, never restarted (NetnsActor's Javadoc); any other failure stops it
        // no Behaviors.withTimers: a TimerScheduler per netns costs heap in a population of a million; the few
        // one-shot waits (setup cost, retries) use ctx.scheduleOnce
        return Behaviors.supervise(Behaviors.<Command>setup(ctx -> {
                    NetnsActor actor = new NetnsActor(ctx, id, owner, settings, ops, env);
                    return org.netnslab.machine.OnStop.wrap(
                            Command.class, actor.setupNet(requestNanos, created, task), actor::stopped);
                }))
                .onFailure(ModelFault.class, SupervisorStrategy.resume().withLogLevel(Level.DEBUG));
    }

    /**
     * What every netns of a supervisor shares.
     *
     * @param rcu the RCU domain
     * @param globalOwner the uevent_sock_mutex owner
     * @param globalSeqnum {@code uevent_seqnum}
     * @param cleanup the cleanup worker
     * @param supervisor told when setup_net has finished
     * @param probe where lifecycle events are reported
     * @param undoTimeout the {@link OpsUndo} timeout for a run over that many netns
     * @param faults the supervisor's fault switches
     */
    public record Env(
            ActorRef<RcuDomain.Command> rcu,
            ActorRef<UeventSockOwner.Command> globalOwner,
            SeqnumCounter globalSeqnum,
            ActorRef<CleanupWorker.Command> cleanup,
            ActorRef<NamespaceSupervisor.Command> supervisor,
            LifecycleProbe probe,
            IntFunction<Duration> undoTimeout,
            Faults faults) {}
}
