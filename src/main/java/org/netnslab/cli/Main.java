package org.netnslab.cli;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.metrics.RunResult;
import org.netnslab.report.OutputFolderException;
import org.netnslab.report.ResultsFolder;
import org.netnslab.report.RunRecord;
import org.netnslab.report.StagedOutput;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.ScenarioRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The command line: {@code run}, {@code list}, {@code validate}, {@code report}. Exit status: 0 the
 * command completed (invariant violations are results), 2 bad command line or configuration (or, for
 * {@code report}, saved results missing or unreadable; for {@code run}, an output folder it may not
 * write to, or another run holds), 1 the run itself failed (an OutOfMemoryError included, or stdout could not be
 * written), 3 with {@code --check} when the verdict fails ({@link org.netnslab.report.Verdict#passes}), 130 / 143
 * interrupted by SIGINT / SIGTERM ({@link Stops}). A run writes its results aside and puts them in place at the end
 * ({@link StagedOutput}): whatever ends it early, the previous content of {@code --out} stays as it was.
 */
@Command(
        name = "netns-lab",
        mixinStandardHelpOptions = true,
        versionProvider = HelpText.Version.class,
        description = "Actor-based model of the Linux network-namespace lifecycle: run load-test scenarios that compare"
                + " kernel designs side by side.",
        subcommands = {
            Main.Run.class,
            Main.ListScenarios.class,
            Main.Validate.class,
            ReportCommand.class,
            CalibrateCommand.class,
            ClusterCommands.Worker.class
        })
public final class Main implements Callable<Integer> {
    /** The version {@code -V} prints: the Maven project's, e.g. {@code netns-lab 0.1.0-SNAPSHOT}. */
    static final String VERSION = HelpText.VERSION;
    /** Exit status of a bad command line or configuration. */
    public static final int EXIT_CONFIG = 2;
    /** Exit status of a run that failed. */
    public static final int EXIT_FAILED = 1;
    /** Exit status of {@code --check} when the verdict fails: a seed comparison disagrees or a must-hold invariant broke. */
    public static final int EXIT_CHECK = 3;

    /**
     * @param args the command line
     */
    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true"); // charts are drawn to SVG, never to a screen
        // Akka's fatal-error report (the stack trace of an OutOfMemoryError in an actor) is left out: Stops says it in
        // one line
        System.setErr(new java.io.PrintStream(
                new FatalTraceFilter(new java.io.FileOutputStream(java.io.FileDescriptor.err)),
                true,
                java.nio.charset.Charset.defaultCharset()));
        // Initialise logback before Akka's logger starts on another thread, so no log call is replayed.
        org.slf4j.LoggerFactory.getLogger(Main.class);
        Stops.install();
        int status;
        try {
            status = execute(args);
            status = stdoutIsPipe() ? status : checkStdout(status, System.out, System.err); // `| head` is no error
        } catch (OutOfMemoryError e) { // outside a run (a run catches its own and says where it was)
            outOfMemory = true;
            Stops.sayFatal(() -> "netns-lab: " + outOfMemory(e));
            status = EXIT_FAILED;
        }
        Stops.exiting(outOfMemory ? status : -1);
        if (outOfMemory) { // its one line is said; the model's threads may hold anything: no shutdown hooks to wait on
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(status);
        }
        System.exit(status);
    }

    /** Set when a run ended on an OutOfMemoryError: the JVM then halts after its one line, hooks not run. */
    private static volatile boolean outOfMemory;

    /**
     * A write error on stdout (a full disk, {@code > /dev/full}, a closed pipe) is lost by {@link PrintStream}:
     * say it, and end with status 1 when the command had otherwise completed.
     *
     * @param status the command's exit status
     * @param out standard output, after the command
     * @param err standard error
     * @return the status to exit with
     */
    static int checkStdout(int status, java.io.PrintStream out, java.io.PrintStream err) {
        if (!out.checkError()) {
            return status;
        }
        err.println("netns-lab: could not write to standard output (a full disk or a closed pipe?): what the command"
                + " printed there is lost" + (status == 0 ? "" : "; it had ended with status " + status));
        return status == 0 ? EXIT_FAILED : status;
    }

    /**
     * @return whether stdout is a pipe: the only write error there is its reader going away ({@code | head}),
     *     which is no error of the command's (Linux's /proc/self/fd/1 names a pipe {@code pipe:[inode]})
     */
    static boolean stdoutIsPipe() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString().startsWith("pipe:");
        } catch (IOException | UnsupportedOperationException e) {
            return false; // not Linux, or no /proc: a write error is reported as one
        }
    }

    /** @return what an OutOfMemoryError means and what to do about it, in one line */
    static String outOfMemory(OutOfMemoryError e) {
        return "out of memory (" + e.getMessage() + ", max heap "
                + Runtime.getRuntime().maxMemory() / (1 << 20)
                + " MiB): give the JVM more heap, e.g. NETNS_LAB_JAVA_OPTS='-Xmx8g' (the launcher's default is -Xmx4g),"
                + " or run a smaller population";
    }

    /**
     * Runs a command without exiting the JVM (for tests).
     *
     * @param args the command line
     * @return the exit status
     */
    public static int execute(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setUsageHelpWidth(HelpText.UNWRAPPED); // wrapped by HelpText, at spaces only
        cl.setExecutionStrategy(Main::helpOrRun);
        cl.setParameterExceptionHandler(Main::badArguments);
        return cl.execute(args);
    }

    /** --help and -V of any command, else the command. */
    private static int helpOrRun(CommandLine.ParseResult parsed) {
        // picocli leaves an unknown command unmatched when --help is given too: say so, as without --help
        if (!parsed.hasSubcommand()
                && !parsed.unmatched().isEmpty()
                && !parsed.unmatched().get(0).startsWith("-")) {
            System.err.println(HelpText.unknownCommand(
                    parsed.unmatched().get(0),
                    List.copyOf(
                            parsed.commandSpec().commandLine().getSubcommands().keySet())));
            return EXIT_CONFIG;
        }
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.isUsageHelpRequested()) {
                System.setProperty("netns-lab.help.out-dir", outDirDefault());
                System.out.println(HelpText.usage(p.commandSpec().commandLine()));
                return 0;
            }
            if (p.isVersionHelpRequested()) {
                System.out.println(VERSION);
                return 0;
            }
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    /** @return netns-lab.run.out-dir as conf/application.conf sets it, for run --help */
    private static String outDirDefault() {
        try {
            return com.typesafe.config.ConfigFactory.load().getString("netns-lab.run.out-dir");
        } catch (ConfigException e) {
            return "target/netns-lab"; // reference.conf's; the run itself reports the configuration's problem
        }
    }

    /** A command line picocli cannot parse: an unknown command gets the list of commands, the rest picocli's message. */
    private static int badArguments(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        if (e instanceof CommandLine.UnmatchedArgumentException u
                && cmd.getCommandSpec().parent() == null
                && !u.getUnmatched().isEmpty()
                && !u.getUnmatched().get(0).startsWith("-")) {
            System.err.println(HelpText.unknownCommand(
                    u.getUnmatched().get(0), List.copyOf(cmd.getSubcommands().keySet())));
            return EXIT_CONFIG;
        }
        System.err.println("netns-lab: " + e.getMessage());
        if (e instanceof CommandLine.UnmatchedArgumentException u) {
            CommandLine.UnmatchedArgumentException.printSuggestions(u, System.err);
        }
        System.err.println(HelpText.usage(cmd));
        return EXIT_CONFIG;
    }

    @Override
    public Integer call() {
        System.err.println(HelpText.usage(new CommandLine(this).setUsageHelpWidth(HelpText.UNWRAPPED)));
        return EXIT_CONFIG;
    }

    /** {@code run}: one scenario, every design. */
    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            versionProvider = HelpText.Version.class,
            description = "Run a scenario: every design under the same load; writes report.html, result.json and .hgrm"
                    + " files.")
    static final class Run implements Callable<Integer> {
        @Parameters(
                index = "0",
                paramLabel = "SCENARIO",
                description = "scenario file such as load-tests/uevent-tc1-userns.conf")
        Path file;

        @Option(
                names = "--scale",
                paramLabel = "F",
                defaultValue = "1.0",
                description = "multiply per-netns/per-worker iteration counts, the population unchanged (a proc-events"
                        + " scenario's processes are scaled too; a netns-scale scenario scales its population instead:"
                        + " docs/running-and-options.md); default ${DEFAULT-VALUE}")
        double scale;

        @Option(
                names = "--out",
                paramLabel = "DIR",
                description =
                        "output folder (default ${sys:netns-lab.help.out-dir:-target/netns-lab}/<scenario>-<timestamp>,"
                                + " the first part from netns-lab.run.out-dir)")
        Path out;

        @Option(
                names = "--set",
                paramLabel = "PATH=VALUE",
                description = "override a scenario key, e.g. workload.injectors=10")
        List<String> sets = new ArrayList<>();

        @Option(names = "--config", paramLabel = "FILE", description = "extra HOCON file over conf/application.conf")
        Path config;

        @Option(
                names = "--repeat",
                paramLabel = "N",
                description =
                        "run every design N times (replicates, each on a fresh model, design order rotated) and"
                                + " compare designs over the replicates' means; overrides the scenario's repeat key (default 1)")
        Integer repeat;

        @Option(
                names = "--sweep",
                paramLabel = "KEY=A,B,...",
                description =
                        "run every design at each value: only machine.cpus can be swept (execution = virtual), e.g."
                                + " --sweep machine.cpus=1,2,4,8; same as --set machine.cpus=[1,2,4,8]")
        String sweep;

        @Option(
                names = "--check",
                description = "exit 3 when a comparison with a seed figure DISAGREES or a design"
                        + " breaks an invariant it must keep (the verdict's first lines say which); for a CI gate")
        boolean check;

        @Option(
                names = "--jobs",
                paramLabel = "N",
                description =
                        "design runs side by side, each in its own actor system and engine (virtual execution; same"
                                + " figures as --jobs 1); default: the available processors, lowered to what the heap holds")
        Integer jobs;

        @Option(
                names = "--sensitivity",
                paramLabel = "N",
                description =
                        "a sensitivity study: N Latin-hypercube samples of the cost block (each cost within +-spread,"
                                + " scenario block sensitivity { spread, keys, seed-band }), every design run at each (virtual execution)")
        Integer sensitivity;

        @Option(
                names = "--cluster",
                paramLabel = "HOST:PORT",
                description =
                        "be a cluster's coordinator at HOST:PORT: design runs go to the workers that join (worker --join"
                                + " HOST:PORT), what none does runs here; loopback unless TLS is configured (docs/parallel-runs.md)")
        String cluster;

        @Option(
                names = "--no-progress",
                description = "no progress bar or phase lines on stderr (there is no bar"
                        + " when stderr is not a terminal anyway)")
        boolean noProgress;

        @Override
        public Integer call() {
            List<String> all = new ArrayList<>(sets);
            if (sweep != null) {
                if (sets.stream().anyMatch(Run::setsCpus)) {
                    System.err.println("netns-lab: --sweep machine.cpus and --set of machine.cpus both given: use one");
                    return EXIT_CONFIG;
                }
                String set = sweepSet(sweep);
                if (set == null) {
                    return EXIT_CONFIG;
                }
                all.add(set);
            }
            LoadedScenario loaded = LoadedScenario.orReport(
                    file,
                    all,
                    scale,
                    config,
                    sweep == null
                            ? java.util.Map.of()
                            : java.util.Map.of("--set " + all.get(all.size() - 1), "--sweep " + sweep));
            if (loaded == null) {
                return EXIT_CONFIG;
            }
            Config system = loaded.system();
            Scenario scenario = loaded.scenario();
            if (repeat != null) {
                if (repeat < 1 || repeat > ScenarioLoader.MAX_REPEAT) {
                    System.err.println(
                            "netns-lab: --repeat: must be in 1.." + ScenarioLoader.MAX_REPEAT + ", got " + repeat);
                    return EXIT_CONFIG;
                }
                scenario = scenario.withRepeat(repeat);
            }
            if (sensitivity != null) {
                if (sensitivity < 1
                        || sensitivity > org.netnslab.scenario.Sensitivity.MAX_SAMPLES
                        || !scenario.execution().isVirtual()) {
                    System.err.println(
                            "netns-lab: --sensitivity: "
                                    + (scenario.execution().isVirtual()
                                            ? "must be in 1.." + org.netnslab.scenario.Sensitivity.MAX_SAMPLES
                                                    + ", got " + sensitivity
                                            : "needs execution = virtual (the costs it varies are charged in virtual execution only)"));
                    return EXIT_CONFIG;
                }
                scenario = scenario.withSensitivity(scenario.sensitivity().withSamples(sensitivity));
            }
            RunSettings settings = loaded.settings();
            int lanes = Jobs.choose(
                    jobs,
                    scenario,
                    system.getBoolean("netns-lab.run.heap-check"),
                    Runtime.getRuntime().maxMemory(),
                    System.err);
            if (lanes < 1) {
                return EXIT_CONFIG;
            }
            if (out != null && out.toString().isBlank()) {
                System.err.println(
                        "netns-lab: --out: empty folder name (it would mean the current folder); name a folder");
                return EXIT_CONFIG;
            }
            Path dir = out != null
                    ? out
                    : Path.of(
                            loaded.outDir(),
                            scenario.name() + "-"
                                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            StagedOutput staged; // the results go to a temporary folder beside dir, swapped in at the end
            try {
                staged = StagedOutput.begin(dir, VERSION, scenario.name());
            } catch (OutputFolderException e) {
                System.err.println("netns-lab: output folder " + e.getMessage());
                return EXIT_CONFIG;
            }
            staged.notes().forEach(n -> System.err.println("netns-lab: " + n));
            boolean bars = !noProgress && stderrIsTerminal();
            NowRunning now = new NowRunning(
                    scenario.name(), noProgress ? RunObserver.SILENT : new ProgressDisplay(bars, System.err), bars);
            Stops.running(now, staged);
            org.netnslab.cluster.ClusterRuns coordinator;
            try {
                coordinator = ClusterCommands.coordinator(
                        cluster,
                        system,
                        scenario,
                        ClusterCommands.inputs(file, all, scale, repeat, sensitivity, config));
            } catch (IllegalArgumentException e) {
                staged.discard();
                Stops.running(null, null);
                System.err.println("netns-lab: " + e.getMessage());
                return EXIT_CONFIG;
            }
            ActorSystem<Void> actors;
            try {
                actors = scenario.execution().isVirtual()
                        ? VirtualSystem.create(Behaviors.empty(), "netns-lab", system)
                        : ActorSystem.create(Behaviors.empty(), "netns-lab", system);
            } catch (Throwable e) { // Akka may throw a checked exception (a class not found) unchecked
                if (coordinator != null) {
                    coordinator.close();
                }
                staged.discard();
                Stops.running(null, null);
                if (!(e instanceof ConfigException)) {
                    throw e;
                }
                System.err.println("netns-lab: Akka configuration: " + e.getMessage());
                return EXIT_CONFIG;
            }
            try {
                ScenarioRunner.Outcome outcome = new ScenarioRunner(
                                actors,
                                settings,
                                now,
                                lanes,
                                k -> VirtualSystem.create(Behaviors.empty(), "netns-lab-" + k, system),
                                coordinator)
                        .runWithStudy(scenario);
                RunResult result = outcome.result();
                now.stage("writing the results");
                RunRecord record = staged.write(tmp -> ResultsFolder.write(result, outcome.sensitivity(), tmp));
                Path kept = staged.commit();
                now.stage("after writing the results");
                if (kept != null) {
                    System.err.println(
                            "netns-lab: " + kept + ": the previous results' folder, left in place: it holds files"
                                    + " added during the run that no run wrote");
                }
                ReportCommand.printSummary(record);
                System.out.println("results: " + dir.resolve(ResultsFolder.RESULT_JSON));
                System.out.println("report:  " + dir.resolve(ResultsFolder.REPORT_HTML));
                return check ? ReportCommand.checked(record) : 0;
            } catch (RunFailure e) {
                System.err.println("netns-lab: run failed: " + e.getMessage());
                return EXIT_FAILED;
            } catch (IOException e) {
                System.err.println("netns-lab: cannot write results to " + dir + ": " + e);
                return EXIT_FAILED;
            } catch (OutOfMemoryError e) {
                Stops.releaseReserve(); // room to clean up and say so while the model still holds the heap
                staged.discard();
                outOfMemory = true;
                // once: Akka's exit may have got there first, and Stops said it
                Stops.sayFatal(() -> "netns-lab: " + now.describe() + ": " + outOfMemory(e) + "; no results written");
                return EXIT_FAILED;
            } finally {
                if (coordinator != null) {
                    coordinator.close();
                }
                staged.discard(); // a no-op once committed
                try {
                    if (outOfMemory) {
                        actors.terminate(); // an actor the error hit may never answer: waiting for the model helps no
                        // one
                    } else {
                        VirtualSystem.terminate(actors, Duration.ofSeconds(30));
                    }
                } catch (Exception e) {
                    System.err.println("netns-lab: actor system did not terminate cleanly: " + e);
                }
                Stops.running(null, null);
            }
        }

        /**
         * @param set one {@code --set} value
         * @return true when it sets {@code machine.cpus} in any HOCON spelling ({@code machine.cpus=2},
         *     {@code machine { cpus = 2 }}, ...); false also when it does not parse, which the loader then reports
         */
        static boolean setsCpus(String set) {
            try {
                return com.typesafe.config.ConfigFactory.parseString(set).hasPathOrNull("machine.cpus");
            } catch (com.typesafe.config.ConfigException e) {
                return false; // not HOCON: ScenarioLoader names this --set and what is wrong with it
            }
        }

        /**
         * @param arg {@code --sweep}'s value
         * @return the {@code --set} it stands for, or null after printing what is wrong with it
         */
        static String sweepSet(String arg) {
            int eq = arg.indexOf('=');
            String key = eq < 0 ? arg.trim() : arg.substring(0, eq).trim();
            if (!key.equals("machine.cpus")) {
                System.err.println(
                        "netns-lab: --sweep " + arg + ": only machine.cpus can be swept, got key '" + key + "'");
                return null;
            }
            List<Integer> counts = new ArrayList<>();
            for (String v : eq < 0 ? new String[0] : arg.substring(eq + 1).split(",", -1)) {
                try {
                    int n = Integer.parseInt(v.trim());
                    if (n < 1 || n > 4096) {
                        throw new NumberFormatException("out of range");
                    }
                    if (counts.contains(n)) {
                        System.err.println("netns-lab: --sweep machine.cpus: " + n + " is repeated");
                        return null;
                    }
                    counts.add(n);
                } catch (NumberFormatException e) {
                    System.err.println(
                            "netns-lab: --sweep machine.cpus: expected CPU counts 1..4096 separated by commas"
                                    + " (e.g. machine.cpus=1,2,4,8), got '" + v.trim() + "'"
                                    + (e.getMessage() != null && e.getMessage().equals("out of range")
                                            ? " (out of range)"
                                            : " (not an integer)"));
                    return null;
                }
            }
            if (counts.isEmpty()) {
                System.err.println("netns-lab: --sweep machine.cpus: expected machine.cpus=N,N,..., got '" + arg + "'");
                return null;
            }
            return "machine.cpus=" + counts;
        }
    }

    /** {@code list}: the scenarios in a folder with their seed and description. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            versionProvider = HelpText.Version.class,
            description = "List the scenarios in load-tests/.")
    static final class ListScenarios implements Callable<Integer> {
        @Option(
                names = "--dir",
                paramLabel = "DIR",
                description = "folder of scenario files (default: load-tests/ beside the launcher, else ./load-tests)")
        Path dir;

        @Override
        public Integer call() {
            if (dir == null) {
                String home = System.getProperty("netns-lab.home");
                dir = home != null ? Path.of(home, "load-tests") : Path.of("load-tests");
            }
            if (!Files.isDirectory(dir)) {
                System.err.println("netns-lab: --dir " + dir + ": not a folder");
                return EXIT_CONFIG;
            }
            List<Path> files = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.conf")) {
                ds.forEach(files::add);
            } catch (IOException e) {
                System.err.println("netns-lab: cannot read " + dir + ": " + e);
                return EXIT_CONFIG;
            }
            files.sort(null);
            if (files.isEmpty()) {
                System.err.println("netns-lab: no *.conf scenario in " + dir);
                return EXIT_CONFIG;
            }
            for (Path f : files) {
                try {
                    Scenario s = new ScenarioLoader().load(f, List.of(), 1.0);
                    System.out.printf(
                            "%s%n    name: %s%n    seed: %s%n    %s%n", f, s.name(), s.seed(), s.description());
                } catch (ScenarioException e) {
                    System.out.printf("%s%n    INVALID: %s%n", f, e.problems.get(0));
                }
            }
            return 0;
        }
    }

    /** {@code validate}: the configuration check only. */
    @Command(
            name = "validate",
            mixinStandardHelpOptions = true,
            versionProvider = HelpText.Version.class,
            description = "Check a scenario file (and --set overrides) without running it; exit 2 on any problem.")
    static final class Validate implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE", description = "scenario file")
        Path file;

        @Option(names = "--set", paramLabel = "PATH=VALUE", description = "override a scenario key")
        List<String> sets = new ArrayList<>();

        @Option(names = "--scale", paramLabel = "F", defaultValue = "1.0", description = "scale to check")
        double scale;

        @Option(names = "--config", paramLabel = "FILE", description = "extra HOCON file over conf/application.conf")
        Path config;

        @Override
        public Integer call() {
            LoadedScenario loaded = LoadedScenario.orReport(file, sets, scale, config);
            if (loaded == null) {
                return EXIT_CONFIG;
            }
            Scenario s = loaded.scenario();
            System.out.printf(
                    "%s: OK: scenario %s, %d design(s) %s, %s; heap estimate %d MiB of %d MiB usable%n",
                    file,
                    s.name(),
                    s.designs().size(),
                    s.designs().stream().map(d -> d.name()).toList(),
                    s.workload().shape(s.scale()),
                    org.netnslab.scenario.HeapEstimate.mib(org.netnslab.scenario.HeapEstimate.bytes(s)),
                    Runtime.getRuntime().maxMemory() >> 20);
            return 0;
        }
    }

    /** The launcher tells whether stderr is a terminal; run directly, the JVM's console is the best guess. */
    static boolean stderrIsTerminal() {
        String tty = System.getProperty("netns-lab.stderr-tty");
        return tty != null ? Boolean.parseBoolean(tty) : System.console() != null;
    }
}
