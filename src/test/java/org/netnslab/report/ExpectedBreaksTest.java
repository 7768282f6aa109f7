package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.RunResult;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * What the verdict judges beyond a ratio's distance from the seed's: which designs break which invariant by
 * design, so that {@code --check} passes a scenario that shows a known hazard (uevent-hazards: the 2018 patch as
 * posted reorders; its fix and kernel-4.18 must not), and an interval too wide to tell anything.
 */
public class ExpectedBreaksTest extends JUnitSuite {
  private static DesignRecord design(String serialization, String free) {
    return new DesignRecord("d", Map.of("uevent.serialization", serialization, "sock-inuse.free", free), Map.of(), 1,
        "transactions", 1, Map.of(), Map.of(), List.of(), Map.of());
  }

  @Test
  public void theHazardsEachDesignIsKnownForAreExpectedAndNoOthers() {
    DesignRecord posted = design("per-netns-owner", "net-free");
    assertNotNull(Verdict.expected(posted, "seqnum_out_of_order"));
    assertNotNull(Verdict.expected(posted, "seqnum_duplicates"));
    assertNull(Verdict.expected(posted, "cross_netns_deliveries"));
    DesignRecord fixed = design("per-netns-owner-fixed", "net-free");
    assertNull(Verdict.expected(fixed, "seqnum_out_of_order"));
    assertNull(Verdict.expected(fixed, "seqnum_duplicates"));
    DesignRecord lockless = design("lockless", "net-free");
    assertNotNull(Verdict.expected(lockless, "seqnum_out_of_order"));
    assertNull("an atomic counter never hands out a SEQNUM twice", Verdict.expected(lockless, "seqnum_duplicates"));
    assertNull(Verdict.expected(design("global-owner", "net-free"), "seqnum_out_of_order"));
    assertNotNull(Verdict.expected(design("global-owner", "exit-unsafe"), "use_after_free"));
  }

  /**
   * A derived ratio (tolerance 0.1) over two replicates whose interval holds the seed only by being 2 wide gives no
   * verdict; a narrow one that holds it agrees; a wide one that misses it by more than the tolerance disagrees.
   */
  @Test
  public void anIntervalWiderThanTwiceTheToleranceGivesNoVerdict() {
    RunResult r = new RunResult("tiny", "a run", "seed", 0.01, Instant.parse("2026-12-02T12:00:00Z"), 2.0, List.of(),
        List.of(), Map.of(), List.of(), List.of(
            new RunResult.DerivedRatio("wide", 1.126, 0.5, List.of(0.6, 1.652), 0.147, 2.105),
            new RunResult.DerivedRatio("narrow", 0.35, 0.36, List.of(0.34, 0.36), 0.29, 0.41),
            new RunResult.DerivedRatio("wide, far", 1.126, 3.0, List.of(0.6, 1.652), 0.147, 2.105)));
    List<Verdict.Line> lines = Verdict.of(RunRecord.of(r, new RunRecord.Machine(2, "17", "2.6.21"))).checked();
    assertNull(lines.get(0).text(), lines.get(0).agrees());
    assertTrue(lines.get(0).text(), lines.get(0).text().endsWith("seed 0.50: no verdict (the interval is wider than the"
        + " +-0.10 the seed is checked within: run more replicates, or virtual execution)."));
    assertEquals(lines.get(1).text(), Boolean.TRUE, lines.get(1).agrees());
    assertEquals(lines.get(2).text(), Boolean.FALSE, lines.get(2).agrees());
    assertFalse(Verdict.of(RunRecord.of(r, new RunRecord.Machine(2, "17", "2.6.21"))).passes());
  }
}
