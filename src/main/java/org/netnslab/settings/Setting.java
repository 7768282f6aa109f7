package org.netnslab.settings;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * One model setting as netns-lab's HOCON spells it: its key under {@code netns-lab.model}, how its
 * value is read and what range it must lie in. A model package declares its settings beside its
 * settings record (e.g. {@code uevent.UeventSettings.SERIALIZATION}) and reads them in its
 * {@code fromConfig}; {@code design.Strategies} lists them all once, in the order they are printed.
 * Immutable and thread-safe.
 *
 * <p>This package imports nothing of netns-lab, so every model package may use it.
 *
 * @param <T> the value's Java type
 */
public final class Setting<T> {
    private final String key;
    private final BiFunction<Config, String, T> get;
    private final BiFunction<T, String, String> problem;
    /** What a value must be, for a value of the wrong type, e.g. "a duration in 0..10ms (e.g. 5us)"; null: none. */
    private final String expected;

    /**
     * @param key the key under {@code netns-lab.model}
     * @param get the typed read; throws {@link ConfigException} for a missing key or a wrong type and
     *     {@link IllegalArgumentException} for a value it cannot map (an unknown strategy)
     * @param problem given the value and its HOCON rendering, what is wrong with it, or null
     */
    private Setting(
            String key, BiFunction<Config, String, T> get, BiFunction<T, String, String> problem, String expected) {
        this.key = key;
        this.get = get;
        this.problem = problem;
        this.expected = expected;
    }

    /**
     * A strategy: one of an enum's constants, spelled lower case with '-' for '_'
     * ({@code PER_NETNS_OWNER} is {@code per-netns-owner}).
     *
     * @param key the key
     * @param type the strategy enum
     * @param <E> the strategy type
     * @return the setting
     */
    public static <E extends Enum<E>> Setting<E> strategy(String key, Class<E> type) {
        return new Setting<>(key, (c, k) -> parse(type, k, c.getString(k)), (v, r) -> null, null);
    }

    /**
     * @param key the key
     * @param min the least value allowed
     * @param max the greatest value allowed
     * @return an integer setting in {@code min..max}
     */
    public static Setting<Integer> integer(String key, int min, int max) {
        return new Setting<>(
                key,
                Setting::wholeInt,
                (v, r) -> v < min || v > max ? "must be in " + min + ".." + max + ", got " + v : null,
                "an integer in " + min + ".." + max);
    }

    /** Config::getInt, except that a fraction is refused rather than cut down (1.5 is not 1). */
    private static int wholeInt(Config c, String key) {
        double d = c.getNumber(key).doubleValue();
        if (d != Math.rint(d) || d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
            throw new ConfigException.BadValue(key, "not a whole number in the int range");
        }
        return (int) d;
    }

    /**
     * @param key the key
     * @param max the longest duration allowed
     * @return a duration setting in {@code 0..max}
     */
    public static Setting<Duration> duration(String key, Duration max) {
        String maxText = HoconDurations.durationText(max.toNanos());
        return new Setting<>(
                key,
                HoconDurations::duration,
                (v, r) -> v.isNegative() || v.compareTo(max) > 0
                        ? "must be a duration in 0.." + maxText + ", got " + r
                        : null,
                "a duration with its unit in 0.." + maxText + " (e.g. 5us, 1.5ms)");
    }

    /**
     * @param key the key
     * @return a share: a number in {@code 0..1}
     */
    public static Setting<Double> fraction(String key) {
        return new Setting<>(
                key,
                Config::getDouble,
                (v, r) -> !(v >= 0 && v <= 1) ? "must be in 0..1, got " + v : null,
                "a number in 0..1");
    }

    /** @return the key under {@code netns-lab.model}, e.g. {@code uevent.serialization} */
    public String key() {
        return key;
    }

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the value
     * @throws ConfigException for a missing key (Typesafe Config names file, line and key), or a wrong type
     *     where the setting has no description of its values
     * @throws IllegalArgumentException for an unknown strategy value (listing the accepted ones), a value of
     *     the wrong type (saying what it must be) or a value out of range; the message says what is wrong, as a
     *     scenario's validation reports it
     */
    public T read(Config model) {
        T value;
        try {
            value = get.apply(model, key);
        } catch (ConfigException.WrongType | ConfigException.BadValue e) {
            if (expected == null) {
                throw e;
            }
            throw new IllegalArgumentException(
                    "must be " + expected + ", got " + HoconSyntax.shown(model.getValue(key)), e);
        }
        String wrong = problem.apply(value, HoconSyntax.shown(model.getValue(key)));
        if (wrong != null) {
            throw new IllegalArgumentException(wrong);
        }
        return value;
    }

    /**
     * For a settings record's constructor: the same range check {@link #read} makes.
     *
     * @param value a value
     * @return the value
     * @throws IllegalArgumentException naming the key when the value is out of range
     */
    public T check(T value) {
        String wrong = problem.apply(value, String.valueOf(value));
        if (wrong != null) {
            throw new IllegalArgumentException(key + ": " + wrong);
        }
        return value;
    }

    /**
     * @param value a strategy
     * @return its HOCON spelling
     */
    public static String spell(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @return reference.conf's {@code netns-lab.model}: the defaults every design starts from (the
     *     only place they are written)
     */
    public static Config referenceModel() {
        return ConfigFactory.defaultReference().getConfig("netns-lab.model");
    }

    private static <E extends Enum<E>> E parse(Class<E> type, String key, String value) {
        for (E e : type.getEnumConstants()) {
            if (spell(e).equals(value)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown " + key + " '" + value + "'; expected one of "
                + Arrays.stream(type.getEnumConstants()).map(Setting::spell).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return key;
    }
}
