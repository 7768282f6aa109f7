package org.netnslab.calibrate;

import static org.netnslab.calibrate.Bands.factor;
import static org.netnslab.calibrate.Bands.within;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import org.netnslab.calibrate.Predictions.Row;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.SharingCounters;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.ScenarioException;

/**
 * The uevent loads of the prediction set against the model: TC1 (N injectors, each into its own netns with one
 * listener) and reordering (M injectors into one netns), each run on the model and compared figure by figure.
 */
final class UeventRows {
    private UeventRows() {}

    /**
     * TC1 at one N: throughput, the send's mean, p50 and p99, and where every run carries the CPU clocks, each side's
     * CPU per message.
     *
     * @param runs the host's runs of the load
     * @param rows receives the rows
     */
    static void tc1(PredictionRuns model, List<ObjectNode> runs, List<Row> rows)
            throws ScenarioException, RunFailure, IOException {
        ObjectNode l = runs.get(0);
        int n = l.path("injectors").asInt();
        long k = l.path("sends_per_injector").asLong();
        String load = "tc1 N=" + n;
        ModelRuns d = model.injection("tc1-n" + n, n, n, k);
        long sends = d.first().recorders().get("uevent.transaction").count();
        // every run must carry the CPU clocks (a recording without them: no CPU rows)
        boolean cpuKnown = runs.stream().allMatch(r -> r.has("injector_cpu_ns") && r.has("listener_cpu_ns"))
                && d.first().counters().containsKey("injector_cpu_us");
        if (!cpuKnown && runs.stream().anyMatch(r -> r.has("injector_cpu_ns"))) {
            model.progress()
                    .println("calibrate: " + load + ": not every run carries injector_cpu_ns and listener_cpu_ns;"
                            + " no CPU rows");
        }
        rows.add(within(
                load,
                "throughput, sends/s",
                RunsFigure.field(runs, "throughput_per_s"),
                d.figure(DesignResult::throughputPerSec),
                0.25,
                cpuKnown && runs.stream().allMatch(r -> r.has("machine_busy_ns"))
                        ? MissReasons.throughput(
                                runs,
                                d.figure(r -> perSend(r, "injector_cpu_us") + perSend(r, "listener_cpu_us"))
                                        .median())
                        : MissReasons.THROUGHPUT));
        RunsFigure mean = RunsFigure.of(runs, r -> r.path("send_mean_ns").asDouble() / 1e3);
        RunsFigure predictedMean = d.figure(r -> ModelRun.mean(r, "uevent.transaction"));
        // too low: it lacks the kernel's tail of preempted sends; too high: where the host's mean lies beyond its p99
        // (carried by that tail) it has more of that tail than this host run, else it counts more waiting for a CPU
        boolean tailCarried = mean.median()
                > RunsFigure.of(runs, r -> r.path("send_p99_ns").asDouble() / 1e3)
                        .median();
        rows.add(within(
                load,
                "send mean, us",
                mean,
                predictedMean,
                0.25,
                predictedMean.median() < mean.median()
                        ? MissReasons.TAIL_MEAN
                        : tailCarried ? MissReasons.TAIL_MEAN_HIGH : MissReasons.TIMING));
        for (String[] q : new String[][] {{"p50", "send_p50_ns"}, {"p99", "send_p99_ns"}}) {
            RunsFigure measured = RunsFigure.of(runs, r -> r.path(q[1]).asDouble() / 1e3);
            boolean p50 = q[0].equals("p50");
            RunsFigure predicted = d.figure(r -> {
                MeasureSummary s = r.recorders().get("uevent.transaction").summary();
                return ModelRun.micros(s, p50 ? s.p50() : s.p99());
            });
            rows.add(factor(
                    load,
                    "send " + q[0] + ", us",
                    measured,
                    predicted,
                    2,
                    predicted.median() < measured.median() ? MissReasons.SEND_SPREAD : MissReasons.SEND_HIGH));
        }
        if (cpuKnown && sends > 0) { // where the CPU goes: each side's own CPU clock, per message
            rows.add(within(
                    load,
                    "injector CPU per send, us",
                    RunsFigure.of(
                            runs,
                            r -> r.path("injector_cpu_ns").asDouble()
                                    / 1e3
                                    / r.path("sends").asDouble()),
                    d.figure(r -> perSend(r, "injector_cpu_us")),
                    0.25,
                    n >= 1000 ? MissReasons.INJECTOR_CPU_WALK : MissReasons.INJECTOR_CPU));
            rows.add(within(
                    load,
                    "listener CPU per message, us",
                    RunsFigure.of(
                            runs,
                            r -> r.path("listener_cpu_ns").asDouble()
                                    / 1e3
                                    / Math.max(1, r.path("received").asDouble())),
                    d.figure(r -> perSend(r, "listener_cpu_us")),
                    0.25,
                    MissReasons.LISTENER_CPU));
        }
        sharing(model, load, n, runs, d);
    }

