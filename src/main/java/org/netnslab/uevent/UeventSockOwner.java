package org.netnslab.uevent;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.netnslab.machine.Clock;
import org.netnslab.userns.Credentials;

/**
 * The global uevent owner: {@code uevent_sock_mutex} plus {@code uevent_sock_list} of
 * lib/kobject_uevent.c (v4.18..v6.8). In live execution every send the design puts under the global
 * lock is a message to this one actor, so such sends are serialized exactly as the mutex serializes
 * them, and its mailbox is where contending senders wait; in virtual execution the sender runs the send
 * under the simulated uevent_sock_mutex instead ({@link UeventRoute.VirtualPath}).
 *
 * <p>It holds the sockets of every netns owned by the initial user namespace (the list untagged
 * kernel events are broadcast to). Its state is only that list; a failure stops it (the typed
 * default) and the netns actors' sockets are unaffected, but no more sends are served: the run fails
 * rather than continuing with a silently reset lock domain.
 */
public final class UeventSockOwner extends AbstractBehavior<UeventSockOwner.Command> {

    /** The owner's protocol. */
    public sealed interface Command permits Inject, Register, Unregister, KernelUevent {}

    /**
     * An injected message for {@code socket}'s netns, sent under the global lock.
     *
     * @param socket the target netns's socket
     * @param sender the injecting task's credentials
     * @param payload message bytes without SEQNUM
     * @param sentNanos {@link Clock#nanoTime()} at the send
     * @param replyTo receives the {@link InjectResult}
     */
    public record Inject(
            UeventSocket socket, Credentials sender, byte[] payload, long sentNanos, ActorRef<InjectResult> replyTo)
            implements Command {}

    /** Adds a socket to uevent_sock_list (uevent_net_init; see {@link UeventSocket#onUeventSockList()}). */
    public record Register(UeventSocket socket) implements Command {}

    /**
     * Removes a socket from uevent_sock_list (uevent_net_exit). A broadcast that still reaches it
     * finds its listeners closed and delivers nothing.
     */
    public record Unregister(UeventSocket socket) implements Command {}

    /**
     * A kernel-generated uevent (kobject_uevent_env). Untagged ({@code deviceNetns == null}) events go
     * to every socket on uevent_sock_list; tagged ones (network devices) only to the device's netns.
     * The SEQNUM comes from {@code deviceNetns}'s counter for tagged events (which is the per-netns
     * counter under per-netns scope, bumped here under the global lock: review objection 1 of the 2018
     * thread) and from the global counter otherwise.
     *
     * @param action e.g. {@code add}
     * @param devpath e.g. {@code /devices/virtual/net/veth0}
     * @param subsystem e.g. {@code net}
     * @param keys extra {@code KEY=VALUE} pairs
     * @param deviceNetns the device's netns socket, or null for an untagged event
     * @param replyTo receives the SEQNUM used, or the failure
     */
    public record KernelUevent(
            String action,
            String devpath,
            String subsystem,
            Map<String, String> keys,
            UeventSocket deviceNetns,
            ActorRef<InjectResult> replyTo)
            implements Command {}

    private final SeqnumCounter globalSeqnum;
    /**
     * uevent_sock_list: insertion order (a broadcast visits the sockets in the order the kernel's list_add_tail
     * keeps, and a virtual run stays deterministic), O(1) removal at uevent_net_exit (a list of 500,000 netns
     * dismantled one by one was quadratic).
     */
    private final Set<UeventSocket> sockList = new LinkedHashSet<>();

    /**
     * @param globalSeqnum {@code uevent_seqnum}
     * @return the owner's behaviour
     */
    public static Behavior<Command> create(SeqnumCounter globalSeqnum) {
        return Behaviors.setup(ctx -> new UeventSockOwner(ctx, globalSeqnum));
    }

    private UeventSockOwner(ActorContext<Command> ctx, SeqnumCounter globalSeqnum) {
        super(ctx);
        this.globalSeqnum = globalSeqnum;
    }

    /**
     * The route for a netns whose sends take the global lock.
     *
     * @param owner this actor
     * @param socket the netns's socket
     * @return a route that sends through {@code owner}
     */
    public static UeventRoute route(ActorRef<Command> owner, UeventSocket socket) {
        return (sender, payload, sentNanos, replyTo) ->
                owner.tell(new Inject(socket, sender, payload, sentNanos, replyTo));
    }

    /**
     * {@link #route(ActorRef, UeventSocket)} that virtual execution charges under uevent_sock_mutex.
     *
     * @param owner this actor
     * @param socket the netns's socket
     * @param costs the design's uevent costs
     * @return the route
     */
    public static UeventRoute route(ActorRef<Command> owner, UeventSocket socket, UeventCosts costs) {
        return UeventRoute.charged(
                route(owner, socket), UeventRoute.VirtualPath.injection(socket, UeventRoute.globalLock(), costs));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Inject.class, this::onInject)
                .onMessage(Register.class, this::onRegister)
                .onMessage(Unregister.class, this::onUnregister)
                .onMessage(KernelUevent.class, this::onKernelUevent)
                .build();
    }

    private Behavior<Command> onInject(Inject m) {
        m.replyTo().tell(m.socket().inject(m.sender(), m.payload(), m.sentNanos()));
        return this;
    }

    private Behavior<Command> onRegister(Register m) {
        sockList.add(m.socket());
        return this;
    }

    private Behavior<Command> onUnregister(Unregister m) {
        sockList.remove(m.socket());
        return this;
    }

    private Behavior<Command> onKernelUevent(KernelUevent m) {
        if (m.deviceNetns() != null) {
            // Tagged, under uevent_sock_mutex: the device netns's counter (its own under per-netns scope).
            m.replyTo().tell(m.deviceNetns().tagged(m.action(), m.devpath(), m.subsystem(), m.keys()));
            return this;
        }
        UeventMessage msg;
        try {
            msg = UeventMessage.kernelEvent(m.action(), m.devpath(), m.subsystem(), m.keys(), globalSeqnum);
        } catch (UeventException e) {
            m.replyTo().tell(new InjectResult.Failed(e.errno, -1));
            return this;
        }
        Uevent ev = new Uevent(
                msg.encode(), new Audience(Audience.Kind.UNTAGGED, -1), Clock.nanoTime()); // built once, shared
        for (UeventSocket s : sockList) {
            s.broadcast(ev);
        }
        m.replyTo().tell(new InjectResult.Sent(msg.seqnum()));
        return this;
    }
}
