package org.netnslab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The isolation soak's pass criteria that are counters rather than invariants (docs/scenarios.md, the soak's
 * table): nothing an unauthorised task sent is sent or delivered, the proc connector's seq has no gap, the heap stays
 * flat, and every netns created is freed. The verdict judges them with the invariants, so that a violation fails
 * {@code --check}.
 */
final class SoakCriteria {
    /** The counters that must be 0. */
    private static final List<String> ZERO =
            List.of("unauthorised_sent", "unauthorised_delivered", "proc_seq_gaps", "heap_not_flat");

    private SoakCriteria() {}

    /**
     * @param d a design's record
     * @return its broken soak criteria, each as {@code name (value)}; none for a design that is not a soak's (it has no
     *     {@code heap_not_flat} counter)
     */
    static List<String> broken(DesignRecord d) {
        Map<String, Long> c = d.counters();
        List<String> out = new ArrayList<>();
        if (!c.containsKey("heap_not_flat")) {
            return out;
        }
        for (String k : ZERO) {
            Long v = c.get(k);
            if (v == null) { // a soak run writes every criterion: one missing cannot be said to hold
                out.add(k + " (not saved)");
            } else if (v != 0) {
                out.add(String.format(Locale.ROOT, "%s (%,d)", k, v));
            }
        }
        Long created = c.get("netns_created");
        Long freed = c.get("netns_freed");
        if (created == null || freed == null) {
            out.add("netns_created = netns_freed (not saved)");
        } else if (!created.equals(freed)) {
            out.add(String.format(Locale.ROOT, "netns_created = netns_freed (%,d created, %,d freed)", created, freed));
        }
        return out;
    }
}
