package org.netnslab.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A run's designs told apart: the strategy keys whose values differ between them (what a reader compares),
 * and the ones every design shares (shown once, or folded away in report.html).
 */
final class DesignKeys {
    private DesignKeys() {}

    /** @return the keys every design has with the same value, in the first design's order */
    static Map<String, String> shared(List<DesignRecord> designs) {
        Map<String, String> same = new LinkedHashMap<>();
        designs.get(0).strategies().forEach((k, v) -> {
            if (designs.stream().allMatch(d -> v.equals(d.strategies().get(k)))) {
                same.put(k, v);
            }
        });
        return same;
    }

    /** @return the design's keys whose value some other design does not share (all of them for a lone design) */
    static Map<String, String> differing(List<DesignRecord> designs, DesignRecord d) {
        if (designs.size() < 2) {
            return d.strategies();
        }
        Map<String, String> same = shared(designs);
        Map<String, String> own = new LinkedHashMap<>();
        d.strategies().forEach((k, v) -> {
            if (!same.containsKey(k)) {
                own.put(k, v);
            }
        });
        return own;
    }

    /** @return {@code k=v k=v} */
    static String print(Map<String, String> keys) {
        return keys.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }
}
