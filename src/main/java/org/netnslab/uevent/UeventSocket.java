package org.netnslab.uevent;

import java.util.Arrays;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.Skb;
import org.netnslab.userns.Capability;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * A netns's kernel uevent socket ({@code net->uevent_sock}, NETLINK_KOBJECT_UEVENT, group 1): the
 * set of listener sockets bound to it, each with a receive queue sized in bytes (af_netlink.c's
 * rules, {@link ReceiveQueue}), and the SEQNUM counter its
 * sends use. Models the send half of lib/kobject_uevent.c: {@link #inject} is uevent_net_rcv_skb,
 * {@link #broadcast} is uevent_net_broadcast.
 *
 * <p>Threading: the socket belongs to its netns actor, but the design decides who sends through it.
 * Under {@code global-owner} only the global owner actor sends (uevent_sock_mutex); under
 * {@code per-netns-owner} the netns actor does (or the global owner for an init-owned netns); under
 * {@code lockless} every sender calls {@link #inject} concurrently from its own thread, as v6.9 does.
 * So sends are thread-safe: the listener set is a copy-on-write array and each listener's queue is
 * thread-safe ({@link ReceiveQueue}). Attaching and closing
 * listeners are done by the netns actor alone.
 */
public final class UeventSocket {
  private final long netnsId;
  private final UserNamespace owner;
  private final SeqnumCounter seqnum;
  private volatile ReceiveQueue<Received>[] listeners = emptyListeners();

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
   * Binds a listener: from now on every broadcast is offered to {@code socket}. Call from the netns
   * actor only, after {@link ReceiveQueue#bind} has sized it.
   *
   * @param socket the listener's receive queue (af_netlink.c rules, bytes)
   */
  public synchronized void attach(ReceiveQueue<Received> socket) {
    ReceiveQueue<Received>[] next = Arrays.copyOf(listeners, listeners.length + 1);
    next[listeners.length] = socket;
    listeners = next;
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
   * Offers {@code event} to every bound listener (netlink_broadcast: do_one_broadcast per socket).
   * Each listener's queue applies the overrun rules ({@link ReceiveQueue#deliver}). The kernel turns
   * ENOBUFS and "nobody listening" into success, so this never fails.
   */
  public void broadcast(Uevent event) {
    int truesize = truesize(event);
    for (ReceiveQueue<Received> l : listeners) {
      l.deliver(event, truesize);
    }
  }

  /**
   * The skb truesize one listener is charged for {@code event}. An injected uevent is the received
   * skb copied by skb_copy_expand(skb, 0, len("SEQNUM=n") + 1) in uevent_net_broadcast()
   * (lib/kobject_uevent.c, v6.6): its allocation still counts the 16-byte netlink header that is
   * pulled afterwards. A kernel-generated one is alloc_uevent_skb()'s alloc_skb(len + env->buflen):
   * exactly its wire length.
   *
   * @param event the uevent
   * @return truesize, bytes
   */
  public static int truesize(Uevent event) {
    int len = event.wire().length;
    return Skb.truesize(event.audience().kind() == Audience.Kind.INJECTED ? Skb.NLMSG_HDRLEN + len : len);
  }

  /**
   * Closes every listener for the netns's pernet exit: no new message reaches them; each reader
   * still gets its pending ENOBUFS and every message already queued, then its stream completes.
   *
   * @return how many listeners are still open: always 0 (a reader never holds the exit back)
   */
  public synchronized int close() {
    for (ReceiveQueue<Received> l : listeners) {
      l.close();
    }
    listeners = emptyListeners();
    return 0;
  }

  @SuppressWarnings("unchecked")
  private static ReceiveQueue<Received>[] emptyListeners() {
    return (ReceiveQueue<Received>[]) new ReceiveQueue<?>[0];
  }
}
