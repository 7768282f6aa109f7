package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.linear.SingularMatrixException;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;
import org.netnslab.calibrate.CostFit.Fitted;

/**
 * {@code costs.proc.recvmsg} and {@code costs.proc.wakeup} from {@code proc_probe fit}: one proc connector listener at a
 * time (all events, then EXIT only; drained at every wake-up, then at most every 2 ms) while processes fork, exec and
 * exit (drivers/connector/cn_proc.c); and {@code costs.proc.exit-switch} from its placed runs. Stateless.
 */
final class ProcFit {
    private ProcFit() {}

    /** The key of the exit's switch charge. */
    static final String EXIT_SWITCH = "costs.proc.exit-switch";

    /**
     * {@code costs.proc.exit-switch}: an EXIT-only listener pinned beside the spawner, whose children exit on its CPU
     * and are followed there by it, against one pinned on another CPU, each run with an all-events listener on that
     * other CPU (so the exits wake two listeners, as in the prediction set's load): the median CPU per wake-up beside
     * less the median apart, one charge per wake-up. NOT FITTED without both placements (a recording made before the
     * probe pinned listeners, or a host with one CPU), or where beside is not above apart.
     *
     * @param placed the fit set's proc listener lines with a {@code placement} ({@code beside} or {@code apart})
     * @param costs receives the key
     * @param unfitted receives why not
     */
    static void exitSwitch(List<ObjectNode> placed, Map<String, Fitted> costs, Map<String, String> unfitted) {
        double[] beside = perWakeup(placed, "beside");
        double[] apart = perWakeup(placed, "apart");
        if (beside.length == 0 || apart.length == 0) {
            unfitted.put(
                    EXIT_SWITCH,
                    "proc_probe fit has no EXIT-only listener pinned beside its spawner and apart from it (a recording"
                            + " made before the probe pinned listeners, or a host with one CPU)");
            return;
        }
        double b = CostFit.medianOf(beside);
        double a = CostFit.medianOf(apart);
        String runs = beside.length + " runs beside and " + apart.length + " apart";
        if (b <= a) {
            unfitted.put(
                    EXIT_SWITCH,
                    String.format(
                            java.util.Locale.ROOT,
                            "proc_probe fit: an EXIT-only listener beside its spawner paid %.0f ns a wake-up, not above"
                                    + " the %.0f ns of one apart (medians of %s): no charge to fit",
                            b,
                            a,
                            runs));
            return;
        }
        costs.put(
                EXIT_SWITCH,
                new Fitted(
                        b - a,
                        "proc_probe fit: an EXIT-only listener's CPU per wake-up pinned beside its spawner less pinned"
                                + " apart, an all-events listener apart in each (medians of " + runs + ")",
                        beside.length + apart.length,
                        Double.NaN));
    }

    /** @return CPU per wake-up, ns, of each EXIT-only line placed {@code where} that woke at least once */
    private static double[] perWakeup(List<ObjectNode> placed, String where) {
        return placed.stream()
                .filter(l -> l.path("placement").asText().equals(where)
                        && l.path("filter").asText().equals("exit")
                        && l.path("wakeups").asDouble() >= 1)
                .mapToDouble(
                        l -> l.path("cpu_ns").asDouble() / l.path("wakeups").asDouble())
                .toArray();
    }

    /**
     * The per-event cost through the origin (listener CPU against events), then, over three runs or more, listener CPU
     * = e x events + w x wake-ups by least squares, which replaces it; {@code wakeup} NOT FITTED where the runs' events
     * and wake-ups are in one proportion (a singular fit).
     *
     * @param lis the fit set's proc listener lines ({@code events}, {@code wakeups}, {@code cpu_ns})
     * @param costs receives the keys
     * @param extras receives the per-event-only fit, when the two-term one replaces it
     * @param unfitted receives why not
     */
    static void listeners(
            List<ObjectNode> lis, Map<String, Fitted> costs, Map<String, Fitted> extras, Map<String, String> unfitted) {
        if (lis.isEmpty()) {
            return;
        }
        double sxy = 0;
        double sxx = 0;
        double[][] xy = new double[lis.size()][];
        for (int i = 0; i < lis.size(); i++) {
            xy[i] = new double[] {
                lis.get(i).path("events").asDouble(), lis.get(i).path("cpu_ns").asDouble()
            };
            sxy += xy[i][0] * xy[i][1];
            sxx += xy[i][0] * xy[i][0];
        }
        double r = sxx > 0 ? sxy / sxx : 0;
        costs.put(
                "costs.proc.recvmsg",
                new Fitted(
                        r,
                        "proc_probe fit: listener CPU vs events received ("
                                + lis.size()
                                + " listener runs: all events and EXIT only, each drained at every wake-up and at most"
                                + " every 2 ms), least squares through the origin",
                        lis.size(),
                        CostFit.residual(xy, r, 0)));
        if (lis.size() >= 3) {
            double[] y = new double[lis.size()];
            double[][] x = new double[lis.size()][];
            for (int i = 0; i < lis.size(); i++) {
                y[i] = lis.get(i).path("cpu_ns").asDouble();
                x[i] = new double[] {
                    lis.get(i).path("events").asDouble(),
                    lis.get(i).path("wakeups").asDouble()
                };
            }
            OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
            ols.setNoIntercept(true);
            ols.newSampleData(y, x);
            double[] b;
            try {
                b = ols.estimateRegressionParameters();
            } catch (SingularMatrixException e) { // events and wake-ups in one proportion: no second term to fit
                unfitted.put(
                        "costs.proc.wakeup",
                        "proc_probe fit: the " + lis.size() + " listener runs' events and wake-ups are in one"
                                + " proportion, so a wake-up's cost cannot be told from an event's (recvmsg is the per-event fit,"
                                + " wake-ups included)");
                return;
            }
            double rel = 0;
            for (int i = 0; i < y.length; i++) {
                double e = (y[i] - b[0] * x[i][0] - b[1] * x[i][1]) / y[i];
                rel += e * e;
            }
            rel = Math.sqrt(rel / y.length);
            String src =
                    "proc_probe fit: listener CPU = e x events + w x wake-ups over " + lis.size() + " listener runs"
                            + " (all events and EXIT only, each drained at every wake-up and at most every 2 ms), least squares";
            // the model charges both a message and a wake-up: the two-term fit replaces the per-event-only one
            extras.put("proc-recvmsg-per-event-only", costs.get("costs.proc.recvmsg"));
            costs.put("costs.proc.recvmsg", new Fitted(b[0], src + " (e)", lis.size(), rel));
            costs.put("costs.proc.wakeup", new Fitted(b[1], src + " (w)", lis.size(), rel));
        }
    }
}
