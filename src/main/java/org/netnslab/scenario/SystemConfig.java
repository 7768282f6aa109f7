package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netnslab.settings.ConfigProblem;
import org.netnslab.settings.HoconSyntax;
import org.netnslab.settings.ReferenceTypes;
import org.netnslab.settings.SavedFile;
import org.netnslab.settings.TextFiles;

/**
 * The configuration a run is made with: conf/application.conf (or the class path's), reference.conf, and a
 * {@code --config} file on top, each of the file's keys and named designs checked, and Akka's log levels. Its
 * {@code netns-lab.model} and {@code netns-lab.designs} are what scenarios start from.
 */
public final class SystemConfig {
    private SystemConfig() {}

    /**
     * @param config the {@code --config} file, or null
     * @return the merged, resolved configuration
     * @throws ScenarioException naming the file and what is wrong with it: missing, a folder, not text, not HOCON,
     *     an unknown key, a bad named design; or where a log level Akka does not know is set
     */
    public static Config load(Path config) throws ScenarioException {
        Config base = ConfigFactory.load();
        if (config == null) {
            checkKinds(base);
            return base;
        }
        Path extra = HoconSyntax.withFolder(config);
        if (Files.isDirectory(extra)) {
            throw new ScenarioException(
                    List.of(new ConfigProblem(extra.toString(), -1, "--config", "is a directory, not a HOCON file")));
        }
        if (!Files.isRegularFile(extra)) {
            throw new ScenarioException(List.of(new ConfigProblem(
                    extra.toString(),
                    -1,
                    "--config",
                    Files.exists(extra) ? "not a regular file (a device, a pipe or a socket)" : "no such file")));
        }
        try {
            ConfigProblem notText = TextFiles.notText(extra, "--config");
            if (notText != null) {
                throw new ScenarioException(List.of(notText));
            }
        } catch (IOException e) {
            throw new ScenarioException(List.of(new ConfigProblem(
                    extra.toString(), -1, "--config", "cannot read it (" + SavedFile.reason(e) + ")")));
        }
        try {
            Config user = ConfigFactory.parseFile(
                    extra.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
            // a plain include that finds no file is skipped by HOCON: said as a scenario file's is
            org.netnslab.settings.Includes.missing(extra, extra.toString())
                    .forEach(w -> System.err.println("netns-lab: warning: " + w));
            List<ConfigProblem> unknown = ScenarioKeysInConfig.check(user, extra);
            for (String root : List.of("netns-lab", "akka")) { // a number would hide under -D's block of the same key
                ConfigValue v = user.root().get(root);
                ConfigProblem notBlock = v == null ? null : ReferenceTypes.notABlock(v, root);
                if (notBlock != null) {
                    throw new ScenarioException(List.of(notBlock));
                }
            }
            if (user.hasPath("netns-lab") && user.getValue("netns-lab").valueType() == ConfigValueType.OBJECT) {
                Config known = ConfigFactory.defaultReference().getConfig("netns-lab");
                for (var e : user.getConfig("netns-lab").entrySet()) {
                    String key = e.getKey();
                    if (!known.hasPath(key) && !key.startsWith("designs.")) { // new named designs are welcome
                        unknown.add(new ConfigProblem(
                                extra.toString(),
                                e.getValue().origin().lineNumber(),
                                "netns-lab." + key,
                                "unknown key; see src/main/resources/reference.conf"));
                    }
                }
            }
            if (!unknown.isEmpty()) {
                throw new ScenarioException(unknown);
            }
            Config merged = ConfigFactory.defaultOverrides()
                    .withFallback(user)
                    .withFallback(base)
                    .resolve();
            // its designs are checked here, not only when a scenario selects one; the file itself is not resolved (its
            // substitutions may need the rest), so its design names come from its unresolved tree
            Map<String, ConfigOrigin> names = ownDesigns(user, merged);
            // its model keys too, even when every design a scenario runs overrides them: a bad value is said here
            if (!names.isEmpty() || user.hasPath("netns-lab.model")) {
                List<ConfigProblem> bad =
                        ScenarioLoader.namedDesignProblems(names, merged.getConfig("netns-lab"), extra.toString());
                if (!bad.isEmpty()) {
                    throw new ScenarioException(bad);
                }
            }
            checkKinds(merged);
            return merged;
        } catch (ConfigException.UnresolvedSubstitution e) { // e.g. a TLS password's ${NETNS_LAB_KEYSTORE_PASSWORD}
            ConfigProblem p = HoconSyntax.parseProblem(extra, e, "--config");
            throw new ScenarioException(
                    List.of(
                            new ConfigProblem(
                                    p.source(),
                                    p.line(),
                                    p.path(),
                                    p.message()
                                            .replaceFirst(
                                                    "Could not resolve substitution to a value: (\\$\\{[^}]*\\})$",
                                                    "$1 is neither a key of the configuration nor a variable set in the environment"))));
        } catch (ConfigException e) {
            throw new ScenarioException(List.of(HoconSyntax.parseProblem(extra, e, "--config")));
        } catch (StackOverflowError e) {
            throw new ScenarioException(
                    List.of(new ConfigProblem(extra.toString(), -1, "--config", ConfigProblem.TOO_DEEP)));
        }
    }

    /** The {@code netns-lab} blocks that the scenario's own readers check, with their scenario's keys. */
    private static final Set<String> READ_WITH_SCENARIO = Set.of("model", "designs", "machine");

    /** The runner's durations ({@code RunSettings}), each of which must be above 0. */
    private static final List<String> RUN_DURATIONS =
            List.of("netns-lab.run.ask-timeout", "netns-lab.run.stall-timeout", "netns-lab.run.progress-interval");

    /**
     * @throws ScenarioException naming every value that is not of the kind its reference.conf gives it, every Akka
     *     setting Akka cannot start with ({@link AkkaChecks}), and a log level Akka does not know
     */
    private static void checkKinds(Config system) throws ScenarioException {
        List<ConfigProblem> bad = new ArrayList<>();
        ReferenceTypes.check(system, "netns-lab", READ_WITH_SCENARIO, true, bad);
        if (bad.isEmpty()) { // Akka's model dispatcher is read from netns-lab's
            for (String key : RUN_DURATIONS) {
                if (system.hasPath(key)
                        && (system.getDuration(key).isNegative()
                                || system.getDuration(key).isZero())) {
                    bad.add(ConfigProblem.at(
                            system.getValue(key).origin(),
                            key,
                            "must be a duration > 0 (e.g. 60s), got " + HoconSyntax.shown(system.getValue(key))));
                }
            }
            String outDir = "netns-lab.run.out-dir";
            if (system.hasPath(outDir) && system.getString(outDir).isBlank()) { // as --out '' is refused
                bad.add(ConfigProblem.at(
                        system.getValue(outDir).origin(),
                        outDir,
                        "is empty, which would write every run's folder into the current folder: give a folder"
                                + " (\".\" to mean the current one)"));
            }
            bad.addAll(AkkaChecks.problems(system));
        }
        if (!bad.isEmpty()) {
            throw new ScenarioException(bad);
        }
        checkLogLevels(system);
    }

    /**
     * Akka's log levels ({@code akka.event.Logging.levelFor}, any case): Akka takes any other for an error only
     * when the actor system starts, and then prints a stack trace on stdout and goes on.
     */
    private static final List<String> LOG_LEVELS = List.of("OFF", "ERROR", "WARNING", "INFO", "DEBUG");

    /** @throws ScenarioException naming where {@code akka.loglevel} or {@code akka.stdout-loglevel} is not a level */
    private static void checkLogLevels(Config system) throws ScenarioException {
        List<ConfigProblem> bad = new ArrayList<>();
        for (String key : List.of("akka.loglevel", "akka.stdout-loglevel")) {
            if (!system.hasPath(key)) {
                continue;
            }
            ConfigValue v = system.getValue(key);
            Object level = v.unwrapped();
            if (!(level instanceof String s && LOG_LEVELS.contains(s.toUpperCase(java.util.Locale.ROOT)))) {
                bad.add(ConfigProblem.at(
                        v.origin(),
                        key,
                        "not one of Akka's log levels " + String.join(", ", LOG_LEVELS) + ", got "
                                + HoconSyntax.shown(v)));
            }
        }
        if (!bad.isEmpty()) {
            throw new ScenarioException(bad);
        }
    }

    /**
     * {@code netns-lab.embedded.design} (conf/application.conf, {@code --config}) names a design: what an
     * embedding application built with this configuration would get ({@code NetnsLab.design}).
     *
     * @param system the merged configuration
     * @throws ScenarioException naming the key, where it was set, and the known designs
     */
    public static void checkEmbeddedDesign(Config system) throws ScenarioException {
        Config lab = system.getConfig("netns-lab");
        String name = lab.getString("embedded.design");
        if (!lab.getConfig("designs").hasPath(ConfigUtil.joinPath(name))) {
            var origin = lab.getValue("embedded.design").origin();
            throw new ScenarioException(List.of(new ConfigProblem(
                    origin.filename() != null ? origin.filename() : origin.description(),
                    origin.filename() != null ? origin.lineNumber() : -1,
                    "netns-lab.embedded.design",
                    "unknown design '" + name + "'; known designs: "
                            + new TreeSet<>(lab.getObject("designs").keySet()))));
        }
    }

    /**
     * The designs a configuration file defines, each with where the file defines it, from its unresolved tree (its
     * substitutions may need the rest); where that tree cannot say (the whole block a substitution), the merged
     * designs that are not reference.conf's, located where the merge puts them.
     *
     * @throws ScenarioException when the file's {@code netns-lab.designs} is not an object
     */
    private static Map<String, ConfigOrigin> ownDesigns(Config user, Config merged) throws ScenarioException {
        try {
            ConfigValue lab = user.root().get("netns-lab");
            ConfigValue designs = lab instanceof ConfigObject o ? o.get("designs") : null;
            if (designs == null) {
                return Map.of();
            }
            if (!(designs instanceof ConfigObject own)) {
                return notReference(merged);
            }
            Map<String, ConfigOrigin> names = new LinkedHashMap<>();
            own.forEach((name, v) -> names.put(name, v.origin()));
            return names;
        } catch (ConfigException.NotResolved e) { // a merge with a substitution: the merged block says which there are
            return notReference(merged);
        }
    }

    /** @return the merged designs that are not reference.conf's, at the merged values' origins */
    private static Map<String, ConfigOrigin> notReference(Config merged) throws ScenarioException {
        ConfigValue designs = merged.getValue("netns-lab.designs");
        if (designs.valueType() != ConfigValueType.OBJECT) {
            throw new ScenarioException(List.of(ConfigProblem.at(
                    designs.origin(),
                    "netns-lab.designs",
                    "must be an object of named designs, e.g. netns-lab.designs { \"my-design\" { uevent.serialization ="
                            + " lockless } }")));
        }
        Map<String, ConfigOrigin> names = new TreeMap<>();
        Set<String> builtIn =
                ConfigFactory.defaultReference().getObject("netns-lab.designs").keySet();
        merged.getObject("netns-lab.designs").forEach((name, v) -> {
            if (!builtIn.contains(name)) {
                names.put(name, v.origin());
            }
        });
        return names;
    }
}
