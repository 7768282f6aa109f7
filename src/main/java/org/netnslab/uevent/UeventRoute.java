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
 * (the 2018 per-netns lock), or straight from the sender's own context (v6.9 lockless).
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
     * @return {@link #lockless(UeventSocket)} that virtual execution charges as v6.9's send: no lock, the
     *     SEQNUM taken before the copy and broadcast ({@link VirtualPath#split()})
     */
    static UeventRoute lockless(UeventSocket socket, UeventCosts costs) {
        return charged(lockless(socket), new VirtualPath(socket, m -> null, true, costs));
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
     * What a send costs in virtual execution and under which lock; the injecting task runs the steps
     * (send-outside on a CPU, the lock, the inside part, unlock, return).
     *
     * @param socket the target netns's socket: its listeners, the system-wide mc_list
     * @param lock the lock the inside part holds, given the design run's machine; returning null: none
     * @param split true for v6.9 lockless: {@link UeventSocket#prepareInject} at the start of the inside
     *     part and {@link UeventSocket#send} at its end, straight on the socket as the sender's own context
     *     does; false: the route's {@link #inject} (the owner or netns actor) runs both at the end, under the lock
     * @param costs the design's uevent costs
     */
    record VirtualPath(UeventSocket socket, Function<Machine, Mutex> lock, boolean split, UeventCosts costs) {}

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
