package org.netnslab.metrics;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class ReplicateOrderTest extends JUnitSuite {

    @Test
    public void rotatesTheDesignsOnePlaceEachReplicate() {
        // A B C, B C A, C A B, then round again
        assertEquals(
                List.of(List.of(0, 1, 2), List.of(1, 2, 0), List.of(2, 0, 1), List.of(0, 1, 2)),
                ReplicateOrder.all(3, 4));
    }

    @Test
    public void everyDesignTakesEveryPlaceOnceInKReplicates() {
        int k = 4;
        List<List<Integer>> orders = ReplicateOrder.all(k, k);
        for (int place = 0; place < k; place++) {
            int p = place;
            assertEquals(
                    List.of(0, 1, 2, 3),
                    orders.stream().map(o -> o.get(p)).sorted().toList());
        }
    }

    @Test
    public void oneDesignOrOneReplicateKeepsTheScenarioOrder() {
        assertEquals(List.of(List.of(0), List.of(0)), ReplicateOrder.all(1, 2));
        assertEquals(List.of(List.of(0, 1, 2, 3, 4)), ReplicateOrder.all(5, 1));
    }

    @Test(expected = IllegalArgumentException.class)
    public void refusesNoDesigns() {
        ReplicateOrder.of(0, 0);
    }
}
