package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One measure's figure over several runs of a load: the host's runs (the prediction set's noisy loads are: the same
 * TC1 load on this 2-vCPU VM ran at 404k to 527k sends/s in consecutive runs), or the model's over its random seeds
 * ({@link ModelRuns}).
 *
 * @param median the median over the runs (the mean of the middle two for an even count)
 * @param low the lowest
 * @param high the highest
 * @param runs how many runs
 */
record RunsFigure(double median, double low, double high, int runs) {
    static RunsFigure of(List<ObjectNode> runs, java.util.function.ToDoubleFunction<ObjectNode> figure) {
        return of(runs.stream().mapToDouble(figure).toArray());
    }

    /** @return the figure of one value per run, at least one; all NaN when any value is NaN (a figure not known) */
    static RunsFigure of(double... values) {
        if (java.util.Arrays.stream(values).anyMatch(Double::isNaN)) {
            return new RunsFigure(Double.NaN, Double.NaN, Double.NaN, values.length);
        }
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new RunsFigure(median, v[0], v[n - 1], n);
    }

    /** @return a figure measured (or computed) once */
    static RunsFigure once(double figure) {
        return new RunsFigure(figure, figure, figure, 1);
    }

    static RunsFigure field(List<ObjectNode> runs, String field) {
        return of(runs, l -> l.path(field).asDouble());
    }
}
