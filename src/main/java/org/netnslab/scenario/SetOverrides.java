package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netnslab.settings.ConfigProblem;
import org.netnslab.settings.HoconSyntax;

/**
 * The command line's {@code --set path=value} overrides, applied over a scenario's keys in order, the last of a
 * key winning as in HOCON. A value may hold substitutions, resolved as the scenario file's are: against the
 * scenario's keys, then the environment ({@code --set workload.injectors=${N}}); a value that came from the
 * environment is named by its {@code --set}, where HOCON would name "env variables".
 */
final class SetOverrides {
    private static final Pattern SUBSTITUTION = Pattern.compile("\\$\\{(\\??)\\s*([^}\\s]+)\\s*\\}");
    /** What a --set that names no key is told. */
    private static final String EXPECTED = "expected path=value, e.g. --set machine.cpus=2";
    /** How Typesafe Config names where a value from the environment came from. */
    private static final String ENVIRONMENT = "env variables";

    /** Each leaf path a {@code --set} gave, and which. */
    private final Map<String, String> setBy = new HashMap<>();
    /** Each path a {@code --set} set to null (HOCON then drops the key), and which. */
    private final Map<String, String> nullBy = new HashMap<>();

    /**
     * @param conf the scenario file's keys, unresolved
     * @param sets {@code path=value} overrides, in order
     * @param problems receives what is wrong with each, named by the {@code --set}
     * @return the keys with the overrides over them, unresolved
     */
    Config apply(Config conf, List<String> sets, List<ConfigProblem> problems) {
        file = conf;
        for (String set : sets) {
            int eq = set.indexOf('=');
            if (eq <= 0) {
                problems.add(new ConfigProblem("--set " + set, -1, "-", EXPECTED));
                continue;
            }
            String key = set.substring(0, eq).trim();
            String value = set.substring(eq + 1);
            // HOCON's "+=" appends to a list: path+=value
            String op = key.endsWith("+") ? " += " : " = ";
            key = key.endsWith("+") ? key.substring(0, key.length() - 1).trim() : key;
            if (key.isEmpty()) {
                problems.add(new ConfigProblem("--set " + set, -1, "-", EXPECTED));
                continue;
            }
            if (value.isBlank()) {
                problems.add(new ConfigProblem(
                        "--set " + set, -1, key, "no value after '=' (to set an" + " empty string, write \"\")"));
                continue;
            }
            if (value.contains("\n") || value.contains("\r")) {
                problems.add(new ConfigProblem(
                        "--set " + set.replace("\r", "\\r").replace("\n", "\\n"),
                        -1,
                        key,
                        "the value holds a line break, which would start another key: give each key a --set of"
                                + " its own"));
                continue;
            }
            try {
                Config one = ConfigFactory.parseString(
                        key + op + value, ConfigParseOptions.defaults().setOriginDescription("--set " + set));
                warnIfOptionalUnset(set, key, conf);
                for (Map.Entry<String, ConfigValue> e : one.entrySet()) {
                    String earlier = setBy.put(e.getKey(), set);
                    // the last one wins, as HOCON's own later value does; one that appends (+=) overrides nothing
                    if (earlier != null && !earlier.equals(set) && op.equals(" = ")) {
                        System.err.println("netns-lab: warning: --set " + HoconSyntax.cut(set)
                                + " overrides the earlier --set " + HoconSyntax.cut(earlier)
                                + " (the last one given wins)");
                    }
                }
                if (isNull(one, key)) {
                    nullBy.put(key, set);
                }
                warnIfMerged(set, key, one, conf);
                conf = one.withFallback(conf);
            } catch (ConfigException e) {
                problems.add(new ConfigProblem("--set " + set, -1, key, HoconSyntax.setProblem(value, e)));
            } catch (StackOverflowError e) {
                problems.add(new ConfigProblem("--set " + HoconSyntax.cut(set), -1, key, ConfigProblem.TOO_DEEP));
            }
        }
        return conf;
    }