    /**
     * How the scheduler shared the CPUs out, host beside model, where the host's runs counted it (not a prediction
     * row: the mean rows' misses follow it): injector preemptions each, and the share ending in the sends' last quarter.
     */
    private static void sharing(PredictionRuns model, String load, int n, List<ObjectNode> runs, ModelRuns d) {
        String q4 = "injector_ends_q4";
        if (!runs.stream().allMatch(r -> r.has("injector_preemptions") && r.has(q4))
                || !d.first().counters().containsKey(SharingCounters.INJECTOR_PREEMPTIONS)) {
            return; // recorded before the probe counted them, or a model without tasks (fifo)
        }
        RunsFigure hostPreempted =
                RunsFigure.of(runs, r -> r.path("injector_preemptions").asDouble() / n);
        RunsFigure hostLast = RunsFigure.of(runs, r -> 100 * r.path(q4).asDouble() / n);
        RunsFigure modelPreempted = d.figure(r -> (double) r.counters().get(SharingCounters.INJECTOR_PREEMPTIONS) / n);
        RunsFigure modelLast =
                d.figure(r -> 100.0 * r.counters().get(SharingCounters.INJECTORS_ENDING_LAST_QUARTER) / n);
        model.progress()
                .println(String.format(
                        java.util.Locale.ROOT,
                        "calibrate: %s: injectors preempted %.2f times each on the host, %.2f in the model; ending in"
                                + " the sends' last quarter %.0f%% and %.0f%% (medians)",
                        load,
                        hostPreempted.median(),
                        modelPreempted.median(),
                        hostLast.median(),
                        modelLast.median()));
    }

    /** @return a CPU counter (us) of one model run over its sends */
    private static double perSend(DesignResult r, String counter) {
        return (double) r.counters().get(counter)
                / r.recorders().get("uevent.transaction").count();
    }

    /**
     * Reordering at one M: the out-of-order share of the deliveries.
     *
     * @param runs the host's runs of the load
     * @param rows receives the row
     * @return {M, the host's share, the model's} for {@link #reorderGrowth}
     */
    static double[] reorder(PredictionRuns model, List<ObjectNode> runs, List<Row> rows)
            throws ScenarioException, RunFailure, IOException {
        ObjectNode l = runs.get(0);
        int m = l.path("injectors_into_one_netns").asInt();
        long k = l.path("sends_per_injector").asLong();
        RunsFigure predicted = model.injection("reorder-m" + m, 1, m, k * m).figure(r -> {
            long received = r.recorders().get("uevent.delivery").count();
            return received == 0 ? 0 : (double) r.invariants().seqnumOutOfOrder() / received;
        });
        RunsFigure measured = RunsFigure.field(runs, "out_of_order_share");
        rows.add(factor(
                "reorder M=" + m,
                "out-of-order share",
                measured,
                predicted,
                2,
                predicted.median() > measured.median() ? MissReasons.REORDER_HIGH : MissReasons.REORDER));
        return new double[] {m, measured.median(), predicted.median()};
    }

    /**
     * The share's growth from the smallest M to the largest, within 2x of the host's. The share need not grow with M
     * on a 2-CPU host (recordings on 2 vCPUs gave 1.9%, 0% and 0.9% at M = 2, 4, 8, and 4.4%, 4.9% and 5.3%), so
     * the row compares the growth itself, as the share rows compare the shares.
     *
     * @param lo {@link #reorder}'s figures at the smallest M
     * @param hi at the largest
     * @return the row; its host figure NaN (null in calibration.json) when the host's share at the smallest M is 0
     */
    static Row reorderGrowth(double[] lo, double[] hi) {
        double host = lo[1] > 0 ? hi[1] / lo[1] : Double.NaN; // no figure when the host reordered nothing at M small
        double model = lo[2] > 0 ? hi[2] / lo[2] : Double.NaN;
        return factor(
                        "reorder M=" + (int) lo[0] + ".." + (int) hi[0],
                        "out-of-order share, largest M / smallest M",
                        host,
                        model,
                        2,
                        Double.isNaN(host) || model > host ? MissReasons.REORDER_HIGH : MissReasons.REORDER)
                .withBand(RecordedRows.GROWTH);
    }
}
