package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netnslab.design.Design;
import org.netnslab.metrics.MinScale;
import org.netnslab.metrics.RatioDefinition;
import org.netnslab.run.Execution;
import org.netnslab.settings.ConfigProblem;
import org.netnslab.settings.HoconChecker;
import org.netnslab.settings.HoconSyntax;
import org.netnslab.settings.SavedFile;
import org.netnslab.settings.TextFiles;
import org.netnslab.workload.Workload;

/**
 * Reads a scenario file, applies {@code --set} overrides and validates everything before anything
 * runs: unknown keys, wrong types, values out of range, unknown designs or strategy values, missing
 * required keys. All problems are reported at once, each with file, line and key path. The workload
 * block is read by its type's {@link WorkloadParser}, the designs by {@link DesignReader}, the seed's
 * figures by {@link SeedFiguresReader}.
 */
public final class ScenarioLoader {
    /** The largest scenario file read, bytes: 1 MiB, a hundred times load-tests' largest. */
    static final long MAX_FILE_BYTES = 1L << 20;

    /** Typesafe Config's words for a cycle of substitutions: the one it stopped at, then those it walked. */
    private static final Pattern CYCLE = Pattern.compile(
            "Could not resolve substitution to a value: (\\$\\{[^}]*\\}) was part of a cycle of substitutions"
                    + " involving (.*)");

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
            "sensitivity",
            "min-scale");
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

    /**
     * @param file the scenario file
     * @param sets {@code path=value} overrides, applied over the file in order
     * @param scale {@code --scale}, must be finite and &gt; 0
     * @return the validated scenario
     * @throws ScenarioException listing every problem found
     */
    public Scenario load(Path file, List<String> sets, double scale) throws ScenarioException {
        List<ConfigProblem> problems = new ArrayList<>();
        Path named = HoconSyntax.withFolder(file);
        SetOverrides overrides = new SetOverrides();
        Parsed parsed = parse(named, sets, overrides, scale, problems);
        try {
            return read(parsed.conf(), named.toString(), named, sets, scale, problems, parsed.own());
        } catch (ScenarioException e) {
            throw new ScenarioException(overrides.attributed(e.problems));
        }
    }

    /**
     * Validates a scenario a program built as a {@link Config} (calibrate's model runs) as {@link #load(Path, List,
     * double)} validates a file: at scale 1, without overrides.
     *
     * @param scenario the scenario's keys
     * @param source what names it in a problem, e.g. the file it is also written to
     * @return the validated scenario
     * @throws ScenarioException listing every problem found
     */
    public Scenario load(Config scenario, String source) throws ScenarioException {
        List<ConfigProblem> problems = new ArrayList<>();
        Config conf;
        try {
            conf = scenario.resolve();
        } catch (ConfigException e) {
            problems.add(ConfigProblem.at(e.origin(), "-", HoconChecker.bare(e)));
            throw new ScenarioException(problems);
        }
        return read(conf, source, null, List.of(), 1.0, problems, FileOwnKeys.of(conf));
    }

    /**
     * Reads the file and applies the {@code --set} overrides over it.
     *
     * @param problems receives the problems found so far (the caller goes on reading with them)
     * @return the scenario's keys, resolved, and what the file itself sets before the overrides
     * @throws ScenarioException the file cannot be read or parsed, or does not resolve
     */
    private static Parsed parse(
            Path file, List<String> sets, SetOverrides overrides, double scale, List<ConfigProblem> problems)
            throws ScenarioException {
        String source = file.toString();
        if (!(scale > 0) || scale > 1000) {
            problems.add(
                    new ConfigProblem("--scale", -1, "-", "must be a number > 0 and <= 1000, got " + typed(scale)));
        }
        if (source.isEmpty() || Files.isDirectory(file)) { // an empty path names the current folder
            problems.add(new ConfigProblem(
                    source.isEmpty() ? "''" : source,
                    -1,
                    "-",
                    (source.isEmpty() ? "an empty path" : "is a directory")
                            + ", not a scenario file (e.g. load-tests/unshare-loop.conf)"));
            throw new ScenarioException(problems);
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            String why = !Files.exists(file)
                    ? "no such file" + ScenarioFileHints.meant(file)
                    : !Files.isRegularFile(file)
                            ? "not a regular file (a device, a pipe or a socket)"
                            : "permission denied";
            problems.add(new ConfigProblem(source, -1, "-", "cannot read scenario file: " + why));
            throw new ScenarioException(problems);
        }
        Config conf;
        try {
            long bytes = Files.size(file);
            if (bytes > MAX_FILE_BYTES) { // before parsing: a huge file would fill the heap first
                problems.add(new ConfigProblem(
                        source,
                        -1,
                        "-",
                        String.format(
                                "is %,d bytes; a scenario file is at most %,d (load-tests' are under 10 KB)",
                                bytes, MAX_FILE_BYTES)));
                throw new ScenarioException(problems);
            }
            ConfigProblem notText = TextFiles.notText(file, "-");
            if (notText != null) {
                problems.add(notText);
                throw new ScenarioException(problems);
            }
        } catch (java.io.IOException e) {
            problems.add(new ConfigProblem(source, -1, "-", "cannot read scenario file (" + SavedFile.reason(e) + ")"));
            throw new ScenarioException(problems);
        }
        try {
            conf = ConfigFactory.parseFile(
                    file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
        } catch (ConfigException e) {
            problems.add(HoconSyntax.parseProblem(file, e, "-"));
            throw new ScenarioException(problems);
        } catch (StackOverflowError e) {
            problems.add(new ConfigProblem(source, -1, "-", ConfigProblem.TOO_DEEP));
            throw new ScenarioException(problems);
        }
        org.netnslab.settings.Includes.missing(file, source)
                .forEach(w -> System.err.println("netns-lab: warning: " + w));
        FileOwnKeys own = FileOwnKeys.of(conf);
        conf = overrides.apply(conf, sets, problems);
        try {
            conf = conf.resolve();
        } catch (ConfigException.UnresolvedSubstitution e) {
            problems.add(ConfigProblem.at(
                    e.origin(),
                    "-",
                    cycle(HoconChecker.bare(e))
                            .replaceFirst(
                                    "Could not resolve substitution to a value: (.*)",
                                    "$1 is neither a key of the scenario nor an environment variable")));
            throw new ScenarioException(problems);
        } catch (ConfigException e) {
            problems.add(ConfigProblem.at(e.origin(), "-", HoconChecker.bare(e)));
            throw new ScenarioException(problems);
        } catch (StackOverflowError e) {
            problems.add(new ConfigProblem(source, -1, "-", ConfigProblem.TOO_DEEP));
            throw new ScenarioException(problems);
        }
        return new Parsed(conf, own);
    }

    /** A scenario file's keys after the overrides, resolved, and what the file itself sets. */
    private record Parsed(Config conf, FileOwnKeys own) {}

    /**
     * @param message Typesafe Config's unresolved-substitution text
     * @return a cycle's in the scenario's words ("substitutions that refer to each other in a cycle: ..."), else
     *     {@code message}
     */
    static String cycle(String message) {
        Matcher m = CYCLE.matcher(message);
        if (!m.matches()) {
            return message;
        }
        // Typesafe Config lists the substitutions it walked, round the cycle as often as it went: once round is enough
        List<String> walked = List.of(m.group(2).split(", "));
        int again = walked.subList(1, walked.size()).indexOf(walked.get(0)) + 1;
        return "substitutions that refer to each other in a cycle: "
                + String.join(" -> ", again > 0 ? walked.subList(0, again + 1) : walked);
    }

    /**
     * Validates a scenario's keys.
     *
     * @param file the file they came from, or null (a built scenario: no calibrated.conf beside it to hint at)
     * @return the scenario
     * @throws ScenarioException listing every problem found, those in {@code problems} first
     */
    private Scenario read(
            Config conf,
            String source,
            Path file,
            List<String> sets,
            double scale,
            List<ConfigProblem> problems,
            FileOwnKeys own)
            throws ScenarioException {
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
        Execution execution = ExecutionReader.read(c, conf, reference, own.cpus());
        // a part already found wrong is not checked again against the parts that refer to it: the one
        // problem is reported, not its echoes (a listener left out, then a ratio naming its measure)
        int before = problems.size();
        Workload workload = WorkloadParsers.parse(c, scale);
        boolean workloadOk = problems.size() == before;
        before = problems.size();
        DesignReader designReader = new DesignReader(reference, c);
        Map<String, Design> designs = designReader.read();
        boolean designsOk = problems.size() == before;
        if (workload != null && workloadOk && !designs.isEmpty()) { // every design takes the scenario's switches
            FaultChecks.check(
                    c,
                    conf,
                    workload,
                    designs.values().iterator().next().model().faults());
        }
        ScenarioFileHints.calibratedDesigns(problems, before, file);
        String baseline = designs.isEmpty() ? null : designs.keySet().iterator().next();
        if (conf.hasPath("baseline")) {
            baseline = c.string("baseline", null);
            if (baseline != null && designsOk && !designs.isEmpty() && !designs.containsKey(baseline)) {
                c.problem(
                        "baseline",
                        "'" + baseline + "' is not one of the scenario's designs " + designs.keySet()
                                + (bySet(conf, "designs") && !bySet(conf, "baseline")
                                        ? " (--set designs changed them: give --set baseline="
                                                + designs.keySet().iterator().next() + " too)"
                                        : ""));
            }
        }
        boolean designsBySet = bySet(conf, "designs");
        SeedFiguresReader seedFigures = new SeedFiguresReader(
                c,
                designReader.known(),
                designs.keySet(),
                workload == null || !workloadOk ? null : Set.copyOf(workload.measures()),
                designsOk && designs.containsKey(baseline) ? baseline : null,
                designsBySet,
                conf.hasPath("baseline") ? bySet(conf, "baseline") : designsBySet);
        Map<String, Double> seedRatios = seedFigures.seedRatios();
        seedFigures.refuseUnrecorded(seedRatios, designs, workloadOk ? workload : null);
        seedFigures
                .baselineWithoutComparedMeasure(designs, workloadOk && seedRatios.isEmpty() ? workload : null)
                .ifPresent(w -> System.err.println("netns-lab: warning: " + w)); // a seed ratio is refused for it
        seedRatios = SeedFiguresReader.overFileBaseline(
                seedRatios,
                designs.containsKey(baseline) ? baseline : null,
                own.baseline()); // an unknown one is an error
        List<RatioDefinition> derivedRatios = seedFigures.derivedRatios(designs, workloadOk ? workload : null);
        Sensitivity sensitivity = Sensitivity.NONE;
        if (conf.hasPath("sensitivity")) {
            try {
                sensitivity = Sensitivity.read(source, conf.getConfig("sensitivity"), problems);
            } catch (ConfigException e) { // at the value's own origin: a line of the file, or the --set that gave it
                problems.add(ConfigProblem.at(
                        conf.getValue("sensitivity").origin(),
                        "sensitivity",
                        "expected a block { samples = N, spread = 0.5, keys = [...], seed-band = 0.1 }"));
            }
            if (workload != null && workloadOk) {
                Sensitivity.unusedKeys(sensitivity, workload.usedModelKeys(), conf, problems);
            }
            String refused = Sensitivity.refusal(sensitivity.samples(), execution, designsOk ? designs.size() : 2);
            if (refused != null) {
                problems.add(ConfigProblem.at(conf.getValue("sensitivity").origin(), "sensitivity", refused));
            }
        }
        MinScale minScale = MinScaleReader.read(c);
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
                SetOverrides.asRead(sets, conf, ConfigFactory.systemEnvironment()),
                repeat,
                execution,
                sensitivity,
                minScale);
    }

    /** @return whether the value at {@code path} came from a {@code --set} */
    static boolean bySet(Config conf, String path) {
        // a list a --set appended to (+=) is a merge of its parts' origins, one of them the --set
        return conf.hasPath(path) && conf.getValue(path).origin().description().contains("--set ");
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

    /** @return a --scale as a user would type it back: 0 for 0.0, 1000000000 for 1.0E9; NaN and Infinity as they are */
    static String typed(double scale) {
        return Double.isFinite(scale) && (scale == 0 || Math.abs(scale) >= 1e-6 && Math.abs(scale) < 1e15)
                ? MinScale.text(scale)
                : String.valueOf(scale);
    }
}
