package org.netnslab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.netnslab.calibrate.Calibration;
import org.netnslab.calibrate.CalibrationConsole;
import org.netnslab.calibrate.ProbeException;
import org.netnslab.calibrate.ProbeLock;
import org.netnslab.calibrate.ProbeSet;
import org.netnslab.report.OutputFolderException;
import org.netnslab.report.StagedOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code calibrate}: measure this host's kernel with the probe programs, fit the model's costs on the fit set,
 * predict the prediction set with them, and write calibration.json, calibrated.conf, report.html and the
 * model's scenarios into {@code --out}. Exit 0 done (misses are results), 2 something the probes need is
 * missing or refused (one line naming it and what to do) or a bad option, 1 a model run or a write failed.
 */
@Command(
        name = "calibrate",
        description = "Measure this host's kernel with probe programs, fit the model's costs on simple probes (fit set)"
                + " and compare its predictions with contended loads it was not fitted on (prediction set).")
final class CalibrateCommand implements Callable<Integer> {
    @Option(
            names = "--out",
            paramLabel = "DIR",
            description =
                    "output folder (default target/netns-lab/calibrate-<timestamp>): missing, empty, or an earlier"
                            + " run's; written aside and put in place at the end")
    Path out;

    @Option(
            names = "--quick",
            description =
                    "smaller probes and loads, each run once (about 20-40 s instead of 4-5 min on 2 vCPUs; for CI)")
    boolean quick;

    @Option(
            names = "--only",
            paramLabel = "PARTS",
            description = "run only these parts: uevent, proc, lifecycle (default all)")
    List<String> only = new ArrayList<>();

    @Option(
            names = "--from",
            paramLabel = "FILE",
            description = "no probes: fit and predict from the measurements in a saved calibration.json (or the"
                    + " calibrate output folder holding it)")
    Path from;

    @Option(
            names = "--compare",
            paramLabel = "FILE",
            arity = "1..*",
            description = "no probes: over two or more saved calibration.json of one host (or calibrate output"
                    + " folders), each prediction row's stored verdicts beside how often the host's figure from another"
                    + " recording is within band")
    List<Path> compare;

    @Option(names = "--csv", paramLabel = "FILE", description = "with --compare: also write its rows to FILE as CSV")
    Path csv;

    @Option(
            names = "--seed",
            paramLabel = "N",
            description = "the seed the unseen shapes are drawn with (a whole number; default one from the clock,"
                    + " printed and recorded in calibration.json as unseen.seed)")
    Long seed;

    @Option(
            names = "--timeout",
            paramLabel = "S",
            description = "the longest one probe run may take, 1..3600 s (default 300)")
    Long timeoutSeconds;

    /**
     * The environment that finds the C compiler: the process's, with {@code CC} from the system property
     * {@code netns-lab.cc} when set (how a test stands in a missing compiler without changing PATH).
     */
    static Map<String, String> compilerEnvironment() {
        Map<String, String> env = new HashMap<>(System.getenv());
        String cc = System.getProperty("netns-lab.cc");
        if (cc != null) {
            env.put("CC", cc);
        }
        return env;
    }

    /**
     * @return the file whose lock keeps a second calibrate from probing at once: {@code netns-lab.calibrate-lock} when
     *     set (tests), else {@link ProbeLock#defaultFile}
     */
    static Path lockFile() {
        String file = System.getProperty("netns-lab.calibrate-lock");
        return file != null ? Path.of(file) : ProbeLock.defaultFile(home());
    }

    private static Path home() {
        return Path.of(System.getProperty("netns-lab.home", "."));
    }

    /** Variables added to the probes' environment: NETNS_LAB_PROBE_FAIL from {@code netns-lab.probe-fail} (tests). */
    static Map<String, String> probeEnvironment() {
        String fail = System.getProperty("netns-lab.probe-fail");
        return fail == null ? Map.of() : Map.of("NETNS_LAB_PROBE_FAIL", fail);
    }

