package org.netnslab.netns;

/**
 * What the netns lifecycle model reports as it happens; {@code metrics} implements it. Methods are
 * called from actor threads and must be thread-safe and non-blocking.
 */
public interface LifecycleProbe {
    /**
     * A netns finished setup_net.
     *
     * @param nanos from the CreateNetns request to the end of its pernet inits, lock wait included, ns
     */
    void created(long nanos);

    /**
     * A netns reached net_free.
     *
     * @param nanosSinceLastRef from its last active reference drop to net_free, ns
     * @param sockInuseAtFree sock_inuse_get of its counter when the counter was freed (0 when every
     *     socket's teardown had run)
     */
    void netFreed(long nanosSinceLastRef, int sockInuseAtFree);

    /**
     * The cleanup worker took a batch off cleanup_list.
     *
     * @param size netns in the batch
     */
    void cleanupBatch(int size);

    /**
     * A cleanup_net run ended (workqueue_execute_start to _end of net/core/net_namespace.c cleanup_net: from the
     * batch taken off cleanup_list to the end of its rcu_barrier).
     *
     * @param wallNanos the run's time, ns
     * @param offCpuNanos of which the kworker was not on a CPU (its sleeps: grace periods, RTNL, and waiting for a
     *     CPU), ns; under fifo the run's time less the exits' CPU asked for
     */
    default void cleanupRun(long wallNanos, long offCpuNanos) {}

    /** An access to a freed per-netns counter. */
    void useAfterFree();

    /** The cleanup worker finished one netns's exits (progress inside a long batch). */
    default void netnsExited() {}

    /**
     * A fault switch fired: the actor or stage named is about to throw a {@link org.netnslab.fault.ModelFault}.
     *
     * @param which the switch
     */
    default void faultInjected(org.netnslab.fault.FaultSwitch which) {}

    /** Reports nothing. */
    LifecycleProbe NONE = new LifecycleProbe() {
        @Override
        public void created(long nanos) {}

        @Override
        public void netFreed(long nanosSinceLastRef, int sockInuseAtFree) {}

        @Override
        public void cleanupBatch(int size) {}

        @Override
        public void useAfterFree() {}
    };
}
