package org.netnslab.netns;

import java.util.List;
import java.util.Set;

/**
 * ops_exit_list() of net/core/net_namespace.c over the netns of a teardown run: for each op in teardown
 * order, its exit for each netns one after the other, then its exit_batch with the netns ids. Part of an
 * {@link OpsUndo} run, which asks each exit of its netns and alone calls it.
 */
final class OpsExitList {
    private final List<PernetOperations> ops;
    private final List<Integer> order;
    private final List<OpsUndo.Member> members;
    private final List<Long> ids;
    /** The position in {@link #order} of the op running, and in {@link #members} of the netns it runs for. */
    private int opPos;

    private int netnsPos;

    /**
     * @param ops the ops, in registration order
     * @param members the netns, in cleanup order
     */
    OpsExitList(List<PernetOperations> ops, List<OpsUndo.Member> members) {
        this.ops = List.copyOf(ops);
        this.order = TeardownOrder.of(ops.size());
        this.members = members;
        this.ids = members.stream().map(OpsUndo.Member::netnsId).toList();
    }

    /**
     * The exit to ask next, from the current position on: the op running's exit_batch runs once its exits
     * are done, and the netns in {@code leftOut} are skipped.
     *
     * @return the netns whose exit of {@link #op()} is next, or null when every op is done
     */
    OpsUndo.Member next(Set<Long> leftOut) {
        while (opPos < order.size()) {
            if (netnsPos < members.size()) {
                OpsUndo.Member m = members.get(netnsPos);
                if (!leftOut.contains(m.netnsId())) {
                    return m;
                }
                netnsPos++;
            } else {
                ops.get(order.get(opPos)).exitBatch(ids);
                opPos++;
                netnsPos = 0;
            }
        }
        return null;
    }

    /** @return the registration index of the op running */
    int op() {
        return order.get(opPos);
    }

    /** @return the op running's name */
    String opName() {
        return ops.get(op()).name();
    }

    /** @return the netns whose exit runs */
    OpsUndo.Member current() {
        return members.get(netnsPos);
    }

    /** @return whether the op running is the last: its exit is a netns's last */
    boolean lastOp() {
        return opPos == order.size() - 1;
    }

    /** The current netns's exit of the op running is done. */
    void advance() {
        netnsPos++;
    }
}
