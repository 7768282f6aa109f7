package org.netnslab.cli;

import com.typesafe.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.netnslab.calibrate.Beyond;
import org.netnslab.calibrate.CalibratedConf;
import org.netnslab.calibrate.CalibrationJson;
import org.netnslab.calibrate.CalibrationReport;
import org.netnslab.calibrate.CostFit;
import org.netnslab.calibrate.GraceFit;
import org.netnslab.calibrate.HostFacts;
import org.netnslab.calibrate.Predictions;
import org.netnslab.calibrate.ProbeBuilder;
import org.netnslab.calibrate.ProbeException;
import org.netnslab.calibrate.ProbeRunner;
import org.netnslab.calibrate.ProbeSet;
import org.netnslab.report.OutputFolderException;
import org.netnslab.report.StagedOutput;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.scenario.ScenarioException;
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
        mixinStandardHelpOptions = true,
        versionProvider = HelpText.Version.class,
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
                    "smaller probes and loads, each run once (about 8-20 s instead of 40-60 s on 2 vCPUs; for CI)")
    boolean quick;

    @Option(
            names = "--only",
            paramLabel = "PARTS",
            split = ",",
            description = "run only these parts: uevent, proc, lifecycle (default all)")
    List<String> only = new ArrayList<>();

    @Option(
            names = "--from",
            paramLabel = "FILE",
            description = "no probes: fit and predict from the measurements in a saved calibration.json")
    Path from;

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
        for (String raw : only) {
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
        if (from != null && (!only.isEmpty() || quick || timeoutSeconds != null)) {
            System.err.println("netns-lab: calibrate --from re-fits saved measurements: --only, --quick and --timeout"
                    + " apply to probe runs and cannot be given with it");
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
        CalibrationJson.Recorded recorded = null;
        if (from != null) {
            if (!Files.isRegularFile(from)) {
                System.err.println("netns-lab: calibrate --from " + from + ": "
                        + (Files.isDirectory(from) ? "is a folder; name its calibration.json" : "no such file"));
                return Main.EXIT_CONFIG;
            }
            try {
                recorded = CalibrationJson.readRecorded(from);
            } catch (IOException e) {
                System.err.println("netns-lab: calibrate --from " + e.getMessage());
                return Main.EXIT_CONFIG;
            }
        }
        Path dir = out != null
                ? out
                : Path.of(
                        "target",
                        "netns-lab",
                        "calibrate-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        StagedOutput staged; // checked before any probe runs; written aside, put in place at the end
        try {
            staged = StagedOutput.begin(dir, Main.VERSION, "calibrate");
        } catch (OutputFolderException e) {
            System.err.println("netns-lab: calibrate: output folder " + e.getMessage());
            return Main.EXIT_CONFIG;
        }
        NowRunning now = new NowRunning("calibrate", RunObserver.SILENT, false);
        Stops.running(now, staged);
        try {
            HostFacts host;
            ProbeSet set;
            if (recorded != null) {
                host = recorded.host();
                set = recorded.set();
                System.err.println(
                        "calibrate: fitting and predicting from " + from + " (measured on " + host.release() + ")");
                if (host.taskGroup() == null) {
                    System.err.println(
                            "calibrate: warning: " + from + " does not say which task group its probes ran in (a"
                                    + " recording from before 2026-12-02): the model takes machine.task-group = root; if its host ran"
                                    + " sched_autogroup, as most distributions do, the 40 loops' cleanup_net rows will be far off");
                }
            } else {
                host = HostFacts.read();
                if (host.busy()) {
                    System.err.printf(
                            "calibrate: warning: the machine is busy (load average %.2f over %d CPUs%s): figures will"
                                    + " be noisy%n",
                            host.loadAverage1(),
                            host.cpus(),
                            host.busyAtStart() == null
                                    ? ""
                                    : String.format(", %.0f%% busy now", 100 * host.busyAtStart()));
                }
                now.stage("building the probes");
                String home = System.getProperty("netns-lab.home", ".");
                Path bin = ProbeBuilder.build(Path.of(home, "target", "probes"), compilerEnvironment());
                ProbeRunner runner = new ProbeRunner(bin, timeout, probeEnvironment());
                Stops.onStop = runner::stopCurrent; // cleared in finally
                set = ProbeSet.measure(runner, quick, parts, System.err, now::stage);
                CalibrationJson.check(set); // a probe that printed a line the fit cannot use is a defect: say so now
            }
            now.stage("fitting the costs");
            CostFit fit = CostFit.fit(set.fit(), host.kernelAtLeast(6, 9));
            Written record = staged.write(tmp -> predictAndWrite(tmp, host, set, fit, now));
            now.stage("writing the results");
            staged.commit();
            System.out.print(CalibrationReport.console(host, record.fit(), record.rows(), record.beyond()));
            System.out.println("calibration: " + dir.resolve("calibration.json"));
            System.out.println("config:      " + dir.resolve("calibrated.conf") + "   (use with --config)");
            System.out.println("report:      " + dir.resolve("report.html"));
            return 0;
        } catch (ProbeException e) {
            System.err.println("netns-lab: calibrate: " + e.line());
            return Main.EXIT_CONFIG;
        } catch (java.io.InterruptedIOException e) {
            return Stops.EXIT_SIGINT; // a signal stopped the probe: its handler prints the line and ends the JVM
        } catch (IOException e) { // a probe that failed without its line, a model run, a write
            System.err.println("netns-lab: calibrate: " + e.getMessage());
            return Main.EXIT_FAILED;
        } finally {
            Stops.onStop = null;
            staged.discard(); // a no-op once committed
            Stops.running(null, null);
        }
    }

    /**
     * Writes calibrated.conf, runs the model on every prediction-set load (and beyond this kernel), and writes
     * calibration.json and report.html, all into the staged folder.
     */
    private Written predictAndWrite(Path tmp, HostFacts host, ProbeSet measured, CostFit fit, NowRunning now)
            throws IOException {
        Path conf = tmp.resolve("calibrated.conf");
        CalibratedConf.write(conf, host, fit, from);
        try {
            Config system = LoadedScenario.systemConfig(conf);
            if (fit.costs().containsKey("rcu.grace-period")) { // the model's serial loop decides it (GraceFit)
                now.stage("model: fitting rcu.grace-period on the serial loop");
                CostFit refined =
                        GraceFit.refine(fit, measured.fit(), system, host.eraName(), host.cpus(), tmp, System.err);
                if (refined != fit) {
                    fit = refined;
                    CalibratedConf.write(conf, host, fit, from);
                    system = LoadedScenario.systemConfig(conf);
                }
            }
            now.stage("predicting with the model");
            List<Predictions.Row> rows = new Predictions(
                            system, host.eraName(), host.cpus(), tmp, System.err, now::stage)
                    .predict(measured.prediction());
            List<Beyond.Figure> beyond = List.of();
            var tc1 = measured.prediction().stream()
                    .filter(l -> "tc1".equals(l.path("load").asText()))
                    .toList();
            if (!tc1.isEmpty()) {
                int n = tc1.get(tc1.size() / 2).path("injectors").asInt();
                now.stage("model: beyond this kernel");
                beyond = Beyond.run(system, host.eraName(), host.cpus(), n, Math.max(10, 20_000 / n), tmp);
            }
            CalibrationJson.write(
                    tmp.resolve("calibration.json"), Main.VERSION, quick, host, measured, fit, rows, beyond);
            CalibrationReport.html(tmp.resolve("report.html"), host, fit, rows, beyond);
            return new Written(rows, beyond, fit);
        } catch (ScenarioException e) {
            throw new ModelFailure(
                    "the calibrated configuration or a generated scenario is invalid: " + e.getMessage(), e);
        } catch (RunFailure e) {
            throw new ModelFailure("a model run failed: " + e.getMessage(), e);
        }
    }

    /** What the staged write produced, for the console. */
    private record Written(List<Predictions.Row> rows, List<Beyond.Figure> beyond, CostFit fit) {}

    /** A model run or a generated scenario failed inside the staged write, which passes on IOException only. */
    private static final class ModelFailure extends IOException {
        private static final long serialVersionUID = 1L;

        ModelFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
