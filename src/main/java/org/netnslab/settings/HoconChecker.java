package org.netnslab.settings;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Typed reads of one parsed HOCON document that record a located problem (file, line, key path)
 * instead of throwing, so that a file's every problem is reported at once. Each read returns a
 * fallback value after recording a problem; the caller builds nothing from a document with problems.
 * Not thread-safe: one checker per document being checked.
 */
public final class HoconChecker {
    /** A name that is also part of file and folder names: a scenario's, a listener's. */
    private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    private final Config conf;
    private final String source;
    private final List<ConfigProblem> problems;
    /** Put before every path reported: where {@link #conf} sits in the document ("" at its root). */
    private final String prefix;
    /** Where a missing key is reported: the object that lacks it, or null for the file itself. */
    private final ConfigOrigin origin;

    /**
     * @param conf the resolved document
     * @param source its file name, for problems no value locates (a missing key)
     * @param problems where problems are added, in the order found
     */
    public HoconChecker(Config conf, String source, List<ConfigProblem> problems) {
        this(conf, source, problems, "", null);
    }

    private HoconChecker(Config conf, String source, List<ConfigProblem> problems, String prefix, ConfigOrigin origin) {
        this.conf = conf;
        this.source = source;
        this.problems = problems;
        this.prefix = prefix;
        this.origin = origin;
    }

    /**
     * A checker of one object inside the document, e.g. an element of a list, which no path reaches:
     * its reads take paths within the object and its problems name {@code at} + the path.
     *
     * @param obj the object
     * @param at how problems name the object, e.g. {@code derived-ratios[0].}
     * @return a checker adding to the same problems
     */
    public HoconChecker within(ConfigObject obj, String at) {
        return new HoconChecker(obj.toConfig(), source, problems, prefix + at, obj.origin());
    }

    /** @return the document */
    public Config conf() {
        return conf;
    }

    /** @return the problems found so far (live: the list given to the constructor) */
    public List<ConfigProblem> problems() {
        return problems;
    }

    /**
     * @param name a name
     * @return whether it is 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit
     */
    public static boolean isSafeName(String name) {
        return SAFE_NAME.matcher(name).matches();
    }

    /**
     * Records a problem at {@code path}'s value, or, when the path has none, at the object checked (the
     * file itself for the document's root).
     *
     * @param path the key path at fault
     * @param message what is wrong and what is expected
     */
    public void problem(String path, String message) {
        ConfigValue v = conf.hasPathOrNull(path) ? valueOrNull(path) : null;
        if (v != null) {
            problemAt(v.origin(), path, message);
        } else if (origin != null) {
            problemAt(origin, path, message);
        } else {
            problems.add(new ConfigProblem(source, -1, prefix + path, message));
        }
    }

    /**
     * Records a problem at a given origin (a value of another document, e.g. a design's model config).
     *
     * @param origin where the value came from, may be null
     * @param path the key path at fault
     * @param message what is wrong and what is expected
     */
    public void problemAt(ConfigOrigin origin, String path, String message) {
        problems.add(ConfigProblem.at(origin, prefix + path, message));
    }

    private ConfigValue valueOrNull(String path) {
        try {
            return conf.getValue(path);
        } catch (ConfigException e) {
            return null;
        }
    }

    /**
     * @param obj an object of the document
     * @param allowed the keys it may hold
     * @param at its path with a trailing '.', or "" for the root
     */
    public void unknownKeys(ConfigObject obj, Set<String> allowed, String at) {
        List<Map.Entry<String, ConfigValue>> entries = new java.util.ArrayList<>(obj.entrySet()); // in file order
        entries.sort(
                java.util.Comparator.comparingInt(e -> e.getValue().origin().lineNumber()));
        for (Map.Entry<String, ConfigValue> e : entries) {
            if (!allowed.contains(e.getKey())) {
                boolean tool = at.isEmpty()
                        && (e.getKey().equals("netns-lab") || e.getKey().equals("akka"));
                String own = tool && e.getValue() instanceof ConfigObject o
                        ? o.keySet().stream()
                                .filter(allowed::contains)
                                .findFirst()
                                .orElse(null)
                        : null;
                problemAt(
                        e.getValue().origin(),
                        at + e.getKey(),
                        tool
                                ? "a setting of the tool, not of a scenario: give it in a --config FILE (or as"
                                        + " -D" + e.getKey() + "... in NETNS_LAB_JAVA_OPTS)"
                                        + (own == null
                                                ? "; a scenario's keys are " + new TreeSet<>(allowed)
                                                : "; for this scenario's own " + own + ", drop the netns-lab. prefix")
                                : "unknown key; expected one of " + new TreeSet<>(allowed));
            }
        }
    }

