package org.netnslab.uevent;

import java.util.Arrays;
import java.util.Map;
import org.netnslab.machine.Clock;
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
 *
 * <p>A send is two halves, as in the kernel: take the SEQNUM ({@link #prepareInject},
 * {@link #prepareTagged}), then broadcast ({@link #send}). Live, a lock (the owner actor) runs both
 * halves of one send before the next send's first; in virtual execution the sending task runs them
 * under a simulated mutex with the copy's CPU time between them ({@link UeventRoute.VirtualPath}).
 * Sends that do not share a lock (v6.9, or the posted 2018 patch's two) interleave between the halves,
 * which is how a listener sees SEQNUMs out of order. The class runs a little over 300 lines because it
 * holds both halves of both send paths beside the listener queues they feed.
 */
public final class UeventSocket {
    private final long netnsId;
    private final UserNamespace owner;
    private final SeqnumCounter seqnum;
    private final UeventFault fault;
    private final UeventMcList mcList;
    private volatile ReceiveQueue<Received>[] listeners = emptyListeners();
    /** {@link UeventFault#REORDER_PAIRS} only: the message held back, guarded by {@code this}. */
    private Uevent heldBack;

    /**
     * @param netnsId the netns this socket belongs to
     * @param owner the netns's owning user namespace (injection needs CAP_SYS_ADMIN over it)
     * @param seqnum the counter its sends take SEQNUMs from (global or its own, by design)
     */
    public UeventSocket(long netnsId, UserNamespace owner, SeqnumCounter seqnum) {
        this(netnsId, owner, seqnum, UeventFault.NONE, seqnum.mcList());
    }

    /**
     * @param netnsId the netns this socket belongs to
     * @param owner the netns's owning user namespace (injection needs CAP_SYS_ADMIN over it)
     * @param seqnum the counter its sends take SEQNUMs from (global or its own, by design)
     * @param fault TEST-ONLY: a kernel rule this socket breaks on purpose, {@link UeventFault#NONE} normally
     */
    public UeventSocket(long netnsId, UserNamespace owner, SeqnumCounter seqnum, UeventFault fault) {
        this(netnsId, owner, seqnum, fault, seqnum.mcList());
    }

    /**
     * @param netnsId the netns this socket belongs to
     * @param owner the netns's owning user namespace (injection needs CAP_SYS_ADMIN over it)
     * @param seqnum the counter its sends take SEQNUMs from (global or its own, by design)
     * @param fault TEST-ONLY: a kernel rule this socket breaks on purpose, {@link UeventFault#NONE} normally
     * @param mcList the system-wide uevent multicast list its listeners join (the design run's)
     */
    public UeventSocket(
            long netnsId, UserNamespace owner, SeqnumCounter seqnum, UeventFault fault, UeventMcList mcList) {
        this.mcList = mcList;
        this.netnsId = netnsId;
        this.owner = owner;
        this.seqnum = seqnum;
        this.fault = fault;
    }

    /**
     * @return whether uevent_net_init puts this socket on uevent_sock_list (untagged kernel events
     *     reach it): from v4.18 only when its netns is owned by the initial user namespace
     *     (a3498436b3a0 "netns: restrict uevents"); every socket under {@link UeventFault#UNTAGGED_TO_EVERY_NETNS}
     */
    public boolean onUeventSockList() {
        return owner.isInitial() || fault == UeventFault.UNTAGGED_TO_EVERY_NETNS;
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
     * @param i 0..{@link #listenerCount()} - 1
     * @return the receive queue of the i-th listener bound now (virtual execution: the key of its task)
     */
    public Object listener(int i) {
        return listeners[i];
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
        mcList.add();
    }

    /** @return the system-wide uevent multicast list this socket's listeners are on */
    public UeventMcList mcList() {
        return mcList;
    }

    /**
     * Unbinds the listener whose receive queue is {@code queue}: its socket was closed from userspace,
     * so no later broadcast reaches it. Call from the netns actor only.
     *
     * @param queue the listener's receive queue; unknown or already closed ones are ignored
     */
    public synchronized void detach(ReceiveQueue<Received> queue) {
        int before = listeners.length;
        listeners = Arrays.stream(listeners).filter(l -> l != queue).toArray(n -> Arrays.copyOf(listeners, n));
        mcList.remove(before - listeners.length);
    }

    /**
     * Models uevent_net_rcv_skb(): {@link #prepareInject} then {@link #send}, with nothing held between
     * them.
     *
     * @param sender the injecting task's credentials
     * @param payload the message as sent, not parsed (the kernel does not parse it)
     * @param sentNanos {@link Clock#nanoTime()} at the send
     * @return {@link InjectResult.Sent} with the SEQNUM, or {@link InjectResult.Failed}
     */
    public InjectResult inject(Credentials sender, byte[] payload, long sentNanos) {
        Step step = prepareInject(sender, payload, sentNanos);
        return step instanceof Ready r ? send(r) : ((Refused) step).failed();
    }

    /**
     * The first half of uevent_net_rcv_skb() / uevent_net_broadcast() (lib/kobject_uevent.c, v4.17+):
     * checks the sender's CAP_SYS_ADMIN over the owning user namespace (EPERM, nothing sent and no
     * SEQNUM used), refuses an empty message (EINVAL), takes the next SEQNUM <em>before</em> the size
     * check (a message too big burns a number) and appends {@code SEQNUM=n}. The caller runs {@link #send}
     * under the same lock (v4.18: ++uevent_seqnum, skb_copy_expand and netlink_broadcast all under
     * uevent_sock_mutex), so no sender under that lock takes a number in between; a sender under another
     * lock, or none (v6.9: atomic64_inc_return(&amp;uevent_seqnum) with no lock), may take and broadcast a
     * later number in between.
     *
     * @param sender the injecting task's credentials
     * @param payload the message as sent
     * @param sentNanos {@link Clock#nanoTime()} at the send
     * @return {@link Ready} to broadcast, or {@link Refused}
     */
    public Step prepareInject(Credentials sender, byte[] payload, long sentNanos) {
        Errno refused = refusal(sender, payload);
        if (refused != null) {
            return new Refused(new InjectResult.Failed(refused, -1));
        }
        long n = seqnum.next();
        if (fault == UeventFault.REPEAT_SEQNUM && n % 2 == 0) {
            n--;
        }
        try {
            byte[] wire = UeventMessage.appendSeqnum(payload, n);
            return new Ready(n, new Uevent(wire, new Audience(Audience.Kind.INJECTED, netnsId), sentNanos));
        } catch (UeventException tooBig) {
            return new Refused(new InjectResult.Failed(tooBig.errno, n));
        }
    }

    /**
     * The checks uevent_net_rcv_skb() makes before it takes a SEQNUM (and, before v6.9, uevent_sock_mutex):
     * netlink_ns_capable(CAP_SYS_ADMIN) over the owning user namespace, and a non-empty message.
     *
     * @param sender the injecting task's credentials
     * @param payload the message as sent
     * @return EPERM or EINVAL when the send is refused before anything is broadcast, else null
     */
    public Errno refusal(Credentials sender, byte[] payload) {
        if (fault != UeventFault.SKIP_CAPABILITY_CHECK && !sender.nsCapable(owner, Capability.CAP_SYS_ADMIN)) {
            return Errno.EPERM;
        }
        return payload.length == 0 ? Errno.EINVAL : null;
    }

    /**
     * A kernel-generated uevent for a network device of this netns (kobject_uevent_env with a netns
     * tag): the SEQNUM from this socket's counter, then uevent_net_broadcast_tagged() to this netns's
     * listeners only. The caller's context decides the lock (see
     * {@link UeventSerialization#taggedUnderGlobalLock}).
     *
     * @param action e.g. {@code change}
     * @param devpath e.g. {@code /devices/virtual/net/veth0}
     * @param subsystem e.g. {@code net}
     * @param keys extra {@code KEY=VALUE} pairs
     * @return {@link Ready} to broadcast, or {@link Refused} (ENOENT, EINVAL, ENOMEM as kernelEvent raises them)
     */
    public Step prepareTagged(String action, String devpath, String subsystem, Map<String, String> keys) {
        try {
            UeventMessage msg = UeventMessage.kernelEvent(action, devpath, subsystem, keys, seqnum);
            return new Ready(
                    msg.seqnum(),
                    new Uevent(msg.encode(), new Audience(Audience.Kind.TAGGED, netnsId), Clock.nanoTime()));
        } catch (UeventException e) {
            return new Refused(new InjectResult.Failed(e.errno, -1));
        }
    }

    /**
     * {@link #prepareTagged} then {@link #send}.
     *
     * @return the SEQNUM used, or the failure
     */
    public InjectResult tagged(String action, String devpath, String subsystem, Map<String, String> keys) {
        Step step = prepareTagged(action, devpath, subsystem, keys);
        return step instanceof Ready r ? send(r) : ((Refused) step).failed();
    }

    /**
     * The second half: netlink_broadcast() of a prepared message on this socket.
     *
     * @param ready from {@link #prepareInject} or {@link #prepareTagged}
     * @return {@link InjectResult.Sent} with its SEQNUM
     */
    public InjectResult.Sent send(Ready ready) {
        if (fault == UeventFault.REORDER_PAIRS) {
            Uevent first;
            synchronized (this) {
                if (heldBack == null) {
                    heldBack = ready.event();
                    return new InjectResult.Sent(ready.seqnum());
                }
                first = heldBack;
                heldBack = null;
            }
            broadcast(ready.event());
            broadcast(first);
            return new InjectResult.Sent(ready.seqnum());
        }
        broadcast(ready.event());
        return new InjectResult.Sent(ready.seqnum());
    }

    /** A prepared send, or its refusal. */
    public sealed interface Step permits Ready, Refused {}

    /**
     * A message with its SEQNUM taken, not yet broadcast.
     *
     * @param seqnum the SEQNUM it carries
     * @param event the message as listeners will receive it
     */
    public record Ready(long seqnum, Uevent event) implements Step {}

    /** @param failed what the sender is told */
    public record Refused(InjectResult.Failed failed) implements Step {}

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
        if (heldBack != null) { // REORDER_PAIRS: nothing is lost, only late
            broadcast(heldBack);
            heldBack = null;
        }
        for (ReceiveQueue<Received> l : listeners) {
            l.close();
        }
        mcList.remove(listeners.length);
        listeners = emptyListeners();
        return 0;
    }

    @SuppressWarnings("unchecked")
    private static ReceiveQueue<Received>[] emptyListeners() {
        return (ReceiveQueue<Received>[]) new ReceiveQueue<?>[0];
    }
}