    /** @return the parts --only names, or null after printing what is wrong */
    private Set<String> parts() {
        if (only.isEmpty()) {
            return new LinkedHashSet<>(ProbeSet.PARTS);
        }
        Set<String> parts = new LinkedHashSet<>();
        // split here, not by picocli, which drops empty parts: ',,' would read as no --only at all
        for (String raw : only.stream()
                .flatMap(o -> java.util.Arrays.stream(o.split(",", -1)))
                .toList()) {
            String p = raw.trim();
            if (p.isEmpty() || !ProbeSet.PARTS.contains(p)) {
                System.err.println(
                        "netns-lab: calibrate --only: " + (p.isEmpty() ? "an empty part" : "unknown part '" + p + "'")
                                + " in '" + String.join(",", only) + "'; parts: " + String.join(", ", ProbeSet.PARTS));
                return null;
            }
            parts.add(p);
        }
        return parts;
    }

    @Override
    public Integer call() {
        Set<String> parts = parts();
        if (parts == null) {
            return Main.EXIT_CONFIG;
        }
        if (compare != null) {
            return compare();
        }
        if (csv != null) {
            System.err.println("netns-lab: calibrate --csv: only with --compare, which it writes the rows of");
            return Main.EXIT_CONFIG;
        }
        if (from != null && (!only.isEmpty() || quick || timeoutSeconds != null || seed != null)) {
            System.err.println("netns-lab: calibrate --from re-fits saved measurements: --only, --quick, --timeout and"
                    + " --seed apply to probe runs and cannot be given with it (a recording replays its own unseen"
                    + " shapes)");
            return Main.EXIT_CONFIG;
        }
        long timeout = timeoutSeconds == null ? 300 : timeoutSeconds;
        if (timeout < 1 || timeout > 3600) {
            System.err.println("netns-lab: calibrate --timeout: must be 1..3600 s, got " + timeout);
            return Main.EXIT_CONFIG;
        }
        if (out != null && out.toString().isBlank()) {
            System.err.println("netns-lab: calibrate --out: empty folder name; name a folder");
            return Main.EXIT_CONFIG;
        }
        Calibration.Source source;
        if (from != null) {
            if (from.toString().isBlank()) {
                System.err.println("netns-lab: calibrate --from: empty file name; name a calibration.json");
                return Main.EXIT_CONFIG;
            }
            if (Files.isDirectory(from)) { // a calibrate output folder, as --compare takes it
                if (!Files.isRegularFile(from.resolve("calibration.json"))) {
                    System.err.println("netns-lab: calibrate --from " + from
                            + ": is a folder without a calibration.json; name a calibrate output folder or the file");
                    return Main.EXIT_CONFIG;
                }
                from = from.resolve("calibration.json");
            }
            try {
                source = Calibration.Recording.read(from);
            } catch (IOException e) {
                System.err.println("netns-lab: calibrate --from " + e.getMessage());
                return Main.EXIT_CONFIG;
            }
        } else {
            source = new Calibration.Probes(
                    quick,
                    parts,
                    seed,
                    timeout,
                    home().resolve("target").resolve("probes"),
                    compilerEnvironment(),
                    probeEnvironment());
        }

        NowRunning now = NowRunning.calibrate();
        // one probing calibrate at a time, checked before anything is written; a --from run probes nothing
        try (ProbeLock lock = source instanceof Calibration.Probes ? ProbeLock.acquire(lockFile()) : null;
                StagedRun staged = StagedRun.begin(
                        out, Path.of("target", "netns-lab"), "calibrate", StagedOutput.CALIBRATE, now)) {
            return calibrate(
                    source, staged.output(), now, staged.output().dir()); // written aside, put in place at the end
        } catch (ProbeLock.Held e) {
            System.err.println("netns-lab: calibrate: " + e.getMessage());
            return Main.EXIT_CONFIG;
        } catch (OutputFolderException e) {
            System.err.println("netns-lab: calibrate: output folder " + e.getMessage());
            return Main.EXIT_CONFIG;
        } catch (IOException e) { // the lock file cannot be made or opened
            System.err.println("netns-lab: calibrate: the lock that keeps two calibrate runs apart: " + e.getMessage()
                    + "; set -Dnetns-lab.calibrate-lock=FILE through NETNS_LAB_JAVA_OPTS to use another file");
            return Main.EXIT_CONFIG;
        }
    }

