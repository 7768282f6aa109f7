package org.netnslab.design;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.netnslab.netns.ModelSettings;

/**
 * A design: a named set of strategy choices and model settings that a scenario runs and compares
 * (README's "Designs"; every key in reference.conf). Immutable.
 *
 * @param name the design's name, e.g. {@code per-netns-2018}
 * @param model the model settings its supervisor and netns follow
 * @param others keys beyond the strategy table's printed rows that this run's designs do not all leave at the
 *     scenario's model value (a custom design's cost, say), key to HOCON value, in table order; shown beside the
 *     strategies so that what tells two designs apart is on the page
 */
public record Design(String name, ModelSettings model, Map<String, String> others) {

    /** Copies {@code others}, keeping its order. */
    public Design {
        others = Collections.unmodifiableMap(new LinkedHashMap<>(others));
    }

    /**
     * A design with no other keys shown.
     *
     * @param name the design's name
     * @param model the model settings its supervisor and netns follow
     */
    public Design(String name, ModelSettings model) {
        this(name, model, Map.of());
    }

    /**
     * The fault switches, a scenario's model block's to set: a comparison needs the same ones in every design, so a
     * design defined outside reference.conf may not set them.
     */
    public static final java.util.List<String> FAULT_KEYS =
            java.util.List.of("faults", "uevent.fault", "sock-inuse.fault", "netlink.fault");

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
        return fromConfig(name, model, "design " + name + ": ");
    }

    /**
     * {@link #fromConfig(String, Config)}, a strategy's problem named by {@code prefix} and its key.
     *
     * @param prefix what names a strategy key at fault, e.g. {@code netns-lab.designs.mine.}
     * @throws IllegalArgumentException for an unknown strategy value ({@code prefix} and its key) or a value out of
     *     range
     * @throws ConfigException for a missing key or a wrong type
     */
    public static Design fromConfig(String name, Config model, String prefix) {
        checkStrategies(model, prefix);
        return new Design(name, ModelSettings.fromConfig(model));
    }

    /**
     * Reads every row of {@link Strategies#ROWS} of {@code model}.
     *
     * @param model a config with every key of {@code netns-lab.model}
     * @param prefix what names a key at fault, e.g. {@code netns-lab.model.}
     * @throws IllegalArgumentException for a value no strategy reads, named by {@code prefix} and its key
     */
    public static void checkStrategies(Config model, String prefix) {
        for (Strategies.Row<?> row : Strategies.ROWS) {
            try {
                row.setting().read(model);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(prefix + row.key() + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * @param name a design's name, defined outside reference.conf
     * @return why it cannot name a design (it names actors and output files), or null when it can
     */
    public static String nameProblem(String name) {
        return org.netnslab.settings.HoconChecker.isSafeName(name)
                ? null
                : "a design name must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit (it"
                        + " names actors and output files), got '" + name + "'";
    }

    /** Why a design defined outside reference.conf that is not an object is refused. */
    public static final String NOT_AN_OBJECT = "must be an object of model keys (e.g. uevent.serialization = lockless)";

    /**
     * @param name a design of reference.conf that a configuration defines again
     * @return why that is refused
     */
    public static String redefined(String name) {
        return "redefines the named design '" + name + "' of reference.conf; give your design its own name";
    }

    /**
     * @param keys other keys to show beside the strategies, key to HOCON value
     * @return this design showing them
     */
    public Design showing(Map<String, String> keys) {
        return new Design(name, model, keys);
    }

    /**
     * @return the strategy choices as {@code result.json} lists them, key to HOCON value, in table order, then
     *     {@link #others()}
     */
    public Map<String, String> strategies() {
        Map<String, String> s = new LinkedHashMap<>();
        for (Strategies.Row<?> row : Strategies.ROWS) {
            if (row.isPrinted()) {
                s.put(row.key(), row.print(model));
            }
        }
        s.putAll(others);
        return s;
    }
}
