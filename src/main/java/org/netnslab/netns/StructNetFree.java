package org.netnslab.netns;

/**
 * The {@code netns.struct-net-free} strategy: when the memory of a dismantled netns's struct net is freed
 * (net/core/net_namespace.c).
 */
public enum StructNetFree {
    /**
     * At its own cleanup batch's end: after the batch's rcu_barrier, the last passive reference dropped
     * frees it (net_drop_ns -> net_free). The kernels before v6.13, the seeds'.
     */
    BATCH,
    /**
     * v6.13+ (commit 0f6ede9fbc74, "net: defer final 'struct net' free in netns dismantle"): the last
     * net_passive_dec() frees net->gen and puts the net on defer_free_list; net_complete_free() frees it
     * in the NEXT cleanup_net, after that round's rcu_barrier(). The model also frees a run's deferred netns
     * when the run waits for every netns to be freed with nothing left to clean: the kernel keeps them
     * until some later netns death runs cleanup_net, which a run's end stands for.
     */
    NEXT_CLEANUP
}