    /** {@code --compare}: refuses the options that shape probe runs, then {@link CalibrateCompare#run}. */
    private Integer compare() {
        List<String> given = new ArrayList<>();
        if (from != null) {
            given.add("--from");
        }
        if (out != null) {
            given.add("--out");
        }
        if (quick) {
            given.add("--quick");
        }
        if (!only.isEmpty()) {
            given.add("--only");
        }
        if (seed != null) {
            given.add("--seed");
        }
        if (timeoutSeconds != null) {
            given.add("--timeout");
        }
        if (!given.isEmpty()) {
            System.err.println("netns-lab: calibrate --compare reads saved calibrations and runs no probe: "
                    + String.join(" and ", given) + " cannot be given with it (--csv FILE writes its rows)");
            return Main.EXIT_CONFIG;
        }
        for (Path p : compare) { // --compare takes every word after it: a mistyped option would read as a file
            if (p.toString().startsWith("-") && !Files.exists(p)) {
                System.err.println(
                        "netns-lab: unknown option '" + p + "' (netns-lab calibrate --help lists the options)");
                return Main.EXIT_CONFIG;
            }
        }
        return CalibrateCompare.run(compare, csv);
    }

    /** How long a probe ended by a signal waits for calibrate's own handler (a Ctrl-C reaches both at once), s. */
    private static final long SIGNAL_WAIT_S = 3;

    /** How long calibrate waits for its signal handler to end the JVM, s: it prints the line a signal gets. */
    private static final long HALT_WAIT_S = 30;

    /** Runs the calibration into the staged folder, commits it and prints the table. */
    private static int calibrate(Calibration.Source source, StagedOutput staged, NowRunning now, Path dir) {
        Calibration calibration = new Calibration(Main.VERSION, System.err, now::stage);
        java.util.concurrent.CountDownLatch signalled = new java.util.concurrent.CountDownLatch(1);
        Stops.onStop = () -> { // cleared in finally
            signalled.countDown();
            calibration.stopProbe();
        };
        try {
            Calibration.Result result = calibration.run(source, staged.temp());
            now.stage("writing the results");
            staged.commit();
            Main.savedIn = dir;
            System.out.print(CalibrationConsole.text(result));
            System.out.println("calibration: " + dir.resolve("calibration.json"));
            System.out.println("config:      " + dir.resolve("calibrated.conf") + "   (use with --config)");
            System.out.println("report:      " + dir.resolve("report.html"));
            return 0;
        } catch (ProbeException e) {
            System.err.println("netns-lab: calibrate: " + e.line());
            return Main.EXIT_CONFIG;
        } catch (java.io.InterruptedIOException e) {
            // a signal stopped or ended the probe: when it reached calibrate too (a Ctrl-C reaches both), its handler
            // prints the one line a signal gets and ends the JVM; nothing is printed before it
            if (awaitQuietly(signalled, SIGNAL_WAIT_S)) {
                awaitQuietly(new java.util.concurrent.CountDownLatch(1), HALT_WAIT_S);
                return Stops.EXIT_SIGINT;
            }
            System.err.println("netns-lab: calibrate: " + e.getMessage() + ", a signal calibrate did not get; nothing"
                    + " written: run calibrate again");
            return Main.EXIT_FAILED;
        } catch (IOException e) { // a probe that failed without its line, a model run, a write
            System.err.println("netns-lab: calibrate: " + e.getMessage() + unwritten(e, dir));
            return Main.EXIT_FAILED;
        } finally {
            Stops.onStop = null;
        }
    }

    /**
     * @return for a write that failed (a file system error, a full disk), where and what to do; else ""
     */
    static String unwritten(IOException e, Path dir) {
        boolean write = e instanceof java.nio.file.FileSystemException
                || String.valueOf(e.getMessage()).contains("No space left on device");
        return write ? " (writing the results for " + dir + "; nothing was kept: " + Main.NO_ROOM + ")" : "";
    }

    /** @return whether the latch opened within {@code seconds} (false also when this thread is interrupted) */
    private static boolean awaitQuietly(java.util.concurrent.CountDownLatch latch, long seconds) {
        try {
            return latch.await(seconds, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
