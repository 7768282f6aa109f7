package org.netnslab.netns;

/**
 * The {@code netns.cleanup-rcu} strategy: which grace-period wait cleanup_net's batch takes between the
 * pre_exits and the exits (net/core/net_namespace.c, in ops_undo_list() from v6.16).
 */
public enum CleanupRcu {
    /** synchronize_rcu(): a normal grace period ({@code rcu.grace-period}); the kernels of the seeds. */
    NORMAL,
    /**
     * synchronize_rcu_expedited() ({@code rcu.expedited-grace-period}): cleanup_net from v6.9 ("net: use
     * synchronize_rcu_expedited in cleanup_net()"; ops_undo_list(..., expedite_rcu = true) from cleanup_net in
     * v6.16), the host kernels'.
     */
    EXPEDITED
}
