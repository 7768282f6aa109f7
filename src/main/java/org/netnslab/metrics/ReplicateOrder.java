package org.netnslab.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * The order designs run in each replicate of a {@code --repeat N} run: a rotation, so that replicate
 * r (from 0) starts with design r mod k and goes round (A B C, B C A, C A B, A B C, ...). Each design
 * takes every position equally often over k replicates, so a drift of the machine over the run (JIT
 * warm-up, heat, other load) falls on every design alike instead of always on the first or the last.
 */
public final class ReplicateOrder {
    private ReplicateOrder() {}

    /**
     * @param designs the number of designs, k &gt;= 1
     * @param replicate the replicate, from 0
     * @return the design indexes (0 .. k-1) in the order they run in that replicate
     * @throws IllegalArgumentException when {@code designs < 1} or {@code replicate < 0}
     */
    public static List<Integer> of(int designs, int replicate) {
        if (designs < 1 || replicate < 0) {
            throw new IllegalArgumentException(
                    "designs must be >= 1 and replicate >= 0, got " + designs + " and " + replicate);
        }
        List<Integer> order = new ArrayList<>(designs);
        for (int i = 0; i < designs; i++) {
            order.add((replicate + i) % designs);
        }
        return order;
    }

    /**
     * @param designs the number of designs, k &gt;= 1
     * @param replicates the number of replicates, N &gt;= 1
     * @return each replicate's order, {@link #of} for 0 .. N-1
     */
    public static List<List<Integer>> all(int designs, int replicates) {
        List<List<Integer>> out = new ArrayList<>(replicates);
        for (int r = 0; r < replicates; r++) {
            out.add(of(designs, r));
        }
        return out;
    }
}
