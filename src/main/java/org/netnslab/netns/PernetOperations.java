package org.netnslab.netns;

import java.util.List;

/**
 * One registered {@code struct pernet_operations} (include/net/net_namespace.h). setup_net calls
 * {@link #init} of every op in registration order. The teardown ({@link OpsUndo}, ops_undo_list: the
 * same for cleanup_net and for a failed setup_net, then over the ops whose init ran) calls
 * {@link #preExit} and {@link #exit} in reverse order, {@link #exitBatch} once per run after the exits
 * of that op, and {@link #freeData} (the per-netns data of ops with {@code .size}) after all exits;
 * {@link #netFree} runs in net_free, after the run's rcu_barrier.
 *
 * <p>Every method but {@link #exitBatch} runs in the netns actor that owns {@code net}; none may block.
 */
public interface PernetOperations {
    /** @return the op's name, e.g. {@code sock_inuse} */
    String name();

    /**
     * @param net the netns being set up
     * @throws PernetInitException to fail setup_net: the ops already run are undone in reverse
     */
    void init(Net net) throws PernetInitException;

    /** @param net the netns being dismantled (v5.3+ pre_exit) */
    default void preExit(Net net) {}

    /**
     * @param net the netns being dismantled
     * @return what is left to do before the exit counts as complete
     */
    default ExitAction exit(Net net) {
        return ExitAction.DONE;
    }

    /**
     * Runs in the {@link OpsUndo} actor of the batch, which holds no netns state: it gets the ids only.
     *
     * @param netnsIds the netns of the batch (net_exit_list), in cleanup order; one id for a failed setup_net
     */
    default void exitBatch(List<Long> netnsIds) {}

    /** @param net frees the op's per-netns data (ops_free) */
    default void freeData(Net net) {}

    /** @param net runs in net_free, after the batch's rcu_barrier */
    default void netFree(Net net) {}
}
