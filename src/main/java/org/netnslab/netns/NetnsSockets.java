package org.netnslab.netns;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import java.util.HashSet;
import java.util.Set;
import org.netnslab.netns.NetNamespace.Command;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.sockinuse.SocketCloseFault;

/**
 * A netns's user sockets ({@code sk_net_refcnt = 1}), part of its actor: sk_alloc and sk_free of
 * net/core/sock.c with their sock_inuse accounting. Each open socket holds an active reference, which the
 * actor counts. Only the actor's own behaviours call it.
 */
final class NetnsSockets {
    private final ActorContext<Command> ctx;
    private final Net net;
    /** Open user sockets; allocated at the first (most netns of a large population never open one). */
    private Set<Long> open;

    private long next = 1;

    NetnsSockets(ActorContext<Command> ctx, Net net) {
        this.ctx = ctx;
        this.net = net;
    }

    /**
     * sk_alloc: +1 on sock_inuse on the current CPU; the caller takes the socket's reference.
     *
     * @return the socket's id
     */
    long open() {
        net.sockInuse.add(net.cpu(), 1);
        long id = next++;
        if (open == null) {
            open = new HashSet<>();
        }
        open.add(id);
        return id;
    }

    /** @return whether {@code socketId} is open in this netns ({@link #open}ed and not yet closed) */
    boolean isOpen(long socketId) {
        return open != null && open.contains(socketId);
    }

    /**
     * sk_free, net/core/sock.c v4.16..v5.16: {@code __sk_free} subtracts 1 from sock_inuse, then
     * {@code sk_destruct} runs {@code __sk_destruct} (put_net) at once or, for SOCK_RCU_FREE, through call_rcu.
     * Under {@code EVERY_SOCKET_AT_DESTRUCT} accounting the -1 moves into {@code __sk_destruct} too, still
     * before its put_net. The design's {@code sock-inuse.fault} may skip the -1 or the put_net.
     *
     * @param socketId a socket {@link #isOpen}
     * @return whether the caller drops the socket's reference now: false for a close deferred through RCU
     *     (the callback sends put_net) and for a skipped put_net
     * @throws IllegalStateException the socket is not open
     */
    boolean close(long socketId) {
        if (open == null || !open.remove(socketId)) {
            throw new IllegalStateException("netns " + net.id() + ": close of socket " + socketId + ", not open");
        }
        int cpu = net.cpu();
        SocketCloseFault fault = net.settings.sockInuse().fault();
        boolean decrement = fault != SocketCloseFault.SKIP_SOCK_INUSE_DEC;
        boolean put = fault != SocketCloseFault.SKIP_PUT_NET;
        boolean early = net.settings.sockInuse().free().accounting().decrementsBeforeDeferral();
        var counter = net.sockInuse;
        if (decrement && early) {
            counter.add(cpu, -1); // __sk_free
        }
        if (net.nextCloseDeferred()) {
            // SOCK_RCU_FREE: __sk_destruct (put_net, and the late -1 of the hazard accounting) from an RCU callback
            ActorRef<Command> self = ctx.getSelf();
            boolean late = decrement && !early;
            net.rcu.tell(new RcuDomain.CallRcu(() -> {
                if (late) {
                    counter.add(cpu, -1);
                }
                if (put) {
                    self.tell(NetNamespace.Put.INSTANCE);
                }
            }));
            return false;
        }
        if (decrement && !early) {
            counter.add(cpu, -1);
        }
        return put;
    }

    /** @return sock_inuse_get, as /proc/net/sockstat reads it: -1 when the counter is freed */
    int inuse() {
        return net.sockInuse.isFreed() ? -1 : net.sockInuse.get();
    }
}