    /**
     * Warns when a {@code --set} gives an object where the keys so far hold one: HOCON merges the two, so the keys the
     * {@code --set} does not name stay ({@code --set seed-ratios={}} clears nothing), which a command line's override
     * seldom means. Says which stay and how to change one.
     */
    private static void warnIfMerged(String set, String key, Config one, Config conf) {
        try {
            if (one.getValue(key).valueType() != ConfigValueType.OBJECT
                    || !conf.hasPath(key)
                    || conf.getValue(key).valueType() != ConfigValueType.OBJECT) {
                return;
            }
            java.util.Set<String> kept =
                    new java.util.TreeSet<>(conf.getObject(key).keySet());
            kept.removeAll(one.getObject(key).keySet());
            if (!kept.isEmpty()) {
                // null removes a key only the scenario gives (a seed ratio); a model key set to null has no value at
                // all, since the scenario's model lies over reference.conf's: so each is to be set, not nulled
                System.err.println("netns-lab: warning: --set " + HoconSyntax.cut(set) + " merges with " + key
                        + " as the scenario has it (HOCON merges objects), so " + String.join(", ", kept)
                        + (kept.size() == 1 ? " stays" : " stay") + ": give a key a --set of its own to change it (e.g."
                        + " --set " + key + "."
                        + ConfigUtil.joinPath(kept.iterator().next())
                        + "=...; null removes a key the scenario adds, such as a seed ratio)");
            }
        } catch (ConfigException e) { // a value yet to be resolved: the merge is HOCON's as written, nothing to say
        }
    }

    /** @return whether the --set gives its key null (a substitution, yet to be resolved, is not null) */
    private static boolean isNull(Config one, String key) {
        try {
            return one.hasPathOrNull(key) && one.getIsNull(key);
        } catch (ConfigException e) {
            return false;
        }
    }

    /**
     * @param problems what the scenario's checks found
     * @return them, each whose value a {@code --set}'s substitution took from the environment named by that
     *     {@code --set} and the variable, and each required key a {@code --set} of null removed named by that
     *     {@code --set}
     */
    List<ConfigProblem> attributed(List<ConfigProblem> problems) {
        return problems.stream()
                .map(p -> {
                    String nulled = nullBy.get(p.path());
                    if (nulled != null && p.message().startsWith("missing required")) {
                        return new ConfigProblem(
                                "--set " + nulled,
                                -1,
                                p.path(),
                                p.message().replaceFirst("^missing required (\\w+)", "null removes this required $1"));
                    }
                    String set = p.source().equals(ENVIRONMENT) ? setBy.get(p.path()) : null;
                    if (set == null) {
                        return p.source().equals(ENVIRONMENT) ? inFile(p) : p;
                    }
                    Matcher m = SUBSTITUTION.matcher(set);
                    return new ConfigProblem(
                            "--set " + set,
                            -1,
                            p.path(),
                            p.message() + " (from the environment variable"
                                    + (m.find() ? " " + m.group(2) : " its substitution names") + ")");
                })
                .toList();
    }

    /** The scenario file's keys as written (substitutions unresolved), or null before {@link #apply}. */
    private Config file;

    /** @return a problem with a value from the environment, at the file's line that substitutes it, naming it */
    private ConfigProblem inFile(ConfigProblem p) {
        ConfigValue v = file == null ? null : file.root();
        try {
            for (String k : ConfigUtil.splitPath(p.path())) {
                v = v instanceof ConfigObject o ? o.get(k) : null;
            }
        } catch (ConfigException e) { // a path HOCON cannot split: the problem as it was
            return p;
        }
        Matcher m = v == null ? null : SUBSTITUTION.matcher(v.render());
        if (m == null || !m.find() || v.origin().filename() == null) {
            return p;
        }
        return new ConfigProblem(
                v.origin().filename(),
                v.origin().lineNumber(),
                p.path(),
                p.message() + " (from the environment variable " + m.group(2) + ")");
    }

