package org.netnslab;

import akka.actor.typed.ActorSystem;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigUtil;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.netnslab.design.Design;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.settings.HoconDurations;

/**
 * Checks of the configuration an embedding application hands to the embedding API: a key the model would never read
 * is refused with its name, so that a misspelt block does not leave the defaults running without a word.
 */
final class EmbeddedConfig {
    /** The last {@code netns-lab-<n>} name handed out in this JVM. */
    private static final AtomicLong INSTANCES = new AtomicLong();

    private EmbeddedConfig() {}

    /**
     * Starts an instance under the first {@code netns-lab-<n>} name not taken: a name the application chose for
     * another instance is skipped.
     */
    static <T> T firstFreeName(Function<String, T> start) {
        while (true) {
            try {
                return start.apply("netns-lab-" + INSTANCES.incrementAndGet());
            } catch (akka.actor.InvalidActorNameException taken) {
                // taken by a name of the application's choosing: the next number
            }
        }
    }

    /** The design named by {@code netns-lab.embedded.design}, its keys over {@code netns-lab.model}. */
    static Design design(Config config) {
        requireReference(config);
        Config lab = config.getConfig("netns-lab");
        checkKeys(lab);
        checkDesigns(lab);
        com.typesafe.config.ConfigValue embedded = lab.getValue("embedded.design");
        if (embedded.valueType() != com.typesafe.config.ConfigValueType.STRING) {
            throw new com.typesafe.config.ConfigException.WrongType(
                    embedded.origin(),
                    "netns-lab.embedded.design",
                    "STRING (a design's name)",
                    embedded.valueType().name());
        }
        String name = lab.getString("embedded.design");
        String key = ConfigUtil.joinPath(name);
        if (!lab.getConfig("designs").hasPath(key)) {
            throw new IllegalArgumentException(
                    "netns-lab.embedded.design: unknown design '" + name + "'; named designs: "
                            + new TreeSet<>(lab.getObject("designs").keySet()));
        }
        return Design.fromConfig(
                name,
                lab.getConfig("designs")
                        .getConfig(key)
                        .withoutPath("description")
                        .withFallback(lab.getConfig("model")));
    }

    /**
     * The checks {@code run --config} gives a configuration file: {@code netns-lab.model}'s values, and each named
     * design the configuration adds or changes (one that is not reference.conf's as it is), whether or not it is
     * the one embedded: a name that can name actors, not a design of reference.conf redefined (its name would run
     * other rules), no fault switches (a comparison needs the same ones in every design), values every strategy reads.
     *
     * @param lab the configuration's {@code netns-lab} block, its keys known ({@link #checkKeys})
     * @throws IllegalArgumentException naming the first design or key at fault
     */
    static void checkDesigns(Config lab) {
        Config model = lab.getConfig("model");
        Design.checkStrategies(model, "netns-lab.model."); // a value every design overrides would otherwise pass
        com.typesafe.config.ConfigObject reference =
                ConfigFactory.defaultReference().getObject("netns-lab.designs");
        for (String name : new TreeSet<>(lab.getObject("designs").keySet())) {
            com.typesafe.config.ConfigValue v = lab.getObject("designs").get(name);
            if (v.equals(reference.get(name))) {
                continue;
            }
            String path = "netns-lab.designs." + ConfigUtil.joinPath(name);
            String bad = reference.containsKey(name) ? Design.redefined(name) : Design.nameProblem(name);
            if (bad != null) {
                throw new IllegalArgumentException(path + ": " + bad);
            }
            Config design = ((com.typesafe.config.ConfigObject) v).toConfig(); // an object: checkKeys said so
            for (String fault : Design.FAULT_KEYS) {
                if (design.hasPath(fault)) {
                    throw new IllegalArgumentException(path + "." + fault + ": fault switches are not a design's: set"
                            + " them in netns-lab.model (every design alike)");
                }
            }
            Design.fromConfig(name, design.withoutPath("description").withFallback(model), path + ".");
        }
    }

    /** Refuses a configuration built without netns-lab's reference.conf: it names no design and no model. */
    static void requireReference(Config config) {
        java.util.Objects.requireNonNull(
                config, "netns-lab: config is null (system.settings().config() has netns-lab's)");
        if (!config.hasPath("netns-lab.designs") || !config.hasPath("netns-lab.model")) {
            throw new IllegalArgumentException("netns-lab.designs and netns-lab.model: missing from the configuration"
                    + " passed; build it over netns-lab's reference.conf (ConfigFactory.load(), or"
                    + " .withFallback(ConfigFactory.defaultReference()))");
        }
    }

