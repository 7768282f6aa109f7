package org.netnslab.metrics;

import static org.junit.Assert.assertEquals;
import static org.netnslab.metrics.Invariants.Counter.CROSS_NETNS_DELIVERIES;
import static org.netnslab.metrics.Invariants.Counter.ENOBUFS;
import static org.netnslab.metrics.Invariants.Counter.EPERM;
import static org.netnslab.metrics.Invariants.Counter.LEAKED;
import static org.netnslab.metrics.Invariants.Counter.LOST_WITHOUT_ENOBUFS;
import static org.netnslab.metrics.Invariants.Counter.SEQNUM_DUPLICATES;
import static org.netnslab.metrics.Invariants.Counter.SEQNUM_OUT_OF_ORDER;
import static org.netnslab.metrics.Invariants.Counter.SOCK_INUSE_SUM;
import static org.netnslab.metrics.Invariants.Counter.USE_AFTER_FREE;

import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class InvariantsTest extends JUnitSuite {
    @Test
    public void eachCounterSetsItsOwnFieldAndTheJsonNamesKeepTheSchemaOrder() {
        Invariants i = Invariants.NONE
                .with(SEQNUM_OUT_OF_ORDER, 1)
                .with(SEQNUM_DUPLICATES, 2)
                .with(LOST_WITHOUT_ENOBUFS, 3)
                .with(ENOBUFS, 4)
                .with(CROSS_NETNS_DELIVERIES, 5)
                .with(EPERM, 6)
                .with(USE_AFTER_FREE, 7)
                .with(LEAKED, 8)
                .with(SOCK_INUSE_SUM, 9);
        assertEquals(new Invariants(1, 2, 3, 4, 5, 6, 7, 8, 9), i);
        assertEquals(
                List.of(
                        "seqnum_out_of_order",
                        "seqnum_duplicates",
                        "lost_without_enobufs",
                        "enobufs",
                        "cross_netns_deliveries",
                        "eperm",
                        "use_after_free",
                        "leaked",
                        "sock_inuse_sum"),
                List.copyOf(i.asMap().keySet()));
        assertEquals(
                List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L),
                List.copyOf(i.asMap().values()));
    }

    @Test
    public void settingOneCounterLeavesTheOthersAndPlusAddsCounterByCounter() {
        Invariants lost = Invariants.NONE.with(LOST_WITHOUT_ENOBUFS, 3).with(ENOBUFS, 4);
        assertEquals(new Invariants(0, 0, 3, 4, 0, 0, 0, 0, 0), lost);
        assertEquals(Invariants.NONE, Invariants.NONE.with(LEAKED, 5).with(LEAKED, 0));
        assertEquals(new Invariants(0, 0, 6, 8, 0, 0, 0, 1, 0), lost.plus(lost).plus(Invariants.NONE.with(LEAKED, 1)));
    }
}
