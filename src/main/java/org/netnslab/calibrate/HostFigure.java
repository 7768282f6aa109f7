package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The host's figure for one measure of a load run several times (the prediction set's noisy loads are: the
 * same TC1 load on this 2-vCPU VM ran at 404k to 527k sends/s in consecutive runs).
 *
 * @param median the median over the runs (the mean of the middle two for an even count)
 * @param low the lowest
 * @param high the highest
 * @param runs how many runs
 */
record HostFigure(double median, double low, double high, int runs) {
    static HostFigure of(List<ObjectNode> runs, java.util.function.ToDoubleFunction<ObjectNode> figure) {
        return of(runs.stream().mapToDouble(figure).toArray());
    }

    /** @return the figure of one value per run, at least one */
    static HostFigure of(double... values) {
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new HostFigure(median, v[0], v[n - 1], n);
    }

    /** @return a figure the host measured once */
    static HostFigure once(double figure) {
        return new HostFigure(figure, figure, figure, 1);
    }

    static HostFigure field(List<ObjectNode> runs, String field) {
        return of(runs, l -> l.path(field).asDouble());
    }
}