    /** Refuses a request timeout with which every request would fail at once. */
    static void requireTimeout(Duration timeout, Config config) {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException(
                    "netns-lab: the request timeout must be above 0, got " + timeout + ": every request would fail");
        }
        Duration longest = HoconDurations.schedulerLongestDelay(config);
        if (timeout.compareTo(longest) > 0) {
            throw new IllegalArgumentException(String.format(
                    "netns-lab: the request timeout must be at most %s (%.1f days, the longest delay Akka's scheduler"
                            + " takes at its akka.scheduler.tick-duration), got %s: every request would fail",
                    longest, longest.getSeconds() / 86400.0, timeout));
        }
    }

    /**
     * Refuses a key under {@code netns-lab} that netns-lab's reference.conf does not have, and one under
     * {@code netns-lab.embedded} other than {@code design}.
     *
     * @param lab the configuration's {@code netns-lab} block
     * @throws IllegalArgumentException naming the unknown key and the keys there are
     */
    static void checkKeys(Config lab) {
        Config reference = ConfigFactory.defaultReference().getConfig("netns-lab");
        unknown(lab, reference, "netns-lab.");
        if (lab.hasPath("embedded") && reference.hasPath("embedded")) {
            unknown(lab.getConfig("embedded"), reference.getConfig("embedded"), "netns-lab.embedded.");
        }
        if (!reference.hasPath("model") || !lab.hasPath("model") || !lab.hasPath("designs")) {
            return; // requireReference names a configuration without them
        }
        // the model's keys, and each design's (a design's keys over the model's), are the reference model's leaves
        Set<String> model = new TreeSet<>();
        reference.getConfig("model").entrySet().forEach(e -> model.add(e.getKey()));
        modelKeys(lab.getConfig("model"), model, "netns-lab.model.");
        for (String d : new TreeSet<>(lab.getObject("designs").keySet())) {
            com.typesafe.config.ConfigValue v = lab.getObject("designs").get(d);
            String path = "netns-lab.designs." + ConfigUtil.joinPath(d);
            if (v.valueType() != com.typesafe.config.ConfigValueType.OBJECT) {
                throw new IllegalArgumentException(path + ": " + Design.NOT_AN_OBJECT + ", got "
                        + v.valueType().name().toLowerCase(java.util.Locale.ROOT));
            }
            Config design = ((com.typesafe.config.ConfigObject) v).toConfig().withoutPath("description");
            modelKeys(design, model, path + ".");
        }
    }

    private static void modelKeys(Config given, Set<String> model, String prefix) {
        for (String key : new TreeSet<>(
                given.entrySet().stream().map(java.util.Map.Entry::getKey).toList())) {
            if (!model.contains(key)) {
                throw new IllegalArgumentException(prefix + key + ": not a model key (misspelt?); a design's keys are"
                        + " those under netns-lab.model in netns-lab's reference.conf");
            }
        }
    }

    private static void unknown(Config given, Config reference, String prefix) {
        Set<String> known = new TreeSet<>(reference.root().keySet());
        for (String key : new TreeSet<>(given.root().keySet())) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException(prefix + key + ": not a netns-lab key (misspelt?); the keys under "
                        + prefix.substring(0, prefix.length() - 1) + " are " + known
                        + " (a design of your own goes under netns-lab.designs.<name>)");
            }
        }
    }

    /**
     * The model's actors run on the actor system's {@code netns-lab.dispatcher}, looked up once per actor system
     * ({@link ModelDispatcher}); a configuration passed to the embedding API's start that names another one is refused
     * rather than ignored.
     *
     * @throws IllegalArgumentException when the two name different dispatchers
     */
    static void checkDispatcher(ActorSystem<?> system, Config config) {
        String passed = ModelDispatcher.id(config);
        String used = ModelDispatcher.id(system.settings().config());
        if (!passed.equals(used)) {
            throw new IllegalArgumentException(ModelDispatcher.KEY + ": the configuration passed names '" + passed
                    + "', but the model runs on the actor system's own " + ModelDispatcher.KEY + " ('" + used
                    + "', read once per actor system): set it in the actor system's configuration");
        }
    }
}
