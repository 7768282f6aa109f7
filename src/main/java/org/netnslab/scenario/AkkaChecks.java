package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.settings.ConfigProblem;
import org.netnslab.settings.HoconDurations;
import org.netnslab.settings.HoconSyntax;
import org.netnslab.settings.ReferenceTypes;

/**
 * Akka's settings, checked before an actor system is made with them, so that {@code validate} refuses what would
 * make the actor system fail to start, and a run says it at the file, line and key instead of with a stack trace:
 * every {@code akka.*} value of the kind Akka's reference.conf gives it ({@link ReferenceTypes}); the classes Akka
 * loads by name (the actor-ref provider, loggers, logging filter, a dispatcher's executor) on the class path; and the
 * values Akka takes only in a range (the scheduler's tick, a fork-join pool's parallelism, a dispatcher's
 * throughput, Artery's frame size) in it. The dispatchers checked are Akka's default and internal ones and the
 * model's ({@link ModelDispatcher}).
 */
final class AkkaChecks {
    private AkkaChecks() {}

    /** The scheduler's tick Akka accepts (at least 1 ms), and the coarsest that still times the run's waits. */
    private static final long TICK_MIN_NANOS = 1_000_000L;

    private static final long TICK_MAX_NANOS = 1_000_000_000L;
    /** Artery's least maximum-frame-size. */
    private static final long FRAME_MIN_BYTES = 32 * 1024;
    /** The most threads a fork-join pool may have (java.util.concurrent.ForkJoinPool's MAX_CAP). */
    private static final long PARALLELISM_MAX = 0x7fff;

    private static final Set<String> EXECUTORS =
            Set.of("default-executor", "fork-join-executor", "thread-pool-executor", "affinity-pool-executor");

    /**
     * @param system the merged configuration
     * @return every problem found, each at the value's file and line; empty when Akka can start with it
     */
    static List<ConfigProblem> problems(Config system) {
        List<ConfigProblem> problems = new ArrayList<>();
        ReferenceTypes.check(system, "akka", Set.of(), false, problems);
        if (!problems.isEmpty()) { // the checks below read values of these kinds
            return problems;
        }
        className(system, "akka.actor.provider", Set.of("local", "remote", "cluster"), problems);
        if (system.hasPath("akka.loggers")) {
            List<String> loggers = system.getStringList("akka.loggers");
            for (int i = 0; i < loggers.size(); i++) {
                if (!onClassPath(loggers.get(i))) {
                    problems.add(ConfigProblem.at(
                            system.getList("akka.loggers").get(i).origin(),
                            "akka.loggers",
                            notAClass("a logger class, e.g. akka.event.slf4j.Slf4jLogger", loggers.get(i))));
                }
            }
        }
        className(system, "akka.logging-filter", Set.of(), problems);
        within(system, "akka.scheduler.tick-duration", TICK_MIN_NANOS, TICK_MAX_NANOS, problems);
        for (String dispatcher : dispatchers(system)) {
            className(system, dispatcher + ".executor", EXECUTORS, problems);
            for (String n : List.of("parallelism-min", "parallelism-max")) {
                atLeast(system, dispatcher + ".fork-join-executor." + n, 1, PARALLELISM_MAX, problems);
            }
            if (system.hasPath(dispatcher + ".fork-join-executor.parallelism-factor")
                    && !(system.getDouble(dispatcher + ".fork-join-executor.parallelism-factor") > 0)) {
                problems.add(
                        problem(system, dispatcher + ".fork-join-executor.parallelism-factor", "must be a number > 0"));
            }
            atLeast(system, dispatcher + ".throughput", 1, Integer.MAX_VALUE, problems);
            // a ThreadPoolExecutor needs a thread (fixed-pool-size is "off" unless a number is given)
            String fixed = dispatcher + ".thread-pool-executor.fixed-pool-size";
            if (system.hasPath(fixed) && system.getValue(fixed).valueType() == ConfigValueType.NUMBER) {
                atLeast(system, fixed, 1, Integer.MAX_VALUE, problems);
            }
            for (String n : List.of("max-pool-size-min", "max-pool-size-max")) {
                atLeast(system, dispatcher + ".thread-pool-executor." + n, 1, Integer.MAX_VALUE, problems);
            }
        }
        modelDispatcher(system, problems);
        String frame = "akka.remote.artery.advanced.maximum-frame-size";
        if (system.hasPath(frame) && system.getBytes(frame) < FRAME_MIN_BYTES) {
            problems.add(problem(system, frame, "must be at least 32 KiB (Artery's least frame)"));
        }
        return problems;
    }

