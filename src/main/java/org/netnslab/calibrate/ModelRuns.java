package org.netnslab.calibrate;

import java.util.List;
import java.util.function.ToDoubleFunction;
import org.netnslab.metrics.DesignResult;

/**
 * The model's runs of one prediction-set load, one per random seed ({@link PredictionRuns#SEEDS}): a figure is
 * compared by its median over them, as the host's is by the median over its runs. One seed's figure is one draw of
 * the costs' jitter: a reorder share moved 2.8x between seeds 1 to 9 of one calibrated model (215 to 597 out of
 * order in 19,992 sends at M = 14), where the band is 2x.
 *
 * @param results each run's result for the host's era, in seed order (at least one)
 */
record ModelRuns(List<DesignResult> results) {
    /** Copies the list; at least one result. */
    ModelRuns {
        results = List.copyOf(results);
        if (results.isEmpty()) {
            throw new IllegalArgumentException("at least one model run");
        }
    }

    /** @return the first seed's result: for what every run has alike (its recorders and counters by name) */
    DesignResult first() {
        return results.get(0);
    }

    /**
     * @param figure a figure of one run
     * @return its median, lowest and highest over the runs; all NaN if any run's is NaN
     */
    RunsFigure figure(ToDoubleFunction<DesignResult> figure) {
        return RunsFigure.of(results.stream().mapToDouble(figure).toArray());
    }
}
