package org.netnslab.design;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model keys past the strategy table's printed rows that tell a run's designs apart (a custom design's cost or
 * buffer, say), shown beside each design's strategies: else two designs that differ only there would look alike in
 * result.json, the console and report.html.
 */
public final class OtherKeys {
    private OtherKeys() {}

    /**
     * @param designs the run's designs, by name
     * @param models each one's model config (its own keys over the scenario's model), by the same names
     * @param model the scenario's model over reference.conf's
     * @return the designs, each showing its values of every unprinted key that some design sets apart from
     *     {@code model}; the same designs when none does
     * @throws IllegalArgumentException when a value fails its key's check (the caller has checked them all)
     */
    public static Map<String, Design> shown(Map<String, Design> designs, Map<String, Config> models, Config model) {
        List<Strategies.Row<?>> apart = new ArrayList<>();
        for (Strategies.Row<?> row : Strategies.ROWS) {
            if (row.isPrinted()) {
                continue;
            }
            Object base = row.setting().read(model);
            if (designs.keySet().stream()
                    .anyMatch(n -> !row.setting().read(models.get(n)).equals(base))) {
                apart.add(row);
            }
        }
        if (apart.isEmpty()) {
            return designs;
        }
        Map<String, Design> out = new LinkedHashMap<>();
        designs.forEach((name, d) -> {
            Map<String, String> keys = new LinkedHashMap<>();
            apart.forEach(row -> keys.put(row.key(), printed(row.setting().read(models.get(name)))));
            out.put(name, d.showing(keys));
        });
        return out;
    }

    /**
     * @param value a key's value as its setting reads it
     * @return it as HOCON, one spelling for one value: a duration in its largest whole unit (5000ns as 5us)
     */
    static String printed(Object value) {
        if (value instanceof java.time.Duration d) {
            long ns = d.toNanos();
            if (ns != 0 && ns % 1_000_000_000L == 0) {
                return ns / 1_000_000_000L + "s";
            }
            if (ns != 0 && ns % 1_000_000 == 0) {
                return ns / 1_000_000 + "ms";
            }
            return ns != 0 && ns % 1000 == 0 ? ns / 1000 + "us" : ns + "ns";
        }
        return value instanceof Enum<?> e ? org.netnslab.settings.Setting.spell(e) : String.valueOf(value);
    }
}
