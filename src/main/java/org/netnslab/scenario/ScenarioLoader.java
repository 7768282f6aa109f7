package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.netnslab.design.Design;
import org.netnslab.machine.MachineSettings;
import org.netnslab.metrics.RatioDefinition;
import org.netnslab.run.Execution;
import org.netnslab.settings.ConfigProblem;
import org.netnslab.settings.HoconChecker;
import org.netnslab.workload.Workload;

/**
 * Reads a scenario file, applies {@code --set} overrides and validates everything before anything
 * runs: unknown keys, wrong types, values out of range, unknown designs or strategy values, missing
 * required keys. All problems are reported at once, each with file, line and key path. The workload
 * block is read by its type's {@link WorkloadParser}, the designs by {@link DesignReader}, the seed's
 * figures by {@link SeedFiguresReader}.
 */
public final class ScenarioLoader {
    private static final Set<String> TOP_LEVEL = Set.of(
            "name",
            "description",
            "seed",
            "workload",
            "designs",
            "baseline",
            "seed-ratios",
            "derived-ratios",
            "model",
            "custom-designs",
            "repeat",
            "execution",
            "machine",
            "random-seed",
            "sensitivity");
    /** The most replicates a scenario may ask for: enough for any interval, few enough to notice a typo. */
    public static final int MAX_REPEAT = 1000;

    private final Config reference;

    /** Uses the netns-lab reference configuration on the class path. */
    public ScenarioLoader() {
        this(ConfigFactory.defaultReference().getConfig("netns-lab"));
    }

    /** @param netnsLabReference the {@code netns-lab} block of the reference configuration */
    public ScenarioLoader(Config netnsLabReference) {
        this.reference = netnsLabReference;
    }

    /**
     * Checks the named designs a {@code --config} file defines: every one, whether or not a scenario runs it, so
     * that a bad value waits for no scenario that happens to select it.
     *
     * @param names the designs the file defines (its own {@code netns-lab.designs} keys), each with where it does
     * @param merged the merged {@code netns-lab} block (its values keep the file and line they came from)
     * @param source the file's name
     * @return the problems, each at the file and line of the value at fault; empty when all is well
     */
    public static List<ConfigProblem> namedDesignProblems(
            Map<String, com.typesafe.config.ConfigOrigin> names, Config merged, String source) {
        return DesignReader.namedDesignProblems(names, merged, source);
    }

    /** DesignReader's problem for a design the scenario names that no configuration defines. */
    private static final java.util.regex.Pattern UNKNOWN_DESIGN =
            java.util.regex.Pattern.compile("^unknown design '(.*?)'");

    /**
     * @param scenario a scenario file
     * @return the designs a calibrated.conf beside it defines (the folder {@code netns-lab calibrate} writes), or
     *     none when there is no such file or it does not parse (it is then no help for a hint)
     */
    private static Set<String> calibratedDesignsBeside(Path scenario) {
        Path calibrated = scenario.toAbsolutePath().resolveSibling("calibrated.conf");
        if (!Files.isRegularFile(calibrated)) {
            return Set.of();
        }
        try {
            Config c = ConfigFactory.parseFile(calibrated.toFile());
            return c.hasPath("netns-lab.designs")
                    ? c.getObject("netns-lab.designs").keySet()
                    : Set.of();
        } catch (ConfigException e) { // a broken file beside the scenario: no hint, the unknown design is still said
            return Set.of();
        }
    }

