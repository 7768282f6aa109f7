package org.netnslab.uevent;

import akka.actor.typed.ActorRef;
import org.netnslab.userns.Credentials;
import org.netnslab.machine.Clock;

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
}
