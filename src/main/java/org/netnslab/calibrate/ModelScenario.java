package org.netnslab.calibrate;

import static java.util.Map.entry;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValueFactory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A scenario calibrate runs on the model, as objects: its keys as a {@link Config} the scenario loader validates and
 * runs, and the same keys as the text of {@code scenario-<name>.conf}, which a user runs again with
 * {@code netns-lab run FILE --config calibrated.conf}. Virtual execution on the host's CPU count, the host's era
 * first (the baseline).
 *
 * @param fileName names the file: {@code scenario-<fileName>.conf}
 * @param name names the scenario: {@code calib-<name>}
 * @param comment the file's opening comment lines, without their {@code "# "}
 * @param description one line
 * @param seed what the scenario reproduces
 * @param workload the workload block's keys in the order written: strings, numbers, lists of strings, and blocks
 *     of the same ({@link #keys})
 * @param model the model block's keys over the calibrated configuration, of the same shapes; empty for none
 * @param cpus the simulated machine's CPUs
 * @param designs the designs run, the baseline first
 * @param repeat replicates, each with the next random seed (the {@code repeat} key; 1 writes no key)
 */
record ModelScenario(
        String fileName,
        String name,
        List<String> comment,
        String description,
        String seed,
        Map<String, Object> workload,
        Map<String, Object> model,
        int cpus,
        List<String> designs,
        int repeat) {
    /** A string written without quotes: a word, or a duration of whole units as HOCON reads one. */
    private static final Pattern BARE = Pattern.compile("(?!(true|false|null)$)[A-Za-z][A-Za-z0-9_-]*|\\d+(ns|us|ms)");

    /** Copies the collections and checks {@code repeat}. */
    ModelScenario {
        if (repeat < 1) {
            throw new IllegalArgumentException("repeat must be at least 1, got " + repeat);
        }
        comment = List.copyOf(comment);
        workload = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(workload));
        model = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(model));
        designs = List.copyOf(designs);
    }

    /**
     * @param entries the keys and their values, in the order written
     * @return a block of them ({@link #workload}'s shapes)
     */
    @SafeVarargs
    static Map<String, Object> keys(Map.Entry<String, ?>... entries) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : entries) {
            m.put(e.getKey(), e.getValue());
        }
        return m;
    }

    /**
     * @param netns user-namespace-owned netns, one listener each
     * @param injectors injectors, all started at once
     * @param perNetns counted injections into each netns (no warm-up)
     * @return the workload of a TC1-shaped uevent-injection scenario, its listeners woken at the end as the probe's
     *     stop pipe wakes them
     */
    static Map<String, Object> injection(int netns, int injectors, long perNetns) {
        return keys(
                entry("type", "uevent-injection"),
                entry("netns", keys(entry("userns-owned", netns), entry("init-owned", 0))),
                entry("listeners-per-netns", 1),
                entry("injections-per-netns", perNetns),
                entry("warmup-per-netns", 0),
                entry("injectors", injectors),
                entry("injector-start-interval", "0ms"),
                entry("listeners-woken-at-end", true));
    }

    /**
     * @param workers parallel loops
     * @param iterations {@code unshare -n /bin/true} per loop (no warm-up)
     * @return the workload of the lifecycle probe's loops
     */
    static Map<String, Object> churn(int workers, long iterations) {
        return keys(
                entry("type", "netns-churn"),
                entry("workers", workers),
                entry("iterations", iterations),
                entry("new-userns", false),
                entry("sockets", 0),
                entry("warmup-iterations", 0));
    }

    /** @return where it is written in {@code folder} */
    Path file(Path folder) {
        return folder.resolve("scenario-" + fileName + ".conf");
    }

    /** @return the scenario's keys, for the scenario loader */
    Config config() {
        Map<String, Object> keys = keys(
                entry("name", "calib-" + name),
                entry("description", description),
                entry("seed", seed),
                entry("workload", workload));
        if (!model.isEmpty()) {
            keys.put("model", model);
        }
        keys.put("execution", "virtual");
        keys.put("machine", keys(entry("cpus", cpus)));
        keys.put("designs", designs);
        keys.put("baseline", designs.get(0));
        if (repeat > 1) {
            keys.put("repeat", repeat);
        }
        return ConfigValueFactory.fromMap(keys).toConfig();
    }

    /** @return the same keys as HOCON, for the file; design names quoted (an era's name holds the kernel release) */
    String text() {
        StringBuilder b = new StringBuilder();
        comment.forEach(line -> b.append("# ").append(line).append('\n'));
        b.append("name = ").append(value("calib-" + name)).append('\n');
        b.append("description = ").append(value(description)).append('\n');
        b.append("seed = ").append(value(seed)).append('\n');
        b.append("workload {\n");
        workload.forEach((k, v) -> b.append("  ").append(line(k, v)).append('\n'));
        b.append("}\n");
        if (!model.isEmpty()) {
            b.append("model ").append(value(model)).append('\n');
        }
        b.append("execution = virtual\n");
        b.append("machine { cpus = ").append(cpus).append(" }\n");
        b.append("designs = [")
                .append(String.join(
                        ", ", designs.stream().map(ConfigUtil::quoteString).toList()))
                .append("]\n");
        b.append("baseline = ").append(ConfigUtil.quoteString(designs.get(0))).append('\n');
        if (repeat > 1) {
            b.append("repeat = ").append(repeat).append('\n');
        }
        return b.toString();
    }

    /** @return {@code key = value}, or {@code key { ... }} for a block */
    private static String line(String key, Object v) {
        return key + (v instanceof Map ? " " : " = ") + value(v);
    }

    /** @return a value as HOCON: a block on one line, a list, a number, a string quoted unless it is a bare word */
    private static String value(Object v) {
        if (v instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder("{ ");
            m.forEach((k, x) -> b.append(b.length() > 2 ? ", " : "").append(line((String) k, x)));
            return b.append(" }").toString();
        }
        if (v instanceof List<?> l) {
            return "[" + String.join(", ", l.stream().map(ModelScenario::value).toList()) + "]";
        }
        if (v instanceof String s) {
            return BARE.matcher(s).matches() ? s : ConfigUtil.quoteString(s);
        }
        return String.valueOf(v); // a number or a boolean
    }
}
