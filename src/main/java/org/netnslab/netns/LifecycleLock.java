package org.netnslab.netns;

/**
 * The {@code netns.lifecycle-lock} strategy: what serializes netns creation against cleanup
 * (net/core/net_namespace.c).
 */
public enum LifecycleLock {
    /**
     * &lt;= v4.16: one global {@code net_mutex} held by copy_net_ns around setup_net and by cleanup_net
     * around unlink, exits and frees: creations wait for each other and for a running cleanup batch,
     * and the batch waits for creations in progress.
     */
    NET_MUTEX,
    /**
     * &gt;= v4.17: {@code pernet_ops_rwsem} taken for read by both: creations run in parallel with each
     * other and with a cleanup batch.
     */
    RWSEM;
}
