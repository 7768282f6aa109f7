package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.netnslab.fault.FaultSwitch;
import org.netnslab.fault.Faults;
import org.netnslab.machine.Clock;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netns.NetNamespace.Command;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.UeventCosts;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.uevent.UeventSockOwner;

/**
 * A netns's uevent side (lib/kobject_uevent.c), part of its actor: the route its injections take under the
 * design, the kernel uevents tagged for its devices, and the listener sockets bound to its uevent socket,
 * each a user socket that holds a netns reference until it is closed. Only the actor's own behaviours call it.
 */
final class NetnsUevents {
    private final ActorContext<Command> ctx;
    private final Net net;
    private final Faults faults;
    /**
     * Bound listener sockets, each holding one active reference until its ListenerClosed; allocated at the
     * first. Insertion order: a virtual run is deterministic.
     */
    private Set<ReceiveQueue<Received>> listeners;
    /** Waiting for CloseListeners to have completed every listener stream; allocated at the first. */
    private List<ActorRef<Done>> closingListeners;

    NetnsUevents(ActorContext<Command> ctx, Net net, Faults faults) {
        this.ctx = ctx;
        this.net = net;
        this.faults = faults;
    }

    /**
     * @return the route injections into this netns take under the design: the global owner, this actor (its
     *     per-netns lock) or none
     */
    UeventRoute route() {
        UeventCosts costs = net.settings.costs().uevent();
        switch (net.settings.uevent().serialization()) {
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
                        UeventRoute.VirtualPath.injection(net.ueventSocket, UeventRoute.ownLock(net.id()), costs));
            case LOCKLESS:
                return UeventRoute.lockless(net.ueventSocket, costs);
            default:
                throw new IllegalStateException("unhandled uevent.serialization "
                        + net.settings.uevent().serialization());
        }
    }

    /** uevent_net_rcv_skb in this netns, under its per-netns lock: this actor. */
    void inject(NetNamespace.Inject m) {
        m.replyTo().tell(net.ueventSocket.inject(m.sender(), m.payload(), m.sentNanos()));
    }

    /** sendmsg on a uevent socket of this netns: the injection takes the design's route. */
    void send(NetNamespace.SendUevent m, UeventRoute route) {
        route.inject(m.sender(), m.payload(), Clock.nanoTime(), m.replyTo());
    }

    /** A tagged kernel uevent: under the global owner, or this netns's own lock (or none). */
    void emitTagged(NetNamespace.EmitTaggedUevent m) {
        if (net.settings
                .uevent()
                .serialization()
                .taggedUnderGlobalLock(net.owner().isInitial())) {
            net.globalOwner.tell(new UeventSockOwner.KernelUevent(
                    m.action(), m.devpath(), m.subsystem(), m.keys(), net.ueventSocket, m.replyTo()));
        } else { // this netns's own lock (per-netns-owner-fixed), or none at all (lockless)
            m.replyTo().tell(net.ueventSocket.tagged(m.action(), m.devpath(), m.subsystem(), m.keys()));
        }
    }

    /**
     * Binds a listener (socket() and setsockopt in this netns, with the {@code faults.listener} switch on its
     * recvmsg); the caller takes its reference.
     */
    void attach(NetNamespace.AttachListener a) {
        a.queue().bind(net.settings.netlink());
        a.queue()
                .recvFault(() -> faults.next(
                        FaultSwitch.LISTENER, () -> "a uevent listener of netns " + net.id() + " handling a recvmsg"));
        if (listeners == null) {
            listeners = new LinkedHashSet<>();
        }
        listeners.add(a.queue());
        net.ueventSocket.attach(a.queue());
        a.bound().complete(Done.getInstance());
    }

    /** A listener that asks to bind while the netns is dismantled is refused: it never holds a reference. */
    void refuse(NetNamespace.AttachListener a) {
        a.queue().close();
        a.bound().completeExceptionally(new IllegalStateException("netns " + net.id() + " is being dismantled"));
    }

    /** @return whether the listener held a reference, which its close now drops (not one refused at attach) */
    boolean closed(NetNamespace.ListenerClosed m) {
        if (listeners == null || !listeners.remove(m.queue())) {
            return false;
        }
        net.ueventSocket.detach(m.queue());
        return true;
    }

    /** Every listener process closes its socket; {@code replyTo} waits for every stream to be completed. */
    void closeListeners(ActorRef<Done> replyTo) {
        if (closingListeners == null) {
            closingListeners = new ArrayList<>(1);
        }
        closingListeners.add(replyTo);
        closeListeners();
    }

    /**
     * Hands every listener its pending ENOBUFS and completes its stream; a listener whose queue is still
     * full is tried again a millisecond later. Only this netns's CloseListeners waiters wait.
     */
    void closeListeners() {
        if (net.ueventSocket.close() > 0) {
            ctx.scheduleOnce(Duration.ofMillis(1), ctx.getSelf(), NetNamespace.CloseListenersTick.INSTANCE);
            return;
        }
        if (closingListeners != null) {
            closingListeners.forEach(r -> r.tell(Done.getInstance()));
            closingListeners = null;
        }
    }

    /**
     * The actor stopped without net_free (its supervisor stopped, or it failed): the listeners still open fail
     * with the reason, rather than wait for uevents that never come.
     *
     * @param supervisor the supervisor's name, for the error
     */
    void failOpenListeners(String supervisor) {
        if (listeners != null && !listeners.isEmpty()) { // the exception only for a listener to fail
            IllegalStateException gone = new IllegalStateException("netns " + net.id()
                    + " stopped while this listener was open (its supervisor "
                    + supervisor
                    + " stopped, or the netns actor failed)");
            listeners.stream().filter(q -> !q.isClosed()).forEach(q -> q.fail(gone));
        }
    }
}