    /**
     * @param given model keys a scenario sets
     * @param known reference.conf's {@code netns-lab.model}
     * @param at the keys' path with a trailing '.'
     */
    public void knownLeaves(Config given, Config known, String at) {
        for (Map.Entry<String, ConfigValue> e : given.entrySet()) {
            if (!known.hasPath(e.getKey())) {
                String near = NearestKey.of(
                        e.getKey(),
                        known.entrySet().stream().map(Map.Entry::getKey).toList());
                problemAt(
                        e.getValue().origin(),
                        at + e.getKey(),
                        "unknown model key" + (near == null ? "" : "; did you mean " + at + near + "?")
                                + " (netns-lab.model in reference.conf lists them)");
            }
        }
    }

    /**
     * @param path a key path
     * @param dflt the value when the key is absent; null: the key is required
     * @return the string, or {@code dflt} after a problem
     */
    public String string(String path, String dflt) {
        if (!conf.hasPath(path)) {
            if (dflt == null) {
                problem(path, "missing required key");
            }
            return dflt;
        }
        ConfigValue v = ofType(path, ConfigValueType.STRING, "a string");
        return v == null ? dflt : (String) v.unwrapped();
    }

    /**
     * @param path a key path of a required object
     * @return the object, or null after a problem
     */
    public ConfigObject object(String path) {
        if (!conf.hasPath(path)) {
            problem(path, "missing required object");
            return null;
        }
        return (ConfigObject) ofType(path, ConfigValueType.OBJECT, "an object { ... }");
    }

    /** @return the value at {@code path} (present), or null after a problem when it is not of {@code type} */
    private ConfigValue ofType(String path, ConfigValueType type, String what) {
        ConfigValue v = conf.getValue(path);
        if (v.valueType() != type) {
            problemAt(v.origin(), path, "must be " + what + ", got " + typeName(v));
            return null;
        }
        return v;
    }

    /**
     * @param path a key path of a required list of strings
     * @param what what the strings are, for the message (e.g. "design names")
     * @return the list, or null after a problem
     */
    public List<String> stringList(String path, String what) {
        if (!conf.hasPath(path)) {
            problem(path, "missing required list");
            return null;
        }
        try {
            return conf.getStringList(path);
        } catch (ConfigException e) {
            ConfigValue v = conf.getValue(path);
            problemAt(v.origin(), path, "must be a list [ ... ] of " + what + ", got " + HoconSyntax.shown(v));
            return null;
        }
    }

    /**
     * @param path a key path
     * @param dflt the value when the key is absent; null: the key is required
     * @param min the least value allowed
     * @param max the greatest value allowed
     * @return the integer, or {@code min} after a problem
     */
    public long integer(String path, Long dflt, long min, long max) {
        if (!conf.hasPath(path)) {
            if (dflt == null) {
                problem(path, "missing required key (an integer in " + min + ".." + max + ")");
                return min;
            }
            return dflt;
        }
        ConfigValue v = conf.getValue(path);
        Object raw = EnvNumbers.numberOf(v);
        if (!(raw instanceof Integer || raw instanceof Long)) {
            problemAt(
                    v.origin(),
                    path,
                    "must be an integer in " + min + ".." + max + ", got "
                            + HoconSyntax.shownAsNumber(v)); // render quotes a string
            return min;
        }
        long n = ((Number) raw).longValue();
        if (n < min || n > max) {
            problemAt(v.origin(), path, "must be in " + min + ".." + max + ", got " + n);
            return min;
        }
        return n;
    }

