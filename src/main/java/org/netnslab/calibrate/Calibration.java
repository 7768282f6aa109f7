package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
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
     * @param rows the ladder's predictions against the host's figures
     * @param beyond the designs this kernel lacks on the calibrated machine (empty without a TC1 load)
     * @param unseen the unseen shapes' predictions against the host's figures
     * @param lowered a line for each ladder step a host limit lowered or left out
     */
    public record Result(
            HostFacts host,
            CostFit fit,
            List<Predictions.Row> rows,
            List<Beyond.Figure> beyond,
            Unseen unseen,
            List<String> lowered) {}

    /**
     * The unseen shapes of a calibration.
     *
     * @param seed the seed they were drawn with; null for a recording made before them
     * @param shapes how many were run on the host (each once)
     * @param rows their predictions against the host's figures
     */
    public record Unseen(Long seed, int shapes, List<Predictions.Row> rows) {
        /** None: a recording made before the unseen shapes. */
        public static final Unseen NONE = new Unseen(null, 0, List.of());
    }

    /** Where the measurements come from. */
    public sealed interface Source permits Probes, Recording {}

    /**
     * The probes, run on this host.
     *
     * @param quick smaller probes and loads, each run once
     * @param parts the parts to run, of {@link ProbeSet#PARTS}
     * @param seed the unseen shapes' seed; null: one from the clock, printed
     * @param timeoutSeconds the longest one probe run may take, s
     * @param buildDir where the probe programs are built
     * @param compilerEnvironment the environment that finds the C compiler
     * @param probeEnvironment variables added to the probes' environment
     */
    public record Probes(
            boolean quick,
            Set<String> parts,
            Long seed,
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
        JsonNode ladderJson;
        Long seed;
        List<String> lowered = new ArrayList<>();
        if (source instanceof Recording r) {
            host = r.recorded().host();
            set = r.recorded().set();
            recording = r.file();
            ladderJson = r.recorded().ladder();
            seed = r.recorded().unseenSeed();
            if (ladderJson != null) {
                ladderJson
                        .path("lowered")
                        .forEach(x -> lowered.add(x.path("text").asText()));
            }
            sayRecording(r.file(), host);
        } else {
            Probes probes = (Probes) source;
            host = HostFacts.read();
            sayIfBusy(host);
            stage.accept("building the probes");
            Path bin = ProbeBuilder.build(probes.buildDir(), probes.compilerEnvironment());
            runner = new ProbeRunner(bin, probes.timeoutSeconds(), probes.probeEnvironment());
            Ladder.Plan ladder = Ladder.plan(probes.quick(), HostLimits.read());
            ladderJson = CalibrationJson.ladder(ladder);
            ladder.lowered().forEach(l -> lowered.add(l.text()));
            lowered.forEach(l -> progress.println("calibrate: " + l));
            seed = probes.seed() != null ? probes.seed() : UnseenShapes.clockSeed();
            List<UnseenShapes.Shape> shapes = UnseenShapes.draw(seed, ladder);
            String run = shapesRun(shapes, probes.parts());
            progress.println("calibrate: unseen shapes drawn with seed " + seed + " (--seed " + seed
                    + " draws them again): "
                    + (run.isEmpty() ? "none of the parts run (--only)" : run));
            BusyMeter busy = new BusyMeter();
            try {
                set = ProbeSet.measure(runner, ladder, shapes, probes.parts(), progress, stage, busy);
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
            return predictAndWrite(
                    folder,
                    host,
                    set,
                    fit,
                    recording,
                    // a replay keeps what it replays: a --quick recording stays one
                    source instanceof Probes p
                            ? p.quick()
                            : source instanceof Recording r && r.recorded().quick(),
                    ladderJson,
                    seed,
                    List.copyOf(lowered));
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

    /**
     * @param shapes the unseen shapes drawn
     * @param parts the parts run ({@code --only})
     * @return the shapes that run, as {@code load size}, comma separated: a shape of a part not run is not said
     */
    static String shapesRun(List<UnseenShapes.Shape> shapes, java.util.Set<String> parts) {
        return String.join(
                ", ",
                shapes.stream()
                        .filter(x -> parts.contains(ProbeSet.part(x.kind())))
                        .map(x -> x.kind().load + " " + x.size())
                        .toList());
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
            Path folder,
            HostFacts host,
            ProbeSet measured,
            CostFit fit,
            Path recording,
            boolean quick,
            JsonNode ladder,
            Long seed,
            List<String> lowered)
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
        Predictions model = new Predictions(system, host.eraName(), host.cpus(), folder, progress, stage);
        List<Predictions.Row> rows = model.predict(measured.prediction());
        Unseen unseen = measured.unseen().isEmpty() && seed == null
                ? Unseen.NONE
                : new Unseen(seed, UnseenShapes.count(measured.unseen()), model.predictShapes(measured.unseen()));
        List<Beyond.Figure> beyond = List.of();
        // the TC1 shape with 100 injectors where the ladder has it (the smallest N of at least 100, else the largest)
        var tc1 = measured.prediction().stream()
                .filter(l -> "tc1".equals(l.path("load").asText()))
                .mapToInt(l -> l.path("injectors").asInt())
                .sorted()
                .toArray();
        if (tc1.length > 0) {
            int n = java.util.Arrays.stream(tc1)
                    .filter(x -> x >= 100)
                    .findFirst()
                    .orElse(tc1[tc1.length - 1]);
            stage.accept("model: beyond this kernel");
            beyond = Beyond.run(system, host.eraName(), host.cpus(), n, Beyond.sendsPerInjector(n), folder);
        }
        CalibrationJson.write(
                folder.resolve("calibration.json"), tool, quick, host, measured, fit, rows, beyond, ladder, unseen);
        CalibrationReport.html(folder.resolve("report.html"), host, fit, rows, beyond, unseen, lowered);
        return new Result(host, fit, rows, beyond, unseen, lowered);
    }

    /** A model run failed, or a generated scenario or the calibrated configuration is invalid. */
    public static final class ModelFailure extends IOException {
        private static final long serialVersionUID = 1L;

        ModelFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
