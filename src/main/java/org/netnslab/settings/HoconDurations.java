package org.netnslab.settings;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.time.Duration;

/** Durations in HOCON as netns-lab reads and writes them: a unit required, and written back in a whole unit. */
public final class HoconDurations {
    private HoconDurations() {}

    /**
     * @param nanos a duration, ns
     * @return it as a user writes it, in the largest unit that keeps it whole: {@code 1s}, {@code 10ms}, {@code 1500us}
     */
    public static String durationText(long nanos) {
        return nanos % 1_000_000_000L == 0
                ? nanos / 1_000_000_000L + "s"
                : nanos % 1_000_000L == 0
                        ? nanos / 1_000_000L + "ms"
                        : nanos % 1000 == 0 ? nanos / 1000 + "us" : nanos + "ns";
    }

    /**
     * A duration key's value, its unit required: only 0 may be written bare.
     *
     * @param conf a config
     * @param path the key's path
     * @return its duration
     * @throws ConfigException.BadValue for a bare nonzero number, or a string that is one (naming the key and its
     *     origin), and as {@link Config#getDuration(String)} for what is not a duration
     */
    public static Duration duration(Config conf, String path) {
        ConfigValue v = conf.getValue(path);
        // Typesafe Config reads a bare number, or a string that is one ("5"), as milliseconds: 5 for a cost meant in
        // us would be 5 ms
        double bare = v.valueType() == ConfigValueType.NUMBER
                ? ((Number) v.unwrapped()).doubleValue()
                : v.valueType() == ConfigValueType.STRING ? bareNumber((String) v.unwrapped()) : 0;
        if (bare != 0) {
            throw new ConfigException.BadValue(
                    v.origin(),
                    path,
                    "a duration needs its unit (e.g. 5us, 1.5ms, 2s), got the" + " bare number " + HoconSyntax.shown(v)
                            + ", which would be read as milliseconds");
        }
        return conf.getDuration(path);
    }

    /** @return the number a string holds and nothing else, or 0 (a duration, or not a number at all) */
    private static double bareNumber(String s) {
        String t = s.trim(); // a decimal number alone: Double.parseDouble also takes "7d" and "7f", units here
        if (!t.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
            return 0; // "5us", "abc": getDuration decides
        }
        double d = Double.parseDouble(t); // the pattern is a number Java parses
        return Double.isFinite(d) ? d : 0;
    }

    /**
     * The longest delay an actor system's scheduler takes: Akka's LightArrayRevolverScheduler refuses one of
     * Int.MaxValue ticks of {@code akka.scheduler.tick-duration} or more (248 days at its default 10 ms).
     *
     * @param config the actor system's configuration, or null for Akka's default tick
     * @return the longest delay, one tick short of the limit
     */
    public static Duration schedulerLongestDelay(Config config) {
        Duration tick = config != null && config.hasPath("akka.scheduler.tick-duration")
                ? config.getDuration("akka.scheduler.tick-duration")
                : Duration.ofMillis(10);
        return tick.multipliedBy(Integer.MAX_VALUE - 1L).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    }
}