    /**
     * @param path a key path of an optional duration
     * @param dflt the value when the key is absent, ns
     * @param max the longest allowed, ns (the message gives it as {@link #durationText} writes it)
     * @param example a duration for the message when the value is not one, e.g. {@code 1ms}
     * @return the duration in 0..max, ns; {@code dflt} when absent; null after a problem (recorded), so that a caller
     *     can tell a refused value from an absent one
     */
    public Long nanos(String path, long dflt, long max, String example) {
        if (!conf.hasPath(path)) {
            return dflt;
        }
        try {
            long n = HoconDurations.duration(conf, path).toNanos();
            if (n >= 0 && n <= max) {
                return n;
            }
            problem(
                    path,
                    "must be a duration in 0.." + HoconDurations.durationText(max) + ", got "
                            + HoconSyntax.shown(conf.getValue(path)));
        } catch (ConfigException e) {
            problem(
                    path,
                    "must be a duration with its unit (e.g. " + example + "), got "
                            + HoconSyntax.shown(conf.getValue(path)));
        }
        return null;
    }

    /**
     * @param path a key path of an optional share
     * @param dflt the value when the key is absent
     * @return the number in 0..1, or {@code dflt} after a problem
     */
    public double fraction(String path, double dflt) {
        return optional(
                path,
                dflt,
                v -> number(v) >= 0 && number(v) <= 1,
                v -> "must be a number in 0..1, got " + HoconSyntax.shownAsNumber(v),
                HoconChecker::number);
    }

    /**
     * @param path a key path of an optional number
     * @param what what the number is, for the message
     * @return the number if present, finite (1e309 reads as infinity) and &gt; 0; null if absent or after a problem
     */
    public Double positive(String path, String what) {
        Predicate<ConfigValue> ok = v -> number(v) > 0 && Double.isFinite(number(v));
        return optional(
                path,
                null,
                ok,
                v -> "must be a number > 0 (" + what + "), got "
                        + (Double.isInfinite(number(v))
                                ? "a number beyond a double's range"
                                : HoconSyntax.shownAsNumber(v)),
                HoconChecker::number);
    }

    /**
     * @param path a key path of an optional boolean
     * @param dflt the value when the key is absent
     * @return the boolean, or {@code dflt} after a problem
     */
    public boolean bool(String path, boolean dflt) {
        return optional(
                path,
                dflt,
                v -> v.valueType() == ConfigValueType.BOOLEAN,
                v -> "must be true or false, got " + HoconSyntax.shown(v),
                v -> (Boolean) v.unwrapped());
    }

    /** An optional value: {@code dflt} when absent or after the problem {@code ok} rejects it with. */
    private <T> T optional(
            String path,
            T dflt,
            Predicate<ConfigValue> ok,
            Function<ConfigValue, String> problem,
            Function<ConfigValue, T> value) {
        if (!conf.hasPath(path)) {
            return dflt;
        }
        ConfigValue v = conf.getValue(path);
        if (!ok.test(v)) {
            problemAt(v.origin(), path, problem.apply(v));
            return dflt;
        }
        return value.apply(v);
    }

    /** @return the value as a double, or NaN (which fails every range) when it is not a number */
    private static double number(ConfigValue v) {
        Number n = EnvNumbers.numberOf(v);
        return n != null ? n.doubleValue() : Double.NaN;
    }

    /**
     * @param e an exception of Typesafe Config
     * @return its message without the "file: line: " its origin already gives
     */
    public static String bare(ConfigException e) {
        String m = e.getMessage();
        return HoconSyntax.plain(
                e.origin() != null && m.startsWith(e.origin().description() + ": ")
                        ? m.substring(e.origin().description().length() + 2)
                        : m);
    }

    private static String typeName(ConfigValue v) {
        return v.valueType().name().toLowerCase(Locale.ROOT);
    }
}
