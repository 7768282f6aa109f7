package org.netnslab.calibrate;

import com.typesafe.config.Config;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.SystemConfig;

/**
 * One calibration: measure the host with the probes (or take a saved calibration.json's measurements), fit the
 * model's costs on the fit set ({@link CostFit}), refine the grace period through the model ({@link GraceFit}),
 * predict the prediction set ({@link Predictions}) and the designs this kernel lacks ({@link Beyond}), and write
 * calibrated.conf, calibration.json, report.html and the model's scenarios into the folder it is given. One run
 * per instance, on the caller's thread; {@link #stopProbe} may come from another.
 */
public final class Calibration {
    /**
     * What a calibration found.
     *
     * @param host the host measured
     * @param fit the fitted costs, the grace period refined
     * @param rows the predictions against the host's figures
     * @param beyond the designs this kernel lacks on the calibrated machine (empty without a TC1 load)
     */
    public record Result(HostFacts host, CostFit fit, List<Predictions.Row> rows, List<Beyond.Figure> beyond) {}

    /** Where the measurements come from. */
    public sealed interface Source permits Probes, Recording {}

    /**
     * The probes, run on this host.
     *
     * @param quick smaller probes and loads, each run once
     * @param parts the parts to run, of {@link ProbeSet#PARTS}
     * @param timeoutSeconds the longest one probe run may take, s
     * @param buildDir where the probe programs are built
     * @param compilerEnvironment the environment that finds the C compiler
     * @param probeEnvironment variables added to the probes' environment
     */
    public record Probes(
            boolean quick,
            Set<String> parts,
            long timeoutSeconds,
            Path buildDir,
            Map<String, String> compilerEnvironment,
            Map<String, String> probeEnvironment)
            implements Source {}

    /**
     * The measurements of a saved calibration.json: no probes run.
     *
     * @param file the calibration.json
     * @param recorded what it holds
     */
    public record Recording(Path file, CalibrationJson.Recorded recorded) implements Source {
        /**
         * @param file a calibration.json
         * @return its measurements
         * @throws IOException unreadable, not JSON, or not a calibration.json (the message names the file and what is
         *     wrong)
         */
        public static Recording read(Path file) throws IOException {
            return new Recording(file, CalibrationJson.readRecorded(file));
        }
    }

    private final String tool;
    private final PrintStream progress;
    private final Consumer<String> stage;
    private volatile ProbeRunner runner;

    /**
     * @param tool the tool's version line, for calibration.json
     * @param progress where the lines on probes and model runs go
     * @param stage told what runs now (for the line a Ctrl-C prints)
     */
    public Calibration(String tool, PrintStream progress, Consumer<String> stage) {
        this.tool = tool;
        this.progress = progress;
        this.stage = stage;
    }

    /** Stops the probe running now, if any, so it removes what it holds (a signal's handler calls it). */
    public void stopProbe() {
        ProbeRunner r = runner;
        if (r != null) {
            r.stopCurrent();
        }
    }

    /**
     * @param source the probes, or a recording
     * @param folder where the results go
     * @return what it found
     * @throws ProbeException a probe could not run: what this host lacks
     * @throws java.io.InterruptedIOException {@link #stopProbe} stopped a probe
     * @throws IOException a probe failed without saying what is missing, a model run failed ({@link ModelFailure}),
     *     or a file cannot be written
     */
    public Result run(Source source, Path folder) throws ProbeException, IOException {
        HostFacts host;
        ProbeSet set;
        Path recording = null;
        if (source instanceof Recording r) {
            host = r.recorded().host();
            set = r.recorded().set();
            recording = r.file();
            sayRecording(r.file(), host);
        } else {
            Probes probes = (Probes) source;
            host = HostFacts.read();
            sayIfBusy(host);
            stage.accept("building the probes");
            Path bin = ProbeBuilder.build(probes.buildDir(), probes.compilerEnvironment());
            runner = new ProbeRunner(bin, probes.timeoutSeconds(), probes.probeEnvironment());
            BusyMeter busy = new BusyMeter();
            try {
                set = ProbeSet.measure(runner, probes.quick(), probes.parts(), progress, stage, busy);
            } finally {
                runner = null;
            }
            CalibrationJson.check(set); // a probe that printed a line the fit cannot use is a defect: say so now
            host = host.withBusyDuringProbes(busy.result());
            if (host.busyDuring()) {
                progress.println("calibrate: warning: the machine was busy during the probes ("
                        + host.busyDuringProbes().text() + "): figures will be noisy");
            }
        }
        stage.accept("fitting the costs");
        CostFit fit = CostFit.fit(set.fit(), host.kernelAtLeast(6, 9));
        try {
            return predictAndWrite(folder, host, set, fit, recording, source instanceof Probes p && p.quick());
        } catch (ScenarioException e) {
            throw new ModelFailure(
                    "the calibrated configuration or a generated scenario is invalid: " + e.getMessage(), e);
        } catch (RunFailure e) {
            throw new ModelFailure("a model run failed: " + e.getMessage(), e);
        }
    }

