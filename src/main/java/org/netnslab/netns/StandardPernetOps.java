package org.netnslab.netns;

import java.util.List;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.sockinuse.SockInuse;
import org.netnslab.sockinuse.SockInuseFree;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.SeqnumScope;
import org.netnslab.uevent.UeventSockOwner;
import org.netnslab.uevent.UeventSocket;

/**
 * The pernet ops every netns runs, in registration order: {@code sock_inuse} (registered early, as
 * the 4.16 code did, so its exit runs late), {@code uevent} (lib/kobject_uevent.c uevent_net_ops) and
 * {@code kernel_sockets} (the netns's own sockets, standing for the protocols' control sockets).
 */
public final class StandardPernetOps {
    private StandardPernetOps() {}

    /** @return the ops in registration order */
    public static List<PernetOperations> all() {
        return List.of(SOCK_INUSE, UEVENT, KERNEL_SOCKETS);
    }

    /** An op with its name ({@link PernetOperations#name}). */
    private abstract static class Named implements PernetOperations {
        private final String name;

        Named(String name) {
            this.name = name;
        }

        @Override
        public final String name() {
            return name;
        }
    }

    /**
     * sock_inuse ({@code net_inuse_ops}, net/core/sock.c v4.16..v5.16: sock_inuse_init_net /
     * sock_inuse_exit_net): alloc_percpu in init; freed per {@code sock-inuse.free}: in the exit at once
     * ({@code owner-exit}, what v4.16 merged; {@code exit-unsafe}), in the exit after synchronize_rcu +
     * rcu_barrier ({@code exit-barrier}), or in net_free after the batch's rcu_barrier ({@code net-free}).
     */
    public static final PernetOperations SOCK_INUSE = new Named("sock_inuse") {
        @Override
        public void init(Net net) {
            net.sockInuse = new SockInuse(net.settings.sockInuse().cpus(), net.probe::useAfterFree);
        }

        @Override
        public ExitAction exit(Net net) {
            switch (net.settings.sockInuse().free()) {
                case EXIT_BARRIER:
                    return new ExitAction.AfterRcu(true, true, net::freeSockInuse);
                case OWNER_EXIT:
                case EXIT_UNSAFE:
                    net.freeSockInuse(); // sock_inuse_exit_net: free_percpu, no wait
                    return ExitAction.DONE;
                default:
                    return ExitAction.DONE;
            }
        }

        @Override
        public void netFree(Net net) {
            if (!net.sockInuse.isFreed()) {
                net.freeSockInuse();
            }
        }
    };

    /**
     * uevent: creates the netns's uevent socket (with its own SEQNUM counter under per-netns scope when
     * owned by a non-initial user namespace) and puts it on uevent_sock_list when owned by the initial
     * user namespace; the exit takes it off without waiting for any listener (listeners hold the netns).
     */
    public static final PernetOperations UEVENT = new Named("uevent") {
        @Override
        public void init(Net net) {
            boolean own = net.settings.uevent().seqnumScope() == SeqnumScope.PER_NETNS
                    && !net.owner().isInitial();
            net.ueventSocket = new UeventSocket(
                    net.id(),
                    net.owner(),
                    own ? SeqnumCounter.perNetns(net.settings.uevent().serialization()) : net.globalSeqnum,
                    net.settings.uevent().fault(),
                    net.globalSeqnum.mcList());
            if (net.ueventSocket.onUeventSockList()) {
                net.globalOwner.tell(new UeventSockOwner.Register(net.ueventSocket));
            }
        }

        /**
         * uevent_net_exit (lib/kobject_uevent.c): unlinks and releases the kernel socket without waiting
         * for userspace. Every user listener held a netns reference and has closed before the netns could
         * reach its exits, so none is left to wait for.
         *
         * @throws IllegalStateException when a listener is still bound (a broken reference count)
         */
        @Override
        public ExitAction exit(Net net) {
            if (net.ueventSocket.onUeventSockList()) {
                net.globalOwner.tell(new UeventSockOwner.Unregister(net.ueventSocket));
            }
            int open = net.ueventSocket.close();
            if (open > 0) {
                throw new IllegalStateException("netns " + net.id() + ": uevent exit with " + open
                        + " listener(s) still bound, though each holds a netns reference");
            }
            return ExitAction.DONE;
        }
    };

    /**
     * kernel_sockets: the netns's own sockets ({@code netns.kernel-sockets}), created by this op's init
     * with {@code kern = 1} (sk_alloc sets {@code sk_net_refcnt = 0}: they hold no netns reference) and
     * destroyed by its exit, which runs before sock_inuse's (registered later, torn down earlier). A
     * share ({@code sockets.rcu-free-fraction}) defers the final {@code __sk_destruct} through call_rcu.
     * Whether they touch sock_inuse is the design's {@link SockInuseFree.Accounting}: never under the
     * kernel's rule; under {@code EVERY_SOCKET_AT_DESTRUCT} +1 at init and -1 in {@code __sk_destruct},
     * so a deferred one subtracts after the exits: from a freed counter unless the design waited.
     */
    public static final PernetOperations KERNEL_SOCKETS = new Named("kernel_sockets") {
        @Override
        public void init(Net net) {
            net.kernelSockets = net.settings.netns().kernelSockets();
            if (net.settings.sockInuse().free().accounting().countsKernelSockets()) {
                for (int i = 0; i < net.kernelSockets; i++) {
                    net.sockInuse.add(net.cpu(), 1);
                }
            }
        }

        @Override
        public ExitAction exit(Net net) {
            SockInuse counter = net.sockInuse;
            boolean counted = net.settings.sockInuse().free().accounting().countsKernelSockets();
            for (int i = 0; i < net.kernelSockets; i++) {
                int cpu = net.cpu();
                Runnable destruct = counted ? () -> counter.add(cpu, -1) : () -> {};
                if (net.nextCloseDeferred()) {
                    net.rcu.tell(new RcuDomain.CallRcu(destruct)); // sk_destruct with SOCK_RCU_FREE
                } else {
                    destruct.run();
                }
            }
            net.kernelSockets = 0;
            return ExitAction.DONE;
        }
    };
}
