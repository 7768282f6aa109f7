package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.DoubleBinaryOperator;
import java.util.function.ToDoubleFunction;

/**
 * What the fits over a probe's sizes share ({@link SwitchFit}, {@link BackgroundFit}, {@link RecvFit}): the lines by
 * size, and a scale fitted by least squares on a grid of one shape parameter. Stateless.
 */
final class SizeFit {
    private SizeFit() {}

    /** @return {@code lines} by the whole number in {@code field}, sizes ascending, each size's lines in order */
    static TreeMap<Long, List<ObjectNode>> bySize(List<ObjectNode> lines, String field) {
        TreeMap<Long, List<ObjectNode>> by = new TreeMap<>();
        for (ObjectNode l : lines) {
            by.computeIfAbsent(l.path(field).asLong(), k -> new ArrayList<>()).add(l);
        }
        return by;
    }

    /**
     * The sizes above a base size and what each adds to the base's figure: the points the fits are made on.
     *
     * @param above the sizes above the base, each with its lines ({@link #bySize}'s tail)
     * @param base the figure at the base size
     * @param figure a size's figure from its lines (a median over them)
     * @return {the sizes, ascending; each one's figure less {@code base}}
     */
    static double[][] lessBase(
            SortedMap<Long, List<ObjectNode>> above, double base, ToDoubleFunction<List<ObjectNode>> figure) {
        double[] ks = new double[above.size()];
        double[] ys = new double[ks.length];
        int i = 0;
        for (Map.Entry<Long, List<ObjectNode>> e : above.entrySet()) {
            ks[i] = e.getKey();
            ys[i++] = figure.applyAsDouble(e.getValue()) - base;
        }
        return new double[][] {ks, ys};
    }

    /**
     * For each candidate c, in order, least squares of y = b x shape(c, k) with b at least 0; the first candidate with
     * the least squared residual wins.
     *
     * @param ks the sizes
     * @param ys the figures at them
     * @param candidates the shape parameter's values to try
     * @param shape the shape at a candidate and a size
     * @return {b, the candidate}
     */
    static double[] bestScale(double[] ks, double[] ys, double[] candidates, DoubleBinaryOperator shape) {
        double[] best = {0, 0};
        double bestSse = Double.POSITIVE_INFINITY;
        for (double c : candidates) {
            double sgg = 0, sgy = 0;
            for (int j = 0; j < ks.length; j++) {
                double g = shape.applyAsDouble(c, ks[j]);
                sgg += g * g;
                sgy += g * ys[j];
            }
            double b = sgg > 0 ? Math.max(0, sgy / sgg) : 0;
            double sse = 0;
            for (int j = 0; j < ks.length; j++) {
                double r = ys[j] - b * shape.applyAsDouble(c, ks[j]);
                sse += r * r;
            }
            if (sse < bestSse) {
                bestSse = sse;
                best = new double[] {b, c};
            }
        }
        return best;
    }

    /** @return 0, then {@code count} values rounded on a log scale from 1 to {@code top} */
    static double[] zeroAndLogGrid(double top, int count) {
        double[] grid = new double[count + 1];
        for (int i = 0; i < count; i++) {
            grid[i + 1] = Math.round(Math.pow(top, i / (double) (count - 1)));
        }
        return grid;
    }
}
