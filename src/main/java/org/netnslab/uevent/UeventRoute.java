package org.netnslab.uevent;

import akka.actor.typed.ActorRef;
import java.util.function.Function;
import org.netnslab.machine.Clock;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Mutex;
import org.netnslab.userns.Credentials;

/**
 * The path an injected uevent takes from a sender to a netns's socket, fixed by the design when the
 * netns is created: through the global owner (uevent_sock_mutex), through the netns's own actor
 * (the 2018 per-netns lock), or straight from the sender's own context (v6.9 lockless). In virtual
 * execution the sender runs the send itself under the path's simulated lock ({@link VirtualPath}).
 * Implementations are immutable and safe to use from any actor.
 */
public interface UeventRoute {
    /**
     * Sends one injected message; the {@link InjectResult} arrives at {@code replyTo} once it is on
     * every listener queue of the target netns (or refused).
     *
     * @param sender the injecting task's credentials
     * @param payload the message bytes without SEQNUM
     * @param sentNanos {@link Clock#nanoTime()} at the send
     * @param replyTo where the result goes
     */
    void inject(Credentials sender, byte[] payload, long sentNanos, ActorRef<InjectResult> replyTo);

    /**
     * The v6.9 form: no owner, the sender runs uevent_net_rcv_skb itself, concurrently with other
     * senders. The result is told to {@code replyTo} (normally the sender itself) so that a closed-loop
     * sender still yields between sends.
     *
     * @param socket the target netns's socket, shared with every sender on purpose
     * @return the route
     */
    static UeventRoute lockless(UeventSocket socket) {
        return (sender, payload, sentNanos, replyTo) -> replyTo.tell(socket.inject(sender, payload, sentNanos));
    }

    /**
     * @param socket the target netns's socket
     * @param costs the design's uevent costs
     * @return {@link #lockless(UeventSocket)} that virtual execution charges as v6.9's send: no lock
     */
    static UeventRoute lockless(UeventSocket socket, UeventCosts costs) {
        return charged(lockless(socket), VirtualPath.injection(socket, m -> null, costs));
    }

    /**
     * How virtual execution charges a send on this route ({@link VirtualPath}); null: the route is not a
     * uevent send path of the model (e.g. a test's stub) and costs nothing.
     *
     * @return the path, or null
     */
    default VirtualPath virtualPath() {
        return null;
    }

    /**
     * A send in virtual execution, split where lib/kobject_uevent.c splits it: the sending task runs
     * send-outside, takes the lock, then {@code prepare} (the SEQNUM bump and the message built with it),
     * the inside part ({@code send-inside}: the SEQNUM string and the skb copy; then netlink_broadcast's
     * walk and deliveries), and at its end the broadcast ({@link UeventSocket#send}); unlock, return.
     * Between the bump and the broadcast another task may run on another CPU: under the same lock it cannot
     * bump the same counter, under another lock (or none) it can, and its broadcast may come first
     * (docs/how-the-model-works.md, "Where each part takes simulated time").
     *
     * @param socket the target netns's socket: its listeners, the system-wide mc_list
     * @param lock the lock the bump and the inside part hold, given the design run's machine; returning null:
     *     none (v6.9)
     * @param prepare the first half: {@link UeventSocket#prepareInject} for an injection, {@link
     *     UeventSocket#prepareTagged} for a device's kernel uevent
     * @param costs the design's uevent costs
     */
    record VirtualPath(UeventSocket socket, Function<Machine, Mutex> lock, Prepare prepare, UeventCosts costs) {
        /**
         * An injection's path: uevent_net_rcv_skb -> uevent_net_broadcast (v4.17+), whose first half is
         * {@link UeventSocket#prepareInject}.
         *
         * @param socket the target netns's socket (null for a netns whose pernet ops make none: a test's, which
         *     sends nothing)
         * @param lock the lock it holds, or a function returning null for none
         * @param costs the design's uevent costs
         * @return the path
         */
        public static VirtualPath injection(UeventSocket socket, Function<Machine, Mutex> lock, UeventCosts costs) {
            return new VirtualPath(
                    socket,
                    lock,
                    (sender, payload, sentNanos) -> socket.prepareInject(sender, payload, sentNanos),
                    costs);
        }
    }

    /** The first half of a send: the SEQNUM bump and the message that carries it, or the refusal. */
    @FunctionalInterface
    interface Prepare {
        /**
         * @param sender the sending task's credentials (null for a device's kernel uevent)
         * @param payload the injected message without SEQNUM (unused by a kernel uevent)
         * @param sentNanos {@link Clock#nanoTime()} at the send
         * @return {@link UeventSocket.Ready} to broadcast, or {@link UeventSocket.Refused}
         */
        UeventSocket.Step prepare(Credentials sender, byte[] payload, long sentNanos);
    }

    /**
     * @param live the route's send (the same actors in both executions)
     * @param path how virtual execution charges it
     * @return {@code live} with {@code path}
     */
    static UeventRoute charged(UeventRoute live, VirtualPath path) {
        return new UeventRoute() {
            @Override
            public void inject(Credentials sender, byte[] payload, long sentNanos, ActorRef<InjectResult> replyTo) {
                live.inject(sender, payload, sentNanos, replyTo);
            }

            @Override
            public VirtualPath virtualPath() {
                return path;
            }
        };
    }

    /** @return uevent_sock_mutex of the design run (v4.17..v6.8 and the 2018 proposal's init-owned netns) */
    static Function<Machine, Mutex> globalLock() {
        return m -> m.mutex("uevent_sock_mutex");
    }

    /**
     * @param netnsId the netns
     * @return that netns's own uevent mutex (the 2018 proposal), created on first use; one per route, so
     *     one per netns and design run
     */
    static Function<Machine, Mutex> ownLock(long netnsId) {
        Mutex[] own = new Mutex[1];
        return m -> {
            if (own[0] == null) {
                own[0] = m.newMutex("uevent_sock_mutex of netns " + netnsId);
            }
            return own[0];
        };
    }
}
