package org.netnslab.calibrate;

import static org.netnslab.calibrate.Bands.factor;
import static org.netnslab.calibrate.Bands.within;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.netnslab.calibrate.Predictions.Row;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.ScenarioException;

/**
 * The lifecycle load of the prediction set against the model: parallel {@code unshare -n /bin/true} loops, their
 * wall time and rate, and from the host's trace its cleanup_net batches and the time from the last put_net to the
 * free.
 */
final class LifecycleRows {
    private LifecycleRows() {}

    /**
     * @param runs the host's runs of the load
     * @param rows receives the rows
     */
    static void loops(PredictionRuns model, List<ObjectNode> runs, List<Row> rows)
            throws ScenarioException, RunFailure, IOException {
        ObjectNode l = runs.get(0);
        int loops = l.path("loops").asInt();
        long iters = l.path("iterations").asLong();
        String name = "unshare-loops-" + loops + "x" + iters;
        ModelRuns d = model.run(
                name,
                name,
                loops + " parallel loops of " + iters + " unshare -n /bin/true (calibrate's lifecycles/s: their count"
                        + " over the last loop's end, the max of netns.loop_wall; the run's throughput also waits for"
                        + " the frees)",
                ModelScenario.churn(loops, iters),
                Map.of());
        String load = loops + " x " + iters + " unshare -n";
        rows.add(within(
                load,
                "loop wall, s",
                RunsFigure.of(runs, r -> r.path("loop_wall_mean_ns").asDouble() / 1e9),
                d.figure(r -> ModelRun.mean(r, "netns.loop_wall") / 1e6),
                0.25,
                MissReasons.LOOPS));
        // as the probe counts it: lifecycles over the time to the last loop's end (the run's counted phase also
        // takes in the frees that follow)
        rows.add(within(
                load,
                "lifecycles/s",
                RunsFigure.field(runs, "lifecycles_per_s"),
                d.figure(r -> {
                    MeasureSummary wall = r.recorders().get("netns.loop_wall").summary();
                    return loops * iters / (ModelRun.micros(wall, wall.max()) / 1e6);
                }),
                0.25,
                MissReasons.LIFECYCLE_RATE));
        // the tracefs figures, each over the runs that have it (a run whose trace was not usable has neither)
        traced(
                rows,
                load,
                "cleanup_net batch, netns",
                runs,
                "batch_mean_netns",
                1,
                () -> d.figure(
                        r -> r.recorders().get("netns.cleanup_batch").summary().mean()));
        traced(
                rows,
                load,
                "last put_net to free, ms",
                runs,
                "put_to_free_mean_ns",
                1e6,
                () -> d.figure(r -> ModelRun.mean(r, "netns.cleanup") / 1e3));
    }

    /**
     * A figure of the host's trace, within a factor 2 over the runs that have it; no row when none has.
     *
     * @param field the runs' field
     * @param unit what the field is divided by for the row's unit
     * @param predicted the model's figure, in the row's unit
     */
    private static void traced(
            List<Row> rows,
            String load,
            String measure,
            List<ObjectNode> runs,
            String field,
            double unit,
            Supplier<RunsFigure> predicted) {
        List<ObjectNode> with = runs.stream().filter(r -> r.has(field)).toList();
        if (!with.isEmpty()) {
            rows.add(factor(
                    load,
                    measure,
                    RunsFigure.of(with, r -> r.path(field).asDouble() / unit),
                    predicted.get(),
                    2,
                    MissReasons.LIFECYCLE));
        }
    }
}