    /** Says which recording is fitted, and warns when it does not say which task group its probes ran in. */
    private void sayRecording(Path file, HostFacts host) {
        progress.println("calibrate: fitting and predicting from " + file + " (measured on " + host.release() + ")");
        if (host.busyDuring()) {
            progress.println("calibrate: warning: " + file + " was measured on a busy machine ("
                    + host.busyDuringProbes().text() + "): its figures are noisy");
        }
        if (host.taskGroup() == null) {
            progress.println("calibrate: warning: " + file + " does not say which task group its probes ran in (a"
                    + " recording older than the task-group field): the model takes machine.task-group = root; if its host ran"
                    + " sched_autogroup, as most distributions do, the 40 loops' cleanup_net rows will be far off");
        }
    }

    /** Warns when the machine is busy before the probes: their figures will be noisy. */
    private void sayIfBusy(HostFacts host) {
        if (host.busy()) {
            progress.printf(
                    "calibrate: warning: the machine is busy (load average %.2f over %d CPUs%s): figures will"
                            + " be noisy%n",
                    host.loadAverage1(),
                    host.cpus(),
                    host.busyAtStart() == null ? "" : String.format(", %.0f%% busy now", 100 * host.busyAtStart()));
        }
    }

    /**
     * Writes calibrated.conf, refines the grace period through the model, runs the model on every prediction-set load
     * (and beyond this kernel), and writes calibration.json and report.html.
     */
    private Result predictAndWrite(
            Path folder, HostFacts host, ProbeSet measured, CostFit fit, Path recording, boolean quick)
            throws IOException, ScenarioException, RunFailure {
        Path conf = folder.resolve("calibrated.conf");
        CalibratedConf.write(conf, host, fit, recording);
        Config system = SystemConfig.load(conf);
        if (fit.costs().containsKey("rcu.grace-period")) { // the model's serial loop decides it (GraceFit)
            stage.accept("model: fitting rcu.grace-period on the serial loop");
            CostFit refined =
                    GraceFit.refine(fit, measured.fit(), system, host.eraName(), host.cpus(), folder, progress);
            if (refined != fit) {
                fit = refined;
                CalibratedConf.write(conf, host, fit, recording);
                system = SystemConfig.load(conf);
            }
        }
        stage.accept("predicting with the model");
        List<Predictions.Row> rows = new Predictions(system, host.eraName(), host.cpus(), folder, progress, stage)
                .predict(measured.prediction());
        List<Beyond.Figure> beyond = List.of();
        var tc1 = measured.prediction().stream()
                .filter(l -> "tc1".equals(l.path("load").asText()))
                .toList();
        if (!tc1.isEmpty()) {
            int n = tc1.get(tc1.size() / 2).path("injectors").asInt();
            stage.accept("model: beyond this kernel");
            beyond = Beyond.run(system, host.eraName(), host.cpus(), n, Math.max(10, 20_000 / n), folder);
        }
        CalibrationJson.write(folder.resolve("calibration.json"), tool, quick, host, measured, fit, rows, beyond);
        CalibrationReport.html(folder.resolve("report.html"), host, fit, rows, beyond);
        return new Result(host, fit, rows, beyond);
    }

    /** A model run failed, or a generated scenario or the calibrated configuration is invalid. */
    public static final class ModelFailure extends IOException {
        private static final long serialVersionUID = 1L;

        ModelFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
