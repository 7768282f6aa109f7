package org.netnslab.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The invariant counters of one design's run (ARCHITECTURE.md section 4), all counts. Which must be 0
 * depends on the design: out-of-order deliveries are expected under {@code lockless}, use-after-free
 * under {@code exit-unsafe}.
 *
 * @param seqnumOutOfOrder deliveries whose SEQNUM was lower than one the listener had already seen
 * @param seqnumDuplicates deliveries of a SEQNUM the listener had already seen, or more deliveries
 *     than were sent
 * @param lostWithoutEnobufs messages sent to a listener that it neither received nor was told of by an ENOBUFS
 * @param enobufs ENOBUFS notifications listeners received
 * @param crossNetnsDeliveries deliveries to a netns the event was not for
 * @param eperm injections refused with EPERM
 * @param useAfterFree accesses to a freed per-netns counter
 * @param leaked netns actors, counters or listeners alive after teardown
 * @param sockInuseSum sum of every netns's sock_inuse counter when it was freed (0 when every
 *     socket's teardown had run first)
 */
public record Invariants(long seqnumOutOfOrder, long seqnumDuplicates, long lostWithoutEnobufs, long enobufs,
    long crossNetnsDeliveries, long eperm, long useAfterFree, long leaked, long sockInuseSum) {

  /** All zero. */
  public static final Invariants NONE = new Invariants(0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** @return the sum of both, counter by counter */
  public Invariants plus(Invariants o) {
    return new Invariants(seqnumOutOfOrder + o.seqnumOutOfOrder, seqnumDuplicates + o.seqnumDuplicates,
        lostWithoutEnobufs + o.lostWithoutEnobufs, enobufs + o.enobufs,
        crossNetnsDeliveries + o.crossNetnsDeliveries, eperm + o.eperm, useAfterFree + o.useAfterFree,
        leaked + o.leaked, sockInuseSum + o.sockInuseSum);
  }

  /** @return the counters by their result.json names, in schema order */
  public Map<String, Long> asMap() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("seqnum_out_of_order", seqnumOutOfOrder);
    m.put("seqnum_duplicates", seqnumDuplicates);
    m.put("lost_without_enobufs", lostWithoutEnobufs);
    m.put("enobufs", enobufs);
    m.put("cross_netns_deliveries", crossNetnsDeliveries);
    m.put("eperm", eperm);
    m.put("use_after_free", useAfterFree);
    m.put("leaked", leaked);
    m.put("sock_inuse_sum", sockInuseSum);
    return m;
  }
}
