package org.netnslab.settings;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Checks that the values a configuration sets over a reference configuration (a {@code --config} file,
 * conf/application.conf, a {@code -D} system property) have the kind of value the reference gives the same key: an
 * object, a list, a number, on/off, a duration, a size, or a string. A library that reads a key of the wrong kind
 * throws only when it reads it, which may be after a run has started and with no file named; this says it up front,
 * at the file, line and full key. Keys the reference does not have are not checked here.
 */
public final class ReferenceTypes {
    private ReferenceTypes() {}

    /**
     * Words Akka takes for some of its numbers and durations besides a number (log-dead-letters = off): a switch or no
     * limit.
     */
    private static final Set<String> WORDS = Set.of("off", "on", "infinite", "inf");

    /**
     * @param merged the resolved configuration
     * @param root the block checked, e.g. {@code akka}
     * @param skip first keys under {@code root} left to other checks, e.g. {@code model}
     * @param unitRequired whether a duration needs its unit ({@link HoconChecker#duration}); else a bare number is
     *     milliseconds, as Typesafe Config reads it
     * @param problems where each value of the wrong kind is added, at its origin, named by its full key
     */
    public static void check(
            Config merged, String root, Set<String> skip, boolean unitRequired, List<ConfigProblem> problems) {
        if (!merged.hasPath(root)) {
            return;
        }
        Config reference = reference();
        ConfigProblem notBlock = notABlock(merged.getValue(root), root);
        if (notBlock != null) {
            problems.add(notBlock);
            return;
        }
        for (Map.Entry<String, ConfigValue> e : merged.getConfig(root).entrySet()) {
            String key = root + "." + e.getKey();
            ConfigValue v = e.getValue();
            String first = com.typesafe.config.ConfigUtil.splitPath(e.getKey()).get(0);
            if (skip.contains(first) || fromReference(v) || !reference.hasPath(key)) {
                continue;
            }
            String expected = expected(merged, key, reference.getValue(key), reference, unitRequired);
            if (expected != null) {
                problems.add(ConfigProblem.at(v.origin(), key, expected + ", got " + HoconSyntax.shown(v)));
            }
        }
    }

    /**
     * @param top the value of a block of settings, e.g. a file's {@code akka}, resolved or not
     * @param root its key
     * @return the problem when it is not a block, or null (also when it is a substitution yet to be resolved)
     */
    public static ConfigProblem notABlock(ConfigValue top, String root) {
        try {
            return top.valueType() == ConfigValueType.OBJECT
                    ? null
                    : ConfigProblem.at(
                            top.origin(),
                            root,
                            "must be a block of settings " + root + " { ... } (see its reference.conf), got "
                                    + HoconSyntax.shown(top));
        } catch (ConfigException.NotResolved e) {
            return null;
        }
    }

    /**
     * @return the class path's reference.conf files, resolved without the system properties that
     *     {@link ConfigFactory#defaultReference()} puts over them: a {@code -D} value is checked, not taken for the
     *     reference
     */
    private static Config reference() {
        return ConfigFactory.defaultReferenceUnresolved().resolve();
    }

    /** @return whether the value is a reference.conf's own (a library's default, never at fault) */
    private static boolean fromReference(ConfigValue v) {
        String resource = v.origin().resource();
        return resource != null && resource.endsWith("reference.conf");
    }

    /**
     * @return what the value at {@code key} should be, or null when it is of the reference value's kind
     */
    private static String expected(Config merged, String key, ConfigValue ref, Config reference, boolean unitRequired) {
        if (!unitRequired && isWord(merged.getValue(key))) {
            return null;
        }
        try {
            switch (ref.valueType()) {
                case OBJECT:
                    return "must be a block { ... } of settings, as in its reference.conf";
                case LIST:
                    merged.getList(key);
                    return null;
                case NUMBER:
                    if (ref.unwrapped() instanceof Double) {
                        merged.getDouble(key);
                    } else {
                        merged.getLong(key);
                    }
                    return null;
                case BOOLEAN:
                    merged.getBoolean(key);
                    return null;
                case STRING:
                    return expectedString(merged, key, ref, reference, unitRequired);
                default:
                    return null;
            }
        } catch (ConfigException.WrongType | ConfigException.BadValue e) {
            return switch (ref.valueType()) {
                case LIST -> "must be a list [ ... ]";
                case NUMBER -> ref.unwrapped() instanceof Double ? "must be a number" : "must be an integer";
                case BOOLEAN -> "must be on or off (true or false)";
                default -> "must be a string";
            };
        }
    }

    /** @return what a value whose reference is a string (a duration, a size, a word) should be, or null */
    private static String expectedString(
            Config merged, String key, ConfigValue ref, Config reference, boolean unitRequired) {
        String example = (String) ref.unwrapped();
        if (isDuration(reference, key, example)) {
            try {
                if (unitRequired) {
                    HoconDurations.duration(merged, key);
                } else {
                    merged.getDuration(key);
                }
                return null;
            } catch (ConfigException e) {
                return "must be a duration with its unit (e.g. " + example + ")";
            }
        }
        if (isSize(reference, key, example)) {
            try {
                merged.getBytes(key);
                return null;
            } catch (ConfigException e) {
                return "must be a size with its unit (e.g. " + example + ")";
            }
        }
        merged.getString(key);
        return null;
    }

    /** @return whether the value is one of {@link #WORDS} */
    private static boolean isWord(ConfigValue v) {
        return v.valueType() == ConfigValueType.STRING
                && WORDS.contains(((String) v.unwrapped()).trim().toLowerCase(Locale.ROOT));
    }

    /** @return whether the reference's string is a duration with a unit, e.g. {@code 10ms} */
    private static boolean isDuration(Config reference, String key, String text) {
        return withUnit(text, () -> reference.getDuration(key));
    }

    /** @return whether the reference's string is a size with a unit, e.g. {@code 256 KiB} */
    private static boolean isSize(Config reference, String key, String text) {
        return withUnit(text, () -> reference.getBytes(key));
    }

    /** @return whether {@code text} is a number with a unit that {@code read} reads */
    private static boolean withUnit(String text, java.util.function.Supplier<Object> read) {
        if (!text.matches("\\s*[0-9.]+\\s*[a-zA-Z]+\\s*")) {
            return false;
        }
        try {
            read.get();
            return true;
        } catch (ConfigException e) {
            return false;
        }
    }
}