    /**
     * {@code --set key=${?X}} with X neither a key nor an environment variable sets nothing: HOCON drops the
     * field and the scenario's own value stays. Legal HOCON, so not an error, but never what the user meant:
     * a warning on stderr names the --set.
     */
    private static void warnIfOptionalUnset(String set, String key, Config before) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$\\{\\?\\s*([^}\\s]+)\\s*\\}")
                .matcher(set);
        boolean any = false;
        while (m.find()) {
            any = true;
            String name = m.group(1).replace("\"", "");
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
                    "netns-lab: warning: --set " + set + ": the optional substitution is not defined (no such"
                            + " key or environment variable), so this override sets nothing"
                            + (before.hasPathOrNull(key) ? ": " + key + " keeps the scenario's value" : ""));
        }
    }

    /**
     * @param file the scenario file
     * @param sets {@code path=value} overrides, applied over the file in order
     * @param scale {@code --scale}, must be finite and &gt; 0
     * @return the validated scenario
     * @throws ScenarioException listing every problem found
     */
    public Scenario load(Path file, List<String> sets, double scale) throws ScenarioException {
        List<ConfigProblem> problems = new ArrayList<>();
        String source = file.toString();
        if (!(scale > 0) || scale > 1000) {
            problems.add(new ConfigProblem("--scale", -1, "-", "must be a number > 0 and <= 1000, got " + scale));
        }
        if (Files.isDirectory(file)) {
            problems.add(new ConfigProblem(
                    source, -1, "-", "is a directory, not a scenario file (e.g. load-tests/unshare-loop.conf)"));
            throw new ScenarioException(problems);
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            problems.add(
                    new ConfigProblem(source, -1, "-", "cannot read scenario file (missing or not a readable file)"));
            throw new ScenarioException(problems);
        }
        Config conf;
        try {
            ConfigProblem notText = org.netnslab.settings.HoconSyntax.notText(file, "-");
            if (notText != null) {
                problems.add(notText);
                throw new ScenarioException(problems);
            }
        } catch (java.io.IOException e) {
            problems.add(new ConfigProblem(source, -1, "-", "cannot read scenario file (" + e + ")"));
            throw new ScenarioException(problems);
        }
        try {
            conf = ConfigFactory.parseFile(
                    file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
        } catch (ConfigException e) {
            problems.add(org.netnslab.settings.HoconSyntax.parseProblem(file, e, "-"));
            throw new ScenarioException(problems);
        }
        java.util.Map<String, String> setBy = new java.util.HashMap<>(); // each leaf path a --set gave, and which
        for (String set : sets) {
            int eq = set.indexOf('=');
            if (eq <= 0) {
                problems.add(
                        new ConfigProblem("--set " + set, -1, "-", "expected path=value, e.g. --set machine.cpus=2"));
                continue;
            }
            if (set.substring(eq + 1).isBlank()) {
                problems.add(new ConfigProblem(
                        "--set " + set,
                        -1,
                        set.substring(0, eq).trim(),
                        "no value after '=' (to set an" + " empty string, write \"\")"));
                continue;
            }
            try {
                Config one = ConfigFactory.parseString(
                        set.substring(0, eq).trim() + " = " + set.substring(eq + 1),
                        ConfigParseOptions.defaults().setOriginDescription("--set " + set));
                warnIfOptionalUnset(set, set.substring(0, eq).trim(), conf);
                for (java.util.Map.Entry<String, com.typesafe.config.ConfigValue> e : one.entrySet()) {
                    String earlier = setBy.put(e.getKey(), set);
                    if (earlier != null && !earlier.equals(set)) { // the last one wins, as HOCON's own later value does
                        System.err.println("netns-lab: warning: --set " + set + " overrides the earlier --set "
                                + earlier + " (the last one given wins)");
                    }
                }
                conf = one.withFallback(conf);
            } catch (ConfigException e) {
                problems.add(new ConfigProblem("--set " + set, -1, set.substring(0, eq), HoconChecker.bare(e)));
            }
        }
        try {
            conf = conf.resolve();
        } catch (ConfigException e) {
            problems.add(ConfigProblem.at(e.origin(), "-", HoconChecker.bare(e)));
            throw new ScenarioException(problems);
        }
        HoconChecker c = new HoconChecker(conf, source, problems);
        c.unknownKeys(conf.root(), TOP_LEVEL, "");
        String name = c.string("name", null);
        if (name != null && !HoconChecker.isSafeName(name)) {
            c.problem(
                    "name",
                    "must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit (it names"
                            + " the output folder), got '" + name + "'");
        }
        String description = c.string("description", null);
        String seed = c.string("seed", null);
        // replicates of every design (--repeat overrides it); the statistics compare replicate means
        int repeat = (int) c.integer("repeat", 1L, 1, MAX_REPEAT);
        Execution execution = execution(c, conf);
        // a part already found wrong is not checked again against the parts that refer to it: the one
        // problem is reported, not its echoes (a listener left out, then a ratio naming its measure)
        int before = problems.size();
        Workload workload = WorkloadParsers.parse(c, scale);
        boolean workloadOk = problems.size() == before;
        before = problems.size();
        DesignReader designReader = new DesignReader(reference, c);
        Map<String, Design> designs = designReader.read();
        boolean designsOk = problems.size() == before;
        Set<String> besideDesigns = null; // read only when a design is unknown
        for (int i = before; i < problems.size(); i++) {
            ConfigProblem p = problems.get(i);
            java.util.regex.Matcher m = UNKNOWN_DESIGN.matcher(p.message());
            if (!p.path().equals("designs") || !m.find()) {
                continue;
            }
            if (besideDesigns == null) {
                besideDesigns = calibratedDesignsBeside(file);
            }
            if (besideDesigns.contains(m.group(1))) { // a scenario calibrate wrote
                problems.set(
                        i,
                        new ConfigProblem(
                                p.source(),
                                p.line(),
                                p.path(),
                                p.message() + "; the calibrated.conf beside" + " this file defines it: add --config "
                                        + file.resolveSibling("calibrated.conf")));
            }
        }
        String baseline = designs.isEmpty() ? null : designs.keySet().iterator().next();
        if (conf.hasPath("baseline")) {
            baseline = c.string("baseline", null);
            if (baseline != null && designsOk && !designs.isEmpty() && !designs.containsKey(baseline)) {
                c.problem("baseline", "'" + baseline + "' is not one of the scenario's designs " + designs.keySet());
            }
        }
        SeedFiguresReader seedFigures = new SeedFiguresReader(
                c,
                designReader.known(),
                designs.keySet(),
                workload == null || !workloadOk ? null : workload.measures());
        Map<String, Double> seedRatios = seedFigures.seedRatios();
        List<RatioDefinition> derivedRatios = seedFigures.derivedRatios();
        Sensitivity sensitivity = Sensitivity.NONE;
        if (conf.hasPath("sensitivity")) {
            try {
                sensitivity = Sensitivity.read(source, conf.getConfig("sensitivity"), problems);
            } catch (ConfigException e) {
                problems.add(new ConfigProblem(
                        source,
                        conf.getValue("sensitivity").origin().lineNumber(),
                        "sensitivity",
                        "expected a block { samples = N, spread = 0.5, keys = [...], seed-band = 0.1 }"));
            }
            if (sensitivity.samples() > 0 && execution != null && !execution.isVirtual()) {
                problems.add(new ConfigProblem(
                        source,
                        conf.getValue("sensitivity").origin().lineNumber(),
                        "sensitivity",
                        "needs execution = virtual: the costs it varies are charged in virtual execution only"));
            }
        }
        if (!problems.isEmpty()) {
            throw new ScenarioException(onePerLine(problems));
        }
        return new Scenario(
                source,
                name,
                description,
                seed,
                workload,
                List.copyOf(designs.values()),
                baseline,
                seedRatios,
                derivedRatios,
                scale,
                sets,
                repeat,
                execution,
                sensitivity);
    }

    /** Reads {@code execution}, {@code machine} and {@code random-seed} over reference.conf's defaults. */
    private Execution execution(HoconChecker c, Config conf) {
        Execution dflt = Execution.defaults(reference);
        String mode = c.string("execution", dflt.mode().name().toLowerCase(Locale.ROOT));
        Execution.Mode m = dflt.mode();
        if (mode != null) {
            if (mode.equals("live") || mode.equals("virtual")) {
                m = Execution.Mode.valueOf(mode.toUpperCase(Locale.ROOT));
            } else {
                c.problem("execution", "must be live or virtual, got '" + mode + "'");
            }
        }
        if (conf.hasPath("machine")) {
            ConfigObject machine = c.object("machine"); // reports "must be an object" itself
            if (machine == null) {
                return new Execution(m, dflt.machine(), List.of());
            }
            c.unknownKeys(
                    machine,
                    Set.of(
                            "cpus",
                            "jitter",
                            "scheduler",
                            "preempt",
                            "hz",
                            "base-slice",
                            "context-switch",
                            "task-group"),
                    "machine.");
        }
        List<Integer> sweep = cpuSweep(c, conf, m);
        boolean list =
                conf.hasPath("machine.cpus") && conf.getValue("machine.cpus").valueType() == ConfigValueType.LIST;
        int cpus = !list
                ? (int) c.integer("machine.cpus", (long) dflt.machine().cpus(), 1, 4096)
                : sweep.isEmpty() ? dflt.machine().cpus() : sweep.get(0);
        double jitter = dflt.machine().jitter();
        if (conf.hasPath("machine.jitter")) {
            ConfigValue j = conf.getValue("machine.jitter");
            if (j.valueType() == ConfigValueType.NUMBER
                    && ((Number) j.unwrapped()).doubleValue() >= 0
                    && ((Number) j.unwrapped()).doubleValue() <= 0.5) {
                jitter = ((Number) j.unwrapped()).doubleValue();
            } else {
                c.problemAt(j.origin(), "machine.jitter", "must be a number in 0..0.5, got " + j.render());
            }
        }
        long seed = c.integer("random-seed", dflt.machine().randomSeed(), Long.MIN_VALUE, Long.MAX_VALUE);
        org.netnslab.machine.Scheduling scheduling = scheduling(c, dflt);
        warnNoEffect(conf, m, scheduling.scheduler());
        return new Execution(m, new MachineSettings(cpus, jitter, seed, scheduling), sweep);
    }

    /**
     * A scheduling key the scenario or a --set gives that the run will not use gets a warning on stderr (result.json
     * lists it too, in execution.machine.no_effect): under fifo (steps, not tasks) all but the scheduler, in live
     * execution all of them.
     */
    private static void warnNoEffect(Config conf, Execution.Mode m, org.netnslab.machine.Scheduling.Scheduler s) {
        boolean live = m != Execution.Mode.VIRTUAL;
        for (String field : org.netnslab.metrics.RunResult.SchedulingInfo.noEffect(
                live, s == org.netnslab.machine.Scheduling.Scheduler.FIFO)) {
            String k = "machine." + field.replace("_ns", "").replace('_', '-');
            if (conf.hasPath(k)) {
                System.err.println("netns-lab: warning: " + k + " has no effect: "
                        + (live
                                ? "live execution runs on the host's own scheduler"
                                : "machine.scheduler = fifo runs steps, not tasks"));
            }
        }
    }

    /** The machine's scheduling keys, each checked with a message naming it; a bad one keeps the default. */
    private static org.netnslab.machine.Scheduling scheduling(HoconChecker c, Execution dflt) {
        org.netnslab.machine.Scheduling d = dflt.machine().scheduling();
        var scheduler = choice(
                c,
                "machine.scheduler",
                d.scheduler(),
                org.netnslab.machine.Scheduling.Scheduler::parse,
                "fair or fifo");
        var preempt = choice(
                c,
                "machine.preempt",
                d.preempt(),
                org.netnslab.machine.Scheduling.Preempt::parse,
                "none, voluntary or full");
        var group = choice(
                c,
                "machine.task-group",
                d.taskGroup(),
                org.netnslab.machine.Scheduling.TaskGroup::parse,
                "root or session");
        int hz = (int) c.integer("machine.hz", (long) d.hz(), 100, 1000);
        long slice = nanosOf(c, "machine.base-slice", d.baseSliceNanos(), 1_000_000_000L);
        long csw = nanosOf(c, "machine.context-switch", d.contextSwitchNanos(), 1_000_000L);
        return new org.netnslab.machine.Scheduling(scheduler, preempt, hz, slice, csw, group);
    }

    /**
     * @param values the allowed values, for the message, e.g. {@code "fair or fifo"}
     * @return the key's value parsed; the default when absent or refused (the problem is recorded, naming the key)
     */
    private static <T extends Enum<T>> T choice(
            HoconChecker c, String key, T dflt, java.util.function.Function<String, T> parse, String values) {
        String s = c.string(key, dflt.name().toLowerCase(Locale.ROOT));
        if (s == null) {
            return dflt;
        }
        try {
            return parse.apply(s);
        } catch (IllegalArgumentException e) {
            c.problem(key, "must be " + values + ", got '" + s + "'");
            return dflt;
        }
    }

    /** @return the key's duration in 0..max, ns; the default when absent or refused (the problem is recorded) */
    private static long nanosOf(HoconChecker c, String key, long dflt, long max) {
        Long n = c.nanos(key, dflt, max, "1500us");
        return n == null ? dflt : n;
    }

    /**
     * {@code machine.cpus} as a list: a CPU sweep. Each count 1..4096, no repeats, at least one, and the
     * run virtual (live execution has the host's CPUs only).
     *
     * @return the counts; empty when {@code machine.cpus} is not a list (or the list is wrong)
     */
    private static List<Integer> cpuSweep(HoconChecker c, Config conf, Execution.Mode mode) {
        if (!conf.hasPath("machine.cpus") || conf.getValue("machine.cpus").valueType() != ConfigValueType.LIST) {
            return List.of();
        }
        List<Integer> counts = new ArrayList<>();
        List<? extends ConfigValue> values = conf.getList("machine.cpus");
        for (ConfigValue v : values) {
            Object n = v.unwrapped();
            if (!(n instanceof Integer i) || i < 1 || i > 4096) {
                c.problem("machine.cpus", "a CPU sweep is a list of integers in 1..4096, got '" + v.render() + "'");
                return List.of();
            }
            if (counts.contains(i)) {
                c.problem("machine.cpus", "a CPU sweep names each count once, " + i + " is repeated");
                return List.of();
            }
            counts.add(i);
        }
        if (counts.isEmpty()) {
            c.problem("machine.cpus", "a CPU sweep needs at least one count, got []");
            return List.of();
        }
        if (mode != Execution.Mode.VIRTUAL) {
            c.problem(
                    "machine.cpus",
                    "a CPU sweep (a list of counts) needs execution = virtual: live execution runs on"
                            + " the host's CPUs only");
            return List.of();
        }
        return List.copyOf(counts);
    }

    /**
     * One problem per value: a bad value in the scenario's model block (or a --set of one) would
     * otherwise be reported again for every design that inherits it. The first report, the model
     * block's own, is kept.
     */
    private static List<ConfigProblem> onePerLine(List<ConfigProblem> problems) {
        Set<String> seen = new HashSet<>();
        List<ConfigProblem> out = new ArrayList<>();
        for (ConfigProblem p : problems) {
            String key = p.path().startsWith("model.") ? p.path().substring("model.".length()) : p.path();
            if (seen.add(p.source() + "|" + p.line() + "|" + key)) {
                out.add(p);
            }
        }
        return out;
    }
}