    /** @return the dispatcher blocks an actor system of this configuration runs actors on */
    private static List<String> dispatchers(Config system) {
        List<String> out = new ArrayList<>(List.of("akka.actor.default-dispatcher", "akka.actor.internal-dispatcher"));
        try {
            String model = ModelDispatcher.id(system);
            if (!out.contains(model) && system.hasPath(model)) {
                out.add(model);
            }
        } catch (ConfigException e) { // netns-lab.dispatcher not a string: the netns-lab keys' check says so
        }
        return out;
    }

    /**
     * Adds a problem when {@code netns-lab.dispatcher} does not name a dispatcher block: Akka would refuse an
     * unknown name only at the model's first spawn, and run a block of other settings as a default pool.
     */
    private static void modelDispatcher(Config system, List<ConfigProblem> problems) {
        String key = ModelDispatcher.KEY;
        if (!system.hasPath(key) || system.getValue(key).valueType() != ConfigValueType.STRING) {
            return; // unset: Akka's default dispatcher; not a string: the netns-lab keys' check says so
        }
        String id = system.getString(key);
        String wrong;
        try {
            if (!system.hasPath(id)) {
                wrong = "must name a dispatcher block (netns-lab.model-dispatcher, akka.actor.default-dispatcher or"
                        + " one of your own); there is none at that path";
            } else if (system.getValue(id).valueType() != ConfigValueType.OBJECT) {
                wrong = "must name a dispatcher block; the value at that path is not a block";
            } else if (!isDispatcherBlock(system.getConfig(id))) {
                wrong = "must name a dispatcher block; the block at that path sets neither type nor executor";
            } else {
                return;
            }
        } catch (ConfigException e) { // an empty or malformed path
            wrong = "must name a dispatcher block by its path, e.g. netns-lab.model-dispatcher";
        }
        problems.add(problem(system, key, wrong));
    }

    /** @return whether {@code block} sets what makes a block a dispatcher's, its type or its executor */
    private static boolean isDispatcherBlock(Config block) {
        return block.hasPath("type") || block.hasPath("executor");
    }

    /** Adds a problem when the value at {@code key}, if set, is neither one of {@code aliases} nor a loadable class. */
    private static void className(Config system, String key, Set<String> aliases, List<ConfigProblem> problems) {
        if (!system.hasPath(key)) {
            return;
        }
        String name = system.getString(key);
        if (!aliases.contains(name) && !onClassPath(name)) {
            problems.add(ConfigProblem.at(
                    system.getValue(key).origin(),
                    key,
                    notAClass(
                            aliases.isEmpty()
                                    ? "a class on the class path"
                                    : "one of "
                                            + String.join(
                                                    ", ",
                                                    aliases.stream().sorted().toList())
                                            + ", or a class on the class path",
                            name)));
        }
    }

    private static String notAClass(String expected, String name) {
        return "no such class (expected " + expected + "), got '" + name + "'";
    }

    private static boolean onClassPath(String name) {
        try {
            Class.forName(name, false, AkkaChecks.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Adds a problem when the duration at {@code key}, if set, is outside min..max. */
    private static void within(Config system, String key, long minNanos, long maxNanos, List<ConfigProblem> problems) {
        if (!system.hasPath(key)) {
            return;
        }
        long n = system.getDuration(key).toNanos();
        if (n < minNanos || n > maxNanos) {
            problems.add(problem(
                    system,
                    key,
                    "must be a duration in " + HoconDurations.durationText(minNanos) + ".."
                            + HoconDurations.durationText(maxNanos)));
        }
    }

    /** Adds a problem when the integer at {@code key}, if set, is outside min..max. */
    private static void atLeast(Config system, String key, long min, long max, List<ConfigProblem> problems) {
        if (system.hasPath(key) && (system.getLong(key) < min || system.getLong(key) > max)) {
            problems.add(problem(system, key, "must be an integer in " + min + ".." + max));
        }
    }

    /** @return a problem at the value of {@code key}, with the value it has */
    private static ConfigProblem problem(Config system, String key, String expected) {
        ConfigValue v = system.getValue(key);
        return ConfigProblem.at(v.origin(), key, expected + ", got " + HoconSyntax.shown(v));
    }
}
