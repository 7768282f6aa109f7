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
            long v = c.getOrDefault(k, 0L);
            if (v != 0) {
                out.add(String.format(Locale.ROOT, "%s (%,d)", k, v));
            }
        }
        long created = c.getOrDefault("netns_created", 0L);
        long freed = c.getOrDefault("netns_freed", 0L);
        if (created != freed) {
            out.add(String.format(Locale.ROOT, "netns_created = netns_freed (%,d created, %,d freed)", created, freed));
        }
        return out;
    }
}