    /**
     * {@code --set key=${?X}} with X neither a key nor an environment variable sets nothing: HOCON drops the
     * field and the scenario's own value stays. Legal HOCON, so not an error, but never what the user meant:
     * a warning on stderr names the --set.
     */
    private static void warnIfOptionalUnset(String set, String key, Config before) {
        Matcher m = SUBSTITUTION.matcher(set);
        boolean any = false;
        while (m.find()) {
            if (m.group(1).isEmpty()) {
                continue; // a required substitution: an undefined one is an error the resolve reports
            }
            any = true;
            String name = m.group(2).replace("\"", "");
            if (System.getenv(name) != null) {
                return;
            }
            try {
                if (before.hasPathOrNull(name)) {
                    return;
                }
            } catch (ConfigException e) {
                return; // not a path this check can read: leave it to the scenario's own resolve
            }
        }
        if (any) {
            System.err.println(
                    "netns-lab: warning: --set " + HoconSyntax.cut(set) + ": the optional substitution is not defined"
                            + " (no such key or environment variable), so this override sets nothing"
                            + (before.hasPathOrNull(key) ? ": " + key + " keeps the scenario's value" : ""));
        }
    }

    /**
     * The overrides as a run records them: one whose value holds a substitution (an environment variable, or another
     * key) is followed by the value it was read as, which the command line alone does not say.
     *
     * @param sets the {@code --set} arguments, each checked by {@link #apply}
     * @param resolved the scenario's keys after them, resolved
     * @param env what a substitution reads where the keys do not give it: this process's environment, or a test's
     * @return e.g. {@code workload.injectors=${N} (read as 100)}; the others as given
     */
    static List<String> asRead(List<String> sets, Config resolved, Config env) {
        Config source = resolved.withFallback(env); // the keys first, then the environment, as HOCON resolves
        return sets.stream().map(set -> set + readAs(set, source)).toList();
    }

    /**
     * @param source the scenario's resolved keys over the environment
     * @return " (read as V)" for a --set whose value substitutes, resolved as the scenario's keys were (against them,
     *     then the environment); " (undefined: sets nothing)" for an optional one that is not defined; else ""
     */
    private static String readAs(String set, Config source) {
        int eq = set.indexOf('=');
        String key = eq <= 0 ? "" : set.substring(0, eq).trim();
        key = key.endsWith("+") ? key.substring(0, key.length() - 1).trim() : key;
        Matcher m = SUBSTITUTION.matcher(set);
        while (m.find()) {
            if (m.group(2).equals(key)) { // a self-reference reads the key's earlier value, gone once resolved
                return "";
            }
        }
        try {
            boolean plainKey = !key.isEmpty() && !key.contains("{");
            // a key's value alone (one element, for +=), or, for a block form, the whole --set
            Config raw = ConfigFactory.parseString(plainKey ? "v = " + set.substring(eq + 1) : set);
            if (raw.isResolved()) { // no substitution: "${x}" inside quotes is text
                return "";
            }
            Config read = raw.resolveWith(
                    source,
                    com.typesafe.config.ConfigResolveOptions.defaults()
                            .setAllowUnresolved(true)
                            .setUseSystemEnvironment(false));
            if (!plainKey) {
                return " (read as " + HoconSyntax.cut(read.root().render(ConfigRenderOptions.concise())) + ")";
            }
            if (!read.hasPath("v")) {
                return " (undefined: sets nothing)";
            }
            ConfigValue v = read.getValue("v");
            return " (read as "
                    + HoconSyntax.cut(
                            v.valueType() == ConfigValueType.STRING
                                    ? String.valueOf(v.unwrapped())
                                    : v.render(ConfigRenderOptions.concise()))
                    + ")";
        } catch (ConfigException e) { // apply reported what is wrong with it
            return "";
        }
    }
}
