package org.netnslab.design;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.netnslab.netns.ModelSettings;

/**
 * A design: a named set of strategy choices and model settings that a scenario runs and compares
 * (README's "Designs"; every key in reference.conf). Immutable.
 *
 * @param name the design's name, e.g. {@code per-netns-2018}
 * @param model the model settings its supervisor and netns follow
 */
public record Design(String name, ModelSettings model) {

    /**
     * Reads a design from its model configuration (the design's own keys over {@code netns-lab.model}),
     * checking every row of {@link Strategies#ROWS} first.
     *
     * @param name the design's name
     * @param model a config with every key of {@code netns-lab.model}
     * @return the design
     * @throws IllegalArgumentException for an unknown strategy value or a value out of range, naming
     *     the design and the key
     * @throws ConfigException for a missing key or a wrong type (Typesafe Config names file, line and key)
     */
    public static Design fromConfig(String name, Config model) {
        for (Strategies.Row<?> row : Strategies.ROWS) {
            try {
                row.setting().read(model);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("design " + name + ": " + row.key() + ": " + e.getMessage(), e);
            }
        }
        return new Design(name, ModelSettings.fromConfig(model));
    }

    /** @return the strategy choices as {@code result.json} lists them, key to HOCON value, in table order */
    public Map<String, String> strategies() {
        Map<String, String> s = new LinkedHashMap<>();
        for (Strategies.Row<?> row : Strategies.ROWS) {
            if (row.isPrinted()) {
                s.put(row.key(), row.print(model));
            }
        }
        return s;
    }
}
