package org.netnslab.netns;

import akka.actor.typed.ActorRef;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.sockinuse.SockInuse;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.UeventSockOwner;
import org.netnslab.uevent.UeventSocket;
import org.netnslab.userns.UserNamespace;

/**
 * The per-netns state ({@code struct net}) that the pernet ops set up and tear down. Owned and
 * mutated only by its {@link NetNamespace} actor; the one exception, on purpose, is the per-CPU
 * {@link SockInuse} counter, which RCU callbacks touch from the RCU domain as the kernel's do.
 */
public final class Net {
    private final long id;
    private final UserNamespace owner;
    final ModelSettings settings;
    final ActorRef<NetNamespace.Command> self;
    final ActorRef<RcuDomain.Command> rcu;
    final ActorRef<UeventSockOwner.Command> globalOwner;
    final SeqnumCounter globalSeqnum;
    final LifecycleProbe probe;
    UeventSocket ueventSocket;
    SockInuse sockInuse;
    int sockInuseAtFree;
    int kernelSockets;
    private long closes;
    private int nextCpu;

    Net(
            long id,
            UserNamespace owner,
            ModelSettings settings,
            ActorRef<NetNamespace.Command> self,
            ActorRef<RcuDomain.Command> rcu,
            ActorRef<UeventSockOwner.Command> globalOwner,
            SeqnumCounter globalSeqnum,
            LifecycleProbe probe) {
        this.id = id;
        this.owner = owner;
        this.settings = settings;
        this.self = self;
        this.rcu = rcu;
        this.globalOwner = globalOwner;
        this.globalSeqnum = globalSeqnum;
        this.probe = probe;
    }

    /** @return the netns id */
    public long id() {
        return id;
    }

    /** @return the owning user namespace */
    public UserNamespace owner() {
        return owner;
    }

    /** @return the netns's sock_inuse counter, null before the sock_inuse init */
    public SockInuse sockInuse() {
        return sockInuse;
    }

    /** @return the netns's uevent socket, null before the uevent init */
    public UeventSocket ueventSocket() {
        return ueventSocket;
    }

    /**
     * Decides, deterministically, whether the next socket close defers its final teardown through
     * call_rcu: exactly {@code floor(n * fraction)} of the first n closes do.
     */
    boolean nextCloseDeferred() {
        double f = settings.netns().rcuFreeFraction();
        closes++;
        return Math.floor(closes * f) > Math.floor((closes - 1) * f);
    }

    /** @return the CPU the next per-CPU access runs on (round-robin over the counter's slots) */
    int cpu() {
        nextCpu = (nextCpu + 1) % settings.sockInuse().cpus();
        return nextCpu;
    }

    /** Frees the sock_inuse counter (free_percpu), noting its sum first. */
    void freeSockInuse() {
        if (!sockInuse.isFreed()) {
            sockInuseAtFree = sockInuse.get();
        }
        sockInuse.free();
    }
}
