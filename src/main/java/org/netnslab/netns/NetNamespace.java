package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.pattern.StatusReply;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.netnslab.machine.Clock;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.userns.Credentials;

/**
 * The protocol of a network namespace's actor ({@code struct net}, net/core/net_namespace.c): what
 * processes, the supervisor, the cleanup worker and a teardown run ask of one netns. A creator reaches
 * the actor through the {@link NetnsHandle} it gets back.
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
    public record AttachListener(ReceiveQueue<Received> queue, CompletableFuture<Done> bound) implements Command {}

    /**
     * The listener socket whose receive queue is {@code queue} was closed from userspace (its stream
     * was cancelled or has completed): it leaves the uevent socket and drops the netns reference it
     * held (__sk_destruct's put_net). Sent by {@link NetnsHandle#uevents}; ignored for a listener the
     * netns refused.
     */
    record ListenerClosed(ReceiveQueue<Received> queue) implements Command {}

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
        /** The one message. */
        INSTANCE
    }

    /**
     * put_net: one active reference less; at 0 the netns goes to the cleanup worker. {@code CREATOR} is the creating
     * process's own reference, which it drops once: a second one is refused with a warning (as refcount_t refuses the
     * underflow it would become, lib/refcount.c), so it cannot take a reference a socket still holds.
     */
    public enum Put implements Command {
        /** Any other holder's reference (a process that entered the netns). */
        INSTANCE,
        /** The creating process's own reference, dropped once. */
        CREATOR
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
     * grace period. {@code replyTo} gets Done when the close is issued, or an error naming the socket when it is not
     * open in this netns (never opened here, or closed already): nothing changes then.
     */
    public record CloseSocket(long socketId, ActorRef<StatusReply<Done>> replyTo) implements Command {}

    /**
     * The class of {@link CloseSocket}'s reply, for a message adapter. A workload's adapter reads it with
     * {@link StatusReply#getValue}, which throws for an error: a workload closes only sockets it opened, so an error
     * there is a defect of the model and stops the workload's actor with it.
     */
    @SuppressWarnings("unchecked")
    public static final Class<StatusReply<Done>> CLOSE_REPLY = (Class<StatusReply<Done>>) (Class<?>) StatusReply.class;

    /** sock_inuse_get, as /proc/net/sockstat reads it: -1 when the counter is freed. */
    public record ReadSockInuse(ActorRef<Integer> replyTo) implements Command {}

    /**
     * A teardown run (ops_undo_list): run every initialised op's pre_exit in teardown order; answered with
     * {@link StepDone}.
     */
    public record PreExit(ActorRef<StepDone> replyTo) implements Command {}

    /**
     * A teardown run: run op {@code op}'s exit (index in registration order) and whatever it waits for;
     * answered with {@link StepDone}.
     */
    public record Exit(int op, ActorRef<StepDone> replyTo) implements Command {}

    /**
     * A teardown run: free every initialised op's per-netns data in teardown order; answered with
     * {@link StepDone}.
     */
    public record FreeData(ActorRef<StepDone> replyTo) implements Command {}

    /**
     * The answer to {@link PreExit}, {@link Exit} and {@link FreeData}: netns {@code netnsId} has done the
     * step.
     */
    public record StepDone(long netnsId) {}

    /** Cleanup worker: drop the passive reference taken at allocation; at 0, net_free. */
    public enum DropPassive implements Command {
        /** The one message. */
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

    /** What the teardown run that undoes a failed setup_net reports. */
    enum UndoReport implements Command {
        /** Every per-op data is freed. */
        DATA_FREED,
        /** The run's rcu_barrier is over: the creator gets the error, then net_free. */
        FINISHED
    }
}
