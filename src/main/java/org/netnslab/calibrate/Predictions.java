package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.ScenarioException;

/**
 * The model's predictions of the prediction set: for every contended load the probes measured, the matching scenario
 * runs in virtual time on the calibrated costs and the host's CPU count ({@link PredictionRuns}), and each figure is
 * put beside the measured one with its ratio and a verdict against its band ({@link Bands}). A load the host ran
 * several times is compared by its median ({@link RunsFigure}). A miss is a result: {@link Row#whyMissed} says why
 * ({@link MissReasons}). Nothing here feeds back into the costs.
 */
public final class Predictions {
    /**
     * One measured-vs-predicted figure.
     *
     * @param load the load, e.g. "tc1 N=1000"
     * @param measure what is compared, with its unit
     * @param measured the host's figure: the median over the load's runs
     * @param predicted the model's figure: the median over its runs (random seeds 1 to {@link PredictionRuns#SEEDS})
     * @param band the band, e.g. "+-25%", "2x"
     * @param within whether predicted is inside the band around measured
     * @param reason for a miss, its reason's code (a few capitals, e.g. TAIL: {@link #legend}), else empty
     * @param whyMissed for a miss, why: the mechanism the model lacks, or what the measurement shows (else empty)
     * @param runs how many times the host ran the load (the median and range are over them)
     * @param low the host's lowest figure over its runs (the measured one when it ran once)
     * @param high the host's highest figure over its runs
     * @param predictedLow the model's lowest figure over its runs (random seeds; {@link PredictionRuns#SEEDS}), NaN
     *     where it ran once (a growth row) or a recording predates it
     * @param predictedHigh the model's highest, likewise
     */
    public record Row(
            String load,
            String measure,
            double measured,
            double predicted,
            String band,
            boolean within,
            String reason,
            String whyMissed,
            int runs,
            double low,
            double high,
            double predictedLow,
            double predictedHigh) {
        /**
         * @param otherBand what the band compares, when its width alone does not say it
         * @return this row with that band
         */
        Row withBand(String otherBand) {
            return new Row(
                    load,
                    measure,
                    measured,
                    predicted,
                    otherBand,
                    within,
                    reason,
                    whyMissed,
                    runs,
                    low,
                    high,
                    predictedLow,
                    predictedHigh);
        }

        /**
         * @param reason a row's {@link #reason}
         * @return what it means, in a line; "" for none
         */
        public static String legend(String reason) {
            return MissReasons.legend(reason);
        }

        /** @return predicted / measured */
        public double ratio() {
            return predicted / measured;
        }
    }

    private final PredictionRuns model;

    /**
     * @param system the configuration with the calibrated costs and the host's design era
     * @param design the era's design name
     * @param cpus the host's CPUs: the simulated machine's
     * @param folder where the generated scenarios go (scenario-<load>.conf)
     * @param progress where a line per model run goes
     * @param stage told which model run runs now (for the line a Ctrl-C prints)
     */
    public Predictions(
            Config system, String design, int cpus, Path folder, PrintStream progress, Consumer<String> stage) {
        this.model = new PredictionRuns(system, design, cpus, folder, progress, stage);
    }

    /**
     * @param predictionSet the prediction-set lines
     * @return a row per compared figure, in the lines' order, and the out-of-order share's growth from the smallest M
     *     to the largest
     * @throws ScenarioException a generated scenario is invalid (a defect here)
     * @throws RunFailure a model run failed
     * @throws IOException a scenario file cannot be written
     */
    public List<Row> predict(List<ObjectNode> predictionSet) throws ScenarioException, RunFailure, IOException {
        return rows(predictionSet, true);
    }

    /**
     * @param unseen the unseen shapes' lines
     * @return a row per compared figure, in the lines' order (no growth across shapes: each stands alone)
     * @throws ScenarioException a generated scenario is invalid (a defect here)
     * @throws RunFailure a model run failed
     * @throws IOException a scenario file cannot be written
     */
    public List<Row> predictShapes(List<ObjectNode> unseen) throws ScenarioException, RunFailure, IOException {
        return rows(unseen, false);
    }

    private List<Row> rows(List<ObjectNode> lines, boolean growth) throws ScenarioException, RunFailure, IOException {
        List<Row> rows = new ArrayList<>();
        List<double[]> reorder = new ArrayList<>(); // {M, measured share, predicted share}
        Set<String> done = new HashSet<>();
        Set<Long> listenerRuns = new java.util.LinkedHashSet<>(); // the listener runs' process counts
        for (ObjectNode l : lines) {
            String kind = l.path("probe").asText() + "/" + l.path("load").asText();
            switch (kind) {
                case "uevent/tc1", "uevent/reorder", "proc/proc-scan", "lifecycle/unshare-loops" -> {
                    String key = repeatKey(l); // run several times: compared by their median
                    if (done.add(key)) {
                        List<ObjectNode> runs = lines.stream()
                                .filter(r -> repeatKey(r).equals(key))
                                .toList();
                        switch (kind) {
                            case "uevent/tc1" -> UeventRows.tc1(model, runs, rows);
                            case "uevent/reorder" -> reorder.add(UeventRows.reorder(model, runs, rows));
                            case "proc/proc-scan" -> ProcRows.scan(model, runs, rows);
                            default -> LifecycleRows.loops(model, runs, rows);
                        }
                    }
                }
                case "proc/listener" -> listenerRuns.add(l.path("processes").asLong()); // compared below
                default ->
                    model.progress().println("calibrate: no model load for prediction line " + kind + "; skipped");
            }
        }
        for (long procs : listenerRuns) { // the three listeners of one run (one process count) are compared together
            ProcRows.listeners(
                    model,
                    CostFit.select(lines, "proc", "listener").stream()
                            .filter(r -> r.path("processes").asLong() == procs)
                            .toList(),
                    rows);
        }
        if (growth && reorder.size() >= 2) {
            rows.add(UeventRows.reorderGrowth(reorder.get(0), reorder.get(reorder.size() - 1)));
        }
        return rows;
    }

    /**
     * @return what makes two prediction lines runs of the same load: probe, load, and its size (injectors, sends each;
     *     a scan's processes; the loops and their iterations)
     */
    private static String repeatKey(ObjectNode l) {
        return l.path("probe").asText() + "/" + l.path("load").asText() + "/"
                + l.path("injectors").asLong()
                + "/" + l.path("injectors_into_one_netns").asLong() + "/"
                + l.path("sends_per_injector").asLong()
                + "/" + l.path("live_requested").asLong() + "/"
                + l.path("loops").asLong() + "/" + l.path("iterations").asLong();
    }
}
