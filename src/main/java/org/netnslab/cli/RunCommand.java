package org.netnslab.cli;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netnslab.cluster.ClusterRuns;
import org.netnslab.report.OutputFolderException;
import org.netnslab.report.ResultsFolder;
import org.netnslab.report.RunRecord;
import org.netnslab.report.StagedOutput;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.scenario.LoadedRun;
import org.netnslab.scenario.ScenarioRun;
import org.netnslab.scenario.ScenarioRunner;
import org.netnslab.settings.SavedFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code run}: one scenario, every design ({@link LoadedRun}, {@link ScenarioRun}), its results written aside and
 * put in place at the end ({@link StagedRun}), its summary printed. Exit 2 for a bad option, scenario, configuration
 * or output folder; 1 when the run fails; 3 with {@code --check} when the verdict fails.
 */
@Command(
        name = "run",
        description = "Run a scenario: every design under the same load; writes report.html, result.json and .hgrm"
                + " files.")
final class RunCommand implements Callable<Integer> {
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
            description = "run every design N times (replicates, each on a fresh model, design order rotated) and"
                    + " compare designs over the replicates' means; overrides the scenario's repeat key (default 1)")
    Integer repeat;

    @Option(
            names = "--sweep",
            paramLabel = "KEY=A,B,...",
            description = "run every design at each value: only machine.cpus can be swept (execution = virtual), e.g."
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
            description = "design runs side by side, each in its own actor system and engine (virtual execution; same"
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

    /**
     * @param sets the {@code --set} overrides, in order
     * @param sweep {@code --sweep}, or null
     * @return the overrides with the one {@code --sweep} stands for last, or null once what is wrong has been printed
     */
    static List<String> withSweep(List<String> sets, String sweep) {
        List<String> all = new ArrayList<>(sets);
        if (sweep != null) {
            if (sets.stream().anyMatch(RunCommand::setsCpus)) {
                System.err.println("netns-lab: --sweep machine.cpus and --set of machine.cpus both given: use one");
                return null;
            }
            String set = sweepSet(sweep);
            if (set == null) {
                return null;
            }
            all.add(set);
        }
        return all;
    }

    /**
     * Loads a scenario with the options of a run's command line ({@code run}, and {@code validate}, which checks them).
     *
     * @param all the overrides, {@link #withSweep}'s
     * @param sweep {@code --sweep}, or null: a problem of the last override is then named as the user typed it
     * @param repeat {@code --repeat}, or null
     * @param sensitivity {@code --sensitivity}, or null
     * @return the loaded run, or null once what is wrong has been printed to stderr
     */
    static LoadedRun load(
            Path file, List<String> all, double scale, Path config, String sweep, Integer repeat, Integer sensitivity) {
        LoadedRun loaded = LoadedScenario.orReport(
                file,
                all,
                scale,
                config,
                sweep == null ? Map.of() : Map.of("--set " + all.get(all.size() - 1), "--sweep " + sweep));
        if (loaded == null) {
            return null;
        }
        try {
            return loaded.withOptions(repeat, sensitivity);
        } catch (IllegalArgumentException e) {
            System.err.println("netns-lab: " + e.getMessage());
            return null;
        }
    }

    @Override
    public Integer call() {
        List<String> all = withSweep(sets, sweep);
        LoadedRun loaded = all == null ? null : load(file, all, scale, config, sweep, repeat, sensitivity);
        if (loaded == null) {
            return Main.EXIT_CONFIG;
        }
        int lanes = Jobs.choose(
                jobs,
                loaded.scenario(),
                loaded.system().getBoolean("netns-lab.run.heap-check"),
                Runtime.getRuntime().maxMemory(),
                System.err);
        if (lanes < 1) {
            return Main.EXIT_CONFIG;
        }
        if (out != null && out.toString().isBlank()) {
            System.err.println("netns-lab: --out: empty folder name (it would mean the current folder); name a folder");
            return Main.EXIT_CONFIG;
        }
        String name = loaded.scenario().name();

        boolean bars = !noProgress && stderrIsTerminal();
        String lanesFrom = Jobs.from(jobs, lanes, Runtime.getRuntime().availableProcessors());
        NowRunning now = NowRunning.scenario(
                name, noProgress ? RunObserver.SILENT : new ProgressDisplay(bars, System.err, lanesFrom), bars);
        try (StagedRun staged = StagedRun.begin(out, Path.of(loaded.outDir()), name, name, now)) {
            ScenarioRun run = open(loaded, all, now);
            return run == null
                    ? Main.EXIT_CONFIG
                    : run(run, lanes, staged.output(), now, staged.output().dir());
        } catch (OutputFolderException e) {
            System.err.println("netns-lab: output folder " + e.getMessage()
                    + (out == null // the default folder's parent is a setting: name where it was set
                            ? " (its parent is netns-lab.run.out-dir = " + loaded.outDir() + ", from "
                                    + loaded.system()
                                            .getValue("netns-lab.run.out-dir")
                                            .origin()
                                            .description()
                                    + "; or give --out)"
                            : ""));
            return Main.EXIT_CONFIG;
        }
    }

    /**
     * Starts the cluster's coordinator when asked, and the run's actor system.
     *
     * @return the run, or null after saying what is wrong
     */
    private ScenarioRun open(LoadedRun loaded, List<String> all, NowRunning now) {
        ClusterRuns coordinator;
        try {
            coordinator = ClusterCommands.coordinator(
                    cluster,
                    loaded.system(),
                    loaded.scenario(),
                    ClusterCommands.inputs(file, all, scale, repeat, sensitivity, config));
        } catch (IllegalArgumentException e) {
            System.err.println("netns-lab: " + e.getMessage());
            return null;
        }
        if (coordinator != null) { // Ctrl-C: the workers see the coordinator leave, not vanish
            Stops.onStop = () -> coordinator.leave(ClusterCommands.LEAVE);
            now.stage("while the coordinator handed its design runs to the cluster's workers (the lines above say"
                    + " which joined and which runs were done)");
        }
        try {
            return ScenarioRun.open(loaded, "netns-lab", coordinator);
        } catch (IllegalArgumentException e) {
            System.err.println("netns-lab: " + e.getMessage());
            if (coordinator != null) {
                Stops.onStop = null;
                coordinator.close();
            }
            return null;
        }
    }

    /** Runs every design, writes the results, prints the summary; then ends the run's actor systems. */
    private int run(ScenarioRun run, int lanes, StagedOutput staged, NowRunning now, Path dir) {
        try {
            ScenarioRunner.Outcome outcome = run.run(now, lanes);
            now.stage("writing the results");
            RunRecord record;
            try {
                record = write(staged, outcome);
            } catch (java.io.InterruptedIOException e) {
                throw e;
            } catch (IOException e) { // the run is done: its figures still reach the console, only the files are lost
                ReportCommand.printSummary(
                        RunRecord.of(outcome.result(), outcome.sensitivity(), RunRecord.Machine.current()));
                System.err.println("netns-lab: cannot write results to " + dir + unwritten(e) + ": "
                        + SavedFile.reason(e) + ". The summary above holds the run's figures; no file was kept ("
                        + Main.NO_ROOM + ")");
                return Main.EXIT_FAILED;
            }
            Path kept = staged.commit();
            Main.savedIn = dir;
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
            if (!Stops.stopping()) { // a stop's own line says what was stopped, once
                System.err.println("netns-lab: run failed: " + e.getMessage());
            }
            return Main.EXIT_FAILED;
        } catch (java.io.InterruptedIOException e) { // a stop while writing: the stop's own line says so, once
            return Main.EXIT_FAILED;
        } catch (IOException e) {
            System.err.println("netns-lab: cannot write results to " + dir + ": " + SavedFile.reason(e));
            return Main.EXIT_FAILED;
        } catch (OutOfMemoryError e) {
            Stops.outOfMemory(e);
            Stops.releaseReserve(); // room to clean up and say so while the model still holds the heap
            staged.discard();
            Main.outOfMemory = true;
            // once: Akka's exit may have got there first, and Stops said it
            Stops.sayFatal(() -> "netns-lab: " + now.describe() + ": " + Main.outOfMemory(e) + "; no results written");
            return Main.EXIT_FAILED;
        } finally {
            Stops.onStop = null;
            try {
                if (Main.outOfMemory) {
                    run.abandon(); // an actor the error hit may never answer: waiting for the model helps no one
                } else {
                    run.close();
                }
            } catch (Exception e) {
                System.err.println("netns-lab: actor system did not terminate cleanly: " + e);
            }
        }
    }

    /** @return " (FILE)" naming the results file that could not be written, when the error says which */
    private static String unwritten(IOException e) {
        if (e instanceof java.nio.file.FileSystemException f && f.getFile() != null) {
            Path name = Path.of(f.getFile()).getFileName();
            return name == null ? "" : " (" + name + ")";
        }
        return "";
    }

    /** Writes the run's results into the staged folder: result.json, the .hgrm files, report.html. */
    private static RunRecord write(StagedOutput staged, ScenarioRunner.Outcome outcome) throws IOException {
        return staged.write(tmp -> ResultsFolder.write(outcome.result(), outcome.sensitivity(), tmp));
    }

    /** The launcher tells whether stderr is a terminal; run directly, the JVM's console is the best guess. */
    private static boolean stderrIsTerminal() {
        String tty = System.getProperty("netns-lab.stderr-tty");
        return tty != null ? Boolean.parseBoolean(tty) : System.console() != null;
    }

    /**
     * @param set one {@code --set} value
     * @return true when it sets {@code machine.cpus} in any HOCON spelling ({@code machine.cpus=2},
     *     {@code machine { cpus = 2 }}, ...); false also when it does not parse, which the loader then reports
     */
    static boolean setsCpus(String set) {
        try {
            return ConfigFactory.parseString(set).hasPathOrNull("machine.cpus");
        } catch (ConfigException e) {
            return false; // not HOCON: the loader names this --set and what is wrong with it
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
            System.err.println("netns-lab: --sweep " + arg + ": only machine.cpus can be swept, got key '" + key + "'");
            return null;
        }
        List<Integer> counts = new ArrayList<>();
        String values = eq < 0 ? "" : arg.substring(eq + 1).trim();
        if (values.startsWith("[") && values.endsWith("]")) { // the --set form of the list, as the help says
            values = values.substring(1, values.length() - 1);
        }
        for (String v : eq < 0 ? new String[0] : values.split(",", -1)) {
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
                System.err.println("netns-lab: --sweep machine.cpus: expected CPU counts 1..4096 separated by commas"
                        + " (e.g. machine.cpus=1,2,4,8), got '" + v.trim() + "'"
                        + (e.getMessage() != null && e.getMessage().equals("out of range")
                                        || v.trim().matches("[+-]?\\d+") // a whole number past an int's range
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
