package org.netnslab.netns;

import java.util.ArrayList;
import java.util.List;

/**
 * The teardown order of the registered pernet ops (list_for_each_entry_reverse over pernet_list): their
 * registration indices from last to first. The only place the model writes that order.
 */
final class TeardownOrder {
    /**
     * The orders of 0 to 15 ops, built once: every netns asks for its order three times in a cleanup
     * (pre_exit, data free, net_free).
     */
    private static final List<Integer>[] SMALL = small();

    private TeardownOrder() {}

    /**
     * @param count ops registered (or initialised)
     * @return indices {@code count-1 .. 0}
     */
    static List<Integer> of(int count) {
        if (count < SMALL.length) {
            return SMALL[count];
        }
        return build(count);
    }

    @SuppressWarnings("unchecked")
    private static List<Integer>[] small() {
        List<Integer>[] orders = new List[16];
        for (int n = 0; n < orders.length; n++) {
            orders[n] = build(n);
        }
        return orders;
    }

    private static List<Integer> build(int count) {
        List<Integer> order = new ArrayList<>(count);
        for (int i = count - 1; i >= 0; i--) {
            order.add(i);
        }
        return List.copyOf(order);
    }
}
