package org.netnslab.uevent;

import akka.stream.BoundedSourceQueue;
import akka.stream.QueueOfferResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.netnslab.userns.Capability;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * A netns's kernel uevent socket ({@code net->uevent_sock}, NETLINK_KOBJECT_UEVENT, group 1): the
 * set of listener sockets bound to it, each with a bounded receive queue, and the SEQNUM counter its
 * sends use. Models the send half of lib/kobject_uevent.c: {@link #inject} is uevent_net_rcv_skb,
 * {@link #broadcast} is uevent_net_broadcast.
 *
 * <p>Threading: the socket belongs to its netns actor, but the design decides who sends through it.
 * Under {@code global-owner} only the global owner actor sends (uevent_sock_mutex); under
 * {@code per-netns-owner} the netns actor does (or the global owner for an init-owned netns); under
 * {@code lockless} every sender calls {@link #inject} concurrently from its own thread, as v6.9 does.
 * So sends are thread-safe: the listener set is a copy-on-write array, each listener's drop count is
 * atomic, and the queues are Akka's thread-safe {@link BoundedSourceQueue}. Attaching and closing
 * listeners are done by the netns actor alone.
 */
public final class UeventSocket {
  private final long netnsId;
  private final UserNamespace owner;
  private final SeqnumCounter seqnum;
  private volatile Listener[] listeners = new Listener[0];

  /**
   * @param netnsId the netns this socket belongs to
   * @param owner the netns's owning user namespace (injection needs CAP_SYS_ADMIN over it)
   * @param seqnum the counter its sends take SEQNUMs from (global or its own, by design)
   */
  public UeventSocket(long netnsId, UserNamespace owner, SeqnumCounter seqnum) {
    this.netnsId = netnsId;
    this.owner = owner;
    this.seqnum = seqnum;
  }

  /** @return the id of the netns this socket belongs to */
  public long netnsId() {
    return netnsId;
  }

  /** @return the netns's owning user namespace */
  public UserNamespace owner() {
    return owner;
  }

  /** @return the counter this socket's sends take SEQNUMs from */
  public SeqnumCounter seqnum() {
    return seqnum;
  }

  /** @return listeners currently bound (closed ones are pruned at {@link #close}) */
  public int listenerCount() {
    return listeners.length;
  }

  /**
   * Binds a listener: from now on every broadcast is offered to {@code queue}. Call from the netns
   * actor only.
   *
   * @param queue the listener's receive queue; its capacity is the socket's receive buffer in messages
   */
  public synchronized void attach(BoundedSourceQueue<Received> queue) {
    Listener[] next = Arrays.copyOf(listeners, listeners.length + 1);
    next[listeners.length] = new Listener(queue);
    listeners = next;
  }

  /**
   * Unbinds the listener whose receive queue is {@code queue}: its socket was closed from userspace,
   * so no later broadcast reaches it. Call from the netns actor only.
   *
   * @param queue the listener's receive queue; unknown or already closed ones are ignored
   */
  public synchronized void detach(BoundedSourceQueue<Received> queue) {
    listeners = Arrays.stream(listeners).filter(l -> l.queue != queue).toArray(Listener[]::new);
  }

  /**
   * Models uevent_net_rcv_skb(): checks the sender's CAP_SYS_ADMIN over the owning user namespace
   * (EPERM, nothing sent and no SEQNUM used), refuses an empty message (EINVAL), takes the next
   * SEQNUM <em>before</em> the size check (a message too big burns a number), appends
   * {@code SEQNUM=n} and broadcasts on this socket only.
   *
   * @param sender the injecting task's credentials
   * @param payload the message as sent, not parsed (the kernel does not parse it)
   * @param sentNanos {@link System#nanoTime()} at the send
   * @return {@link InjectResult.Sent} with the SEQNUM, or {@link InjectResult.Failed}
   */
  public InjectResult inject(Credentials sender, byte[] payload, long sentNanos) {
    if (!sender.nsCapable(owner, Capability.CAP_SYS_ADMIN)) {
      return new InjectResult.Failed(Errno.EPERM, -1);
    }
    if (payload.length == 0) {
      return new InjectResult.Failed(Errno.EINVAL, -1);
    }
    long n = seqnum.next();
    byte[] wire;
    try {
      wire = UeventMessage.appendSeqnum(payload, n);
    } catch (UeventException tooBig) {
      return new InjectResult.Failed(tooBig.errno, n);
    }
    broadcast(new Uevent(wire, new Audience(Audience.Kind.INJECTED, netnsId), sentNanos));
    return new InjectResult.Sent(n);
  }

  /**
   * Offers {@code event} to every bound listener. A full queue drops the message for that listener
   * only and marks ENOBUFS, which the listener receives before its next message. The kernel turns
   * ENOBUFS and "nobody listening" into success, so this never fails.
   */
  public void broadcast(Uevent event) {
    for (Listener l : listeners) {
      l.deliver(event);
    }
  }

  /**
   * Closes every listener for the netns's pernet exit: hands each its pending ENOBUFS, then
   * completes its stream so it sees every message already queued. A listener whose queue is still
   * full cannot be handed its ENOBUFS yet and stays open.
   *
   * @return how many listeners are still open (call again later; loss is never silent)
   */
  public synchronized int close() {
    List<Listener> open = new ArrayList<>();
    for (Listener l : listeners) {
      if (!l.tryComplete()) {
        open.add(l);
      }
    }
    listeners = open.toArray(new Listener[0]);
    return listeners.length;
  }

  /** One bound listener socket: its queue and the drops not yet reported as ENOBUFS. */
  private static final class Listener {
    private final BoundedSourceQueue<Received> queue;
    private final AtomicLong unreported = new AtomicLong();
    private volatile boolean closed;

    Listener(BoundedSourceQueue<Received> queue) {
      this.queue = queue;
    }

    void deliver(Uevent event) {
      if (closed) {
        return;
      }
      if (!reportEnobufs()) {
        unreported.incrementAndGet();
        return;
      }
      QueueOfferResult r = queue.offer(event);
      if (r == QueueOfferResult.dropped()) {
        unreported.incrementAndGet();
      } else if (!r.isEnqueued()) {
        closed = true; // the listener cancelled its stream: the socket was closed from userspace
      }
    }

    /** @return true when no drop is unreported, or the ENOBUFS for them is now queued */
    private boolean reportEnobufs() {
      long d = unreported.get();
      if (d == 0) {
        return true;
      }
      if (!unreported.compareAndSet(d, 0)) {
        return reportEnobufs(); // a concurrent sender reported or dropped meanwhile
      }
      if (queue.offer(new Enobufs(d)).isEnqueued()) {
        return true;
      }
      unreported.addAndGet(d);
      return false;
    }

    boolean tryComplete() {
      if (closed) {
        return true;
      }
      if (!reportEnobufs()) {
        return false;
      }
      closed = true;
      try {
        queue.complete();
      } catch (IllegalStateException alreadyCompleted) {
        // The listener cancelled its stream (closed its socket) and no send has noticed it yet:
        // there is nothing left to close, which is what completing was for.
      }
      return true;
    }
  }
}
