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
            apart.forEach(row -> keys.put(
                    row.key(),
                    String.valueOf(models.get(name).getValue(row.key()).unwrapped())));
            out.put(name, d.showing(keys));
        });
        return out;
    }
}
