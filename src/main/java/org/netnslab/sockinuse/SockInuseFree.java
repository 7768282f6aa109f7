package org.netnslab.sockinuse;

/**
 * The {@code sock-inuse.free} strategy: where a netns's sock_inuse counter is freed, and with it which
 * sockets count and where their -1 runs ({@link #accounting()}). The four designs of the 2017 thread
 * "sock: Move the socket inuse to namespace" and of the code v4.16 merged.
 */
public enum SockInuseFree {
    /**
     * What v4.16 merged (648845ab7e20; net/core/sock.c v4.16..v5.16, {@code sock_inuse_exit_net}):
     * freed in the netns's own pernet exit with no wait, safe by ownership: only sockets holding a netns
     * reference count, and their -1 runs in {@code __sk_free} before {@code sk_destruct} may defer
     * through call_rcu ({@link Accounting#REFERENCE_HOLDERS_AT_FREE}).
     */
    OWNER_EXIT(Accounting.REFERENCE_HOLDERS_AT_FREE),
    /**
     * The reviewer's suggestion in the thread, not the merge: freed in net_free, after the cleanup
     * batch's rcu_barrier, so even a deferred -1 has run ({@link Accounting#EVERY_SOCKET_AT_DESTRUCT}).
     */
    NET_FREE(Accounting.EVERY_SOCKET_AT_DESTRUCT),
    /**
     * The rejected patch: freed in the pernet exit after synchronize_rcu + rcu_barrier there, which let
     * the deferred -1 of {@link Accounting#EVERY_SOCKET_AT_DESTRUCT} run first.
     */
    EXIT_BARRIER(Accounting.EVERY_SOCKET_AT_DESTRUCT),
    /**
     * Freed in the pernet exit with no wait while the counting of
     * {@link Accounting#EVERY_SOCKET_AT_DESTRUCT} is in force: the netns's own kernel sockets, destroyed
     * by a later-registered op's exit (which runs earlier) with their teardown deferred through call_rcu,
     * subtract from the freed counter. Every such access is a use-after-free.
     */
    EXIT_UNSAFE(Accounting.EVERY_SOCKET_AT_DESTRUCT);

    /** Which sockets add to and subtract from a netns's sock_inuse, and where the -1 runs. */
    public enum Accounting {
        /**
         * The kernel's rule (net/core/sock.c v4.16..v5.16): {@code sk_alloc} adds 1 and {@code __sk_free}
         * subtracts 1 only {@code if (sk->sk_net_refcnt)}, i.e. for user sockets, which hold their netns
         * (get_net in sk_alloc, put_net in {@code __sk_destruct}); {@code __sk_free} does it before
         * {@code sk_destruct}, whose {@code __sk_destruct} SOCK_RCU_FREE defers through call_rcu. Kernel
         * sockets ({@code sk_net_refcnt = 0}) are not counted.
         */
        REFERENCE_HOLDERS_AT_FREE,
        /**
         * A path the kernel could have had, the hazard the barrier and net_free placements guard against:
         * every socket counts, the netns's kernel sockets included, and the -1 runs in the final
         * {@code __sk_destruct}, which SOCK_RCU_FREE defers through call_rcu.
         */
        EVERY_SOCKET_AT_DESTRUCT;

        /** @return whether the netns's own kernel sockets ({@code sk_net_refcnt = 0}) count */
        public boolean countsKernelSockets() {
            return this == EVERY_SOCKET_AT_DESTRUCT;
        }

        /** @return whether the -1 runs at close, before any RCU deferral ({@code __sk_free}) */
        public boolean decrementsBeforeDeferral() {
            return this == REFERENCE_HOLDERS_AT_FREE;
        }
    }

    private final Accounting accounting;

    SockInuseFree(Accounting accounting) {
        this.accounting = accounting;
    }

    /** @return the counting rule that goes with this placement of the free */
    public Accounting accounting() {
        return accounting;
    }
}
