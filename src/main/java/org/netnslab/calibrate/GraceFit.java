package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.netnslab.calibrate.CostFit.Fitted;
import org.netnslab.metrics.DesignResult;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.ScenarioException;

/**
 * {@code rcu.grace-period} through the model: the normal grace period with which the model's serial
 * {@code unshare -n} loop spends as long off a CPU in each cleanup_net run as the probe's serial loop did (a fit-set
 * load: nothing contended is fitted on). A run's time off a CPU is not one grace period plus the expedited one:
 * cleanup_net's rcu_barrier (net/core/net_namespace.c) waits for callbacks queued over the run, one or two grace
 * periods (kernel/rcu/tree.c rcu_accelerate_cbs), and the model's own runs say how many. A secant search from
 * {@link LifecycleFit}'s direct reading, deterministic (virtual time, one random seed); docs/calibrate.md, "The fit".
 */
public final class GraceFit {
    /** Most model runs of the serial loop one fit takes. */
    static final int MAX_RUNS = 8;
    /** Close enough: the model's off-CPU time per run within this share of the host's. */
    static final double TOLERANCE = 0.02;
    /** rcu.grace-period's range (RcuSettings), ns. */
    private static final double MAX_NANOS = 10e9;

    private GraceFit() {}

    /**
     * One search's outcome.
     *
     * @param grace the grace period found, ns
     * @param offCpu the model's off-CPU time per run with it, ns
     * @param runs model runs taken
     */
    record Found(double grace, double offCpu, int runs) {}

    /**
     * Finds the grace period g with {@code offCpu(g)} = {@code target}, from {@code start}.
     *
     * @param target the host's off-CPU time per run, ns, > 0
     * @param start the first guess, ns, >= 0
     * @param offCpu the model's off-CPU time per run for a grace period, ns (NaN when it ran no cleanup_net)
     * @return the closest grace period tried (the first within {@link #TOLERANCE}), never null
     */
    static Found solve(double target, double start, DoubleUnaryOperator offCpu) {
        double a = clamp(start);
        double fa = offCpu.applyAsDouble(a);
        Found best = new Found(a, fa, 1);
        // a run with no cleanup_net (NaN) had too short a loop for its waits: try a longer grace period
        // (from 0, a proportional step stays at 0: double instead)
        double b = Double.isFinite(fa) && fa > 0 && a > 0 ? clamp(a * target / fa) : clamp(Math.max(a, 1e6) * 2);
        for (int runs = 2; runs <= MAX_RUNS && !close(best, target) && b != a; runs++) {
            double fb = offCpu.applyAsDouble(b);
            if (Double.isFinite(fb)
                    && (!Double.isFinite(best.offCpu()) || Math.abs(fb - target) < Math.abs(best.offCpu() - target))) {
                best = new Found(b, fb, runs);
            } else {
                best = new Found(best.grace(), best.offCpu(), runs);
            }
            double next = Double.isFinite(fa) && Double.isFinite(fb) && fb != fa
                    ? b - (fb - target) * (b - a) / (fb - fa)
                    : Double.isFinite(fb) && fb > 0 ? b * target / fb : Math.max(b, 1e6) * 2;
            a = b;
            fa = fb;
            b = Double.isFinite(next) ? clamp(next) : clamp(Math.max(b, 1e6) * 2);
        }
        return best;
    }

    private static boolean close(Found f, double target) {
        return Double.isFinite(f.offCpu()) && Math.abs(f.offCpu() - target) <= TOLERANCE * target;
    }

    private static double clamp(double g) {
        return Double.isFinite(g) ? Math.max(0, Math.min(MAX_NANOS, g)) : 0;
    }

    /**
     * The fit with {@code rcu.grace-period} found through the model, over the serial loop's lines that have the
     * kworker's CPU in their runs; the same fit when it has no grace period, and the direct reading with a note when
     * no line has the kworker's CPU (no off-CPU time to match).
     *
     * @param fit the costs fitted so far ({@code rcu.grace-period} from {@link LifecycleFit} is the start)
     * @param serial the fit set's lines; its serial-loop lines are used
     * @param system the calibrated configuration with {@code fit}'s costs
     * @param design the host's era
     * @param cpus the host's CPUs
     * @param folder where the scenario file is written (beside the prediction scenarios)
     * @param progress receives a line on the fit's model runs (as Predictions' on theirs), or on why there were none
     * @return the refined fit
     * @throws IOException the scenario cannot be written
     * @throws ScenarioException the generated scenario is invalid
     * @throws RunFailure a model run failed
     */
    public static CostFit refine(
            CostFit fit,
            List<ObjectNode> serial,
            Config system,
            String design,
            int cpus,
            Path folder,
            java.io.PrintStream progress)
            throws IOException, ScenarioException, RunFailure {
        serial = CostFit.select(serial, "lifecycle", "unshare-loops");
        Fitted analytic = fit.costs().get("rcu.grace-period");
        double target = LifecycleFit.offCpuPerRun(serial);
        if (analytic == null || serial.isEmpty()) {
            return fit;
        }
        if (!(target > 0)) { // no serial line has the kworker's CPU in its runs: nothing to match, said so
            progress.println("calibrate: rcu.grace-period not fitted through the model: no serial loop line has the"
                    + " kworker's CPU in its cleanup_net runs");
            Map<String, Fitted> costs = new LinkedHashMap<>(fit.costs());
            costs.put(
                    "rcu.grace-period",
                    new Fitted(
                            analytic.value(),
                            analytic.source() + "; not fitted through the"
                                    + " model: no serial loop line has the kworker's CPU in its cleanup_net runs (no sched_switch trace)",
                            analytic.points(),
                            analytic.residual()));
            return new CostFit(costs, fit.extras(), fit.unfitted());
        }
        long iterations = Math.round(CostFit.median(serial, "iterations"));
        ModelScenario loop = new ModelScenario(
                "fit-serial-loop",
                "fit-serial-loop",
                List.of(
                        "Written by `netns-lab calibrate`: the model's serial unshare loop, run to fit rcu.grace-period"
                                + " (docs/calibrate.md, the fit)",
                        "./netns-lab run THIS_FILE --config calibrated.conf (the calibrated.conf beside it)"),
                "calibrate fit: one loop of " + iterations + " unshare -n /bin/true",
                "netns-lab calibrate, fit set (measured on this host)",
                ModelScenario.churn(1, iterations),
                Map.of(),
                cpus,
                List.of(design),
                1);
        Path file = loop.file(folder);
        Files.writeString(file, loop.text());
        long t0 = System.nanoTime();
        Found found;
        try {
            found = solve(target, analytic.value(), g -> offCpu(system, loop, file, g));
        } catch (ModelFailed e) { // a model run's checked failure, carried out of the DoubleUnaryOperator
            if (e.getCause() instanceof ScenarioException se) {
                throw se;
            }
            throw (RunFailure) e.getCause();
        }
        if (!Double.isFinite(found.offCpu())) {
            throw new RunFailure("the model's serial unshare loop (" + file + ") ran no cleanup_net in " + found.runs()
                    + " runs: rcu.grace-period cannot be fitted through it");
        }
        progress.printf(
                "calibrate: model fit-serial-loop: rcu.grace-period %.3f ms, %d model runs in %.1f s%n",
                found.grace() / 1e6, found.runs(), (System.nanoTime() - t0) / 1e9);
        Map<String, Fitted> costs = new LinkedHashMap<>(fit.costs());
        costs.put(
                "rcu.grace-period",
                new Fitted(
                        found.grace(),
                        String.format(
                                java.util.Locale.ROOT,
                                "the model's serial loop (%d unshare -n, this host's other fitted costs) with this grace period spends"
                                        + " %.1f ms off a CPU per cleanup_net run, the probe's serial loop %.1f ms (%d model runs, secant from %.0f"
                                        + " us: %s)",
                                iterations,
                                found.offCpu() / 1e6,
                                target / 1e6,
                                found.runs(),
                                analytic.value() / 1e3,
                                analytic.source()),
                        analytic.points(),
                        Double.NaN));
        return new CostFit(costs, fit.extras(), fit.unfitted());
    }

    /** @return the model's serial loop's off-CPU time per cleanup_net run with grace period {@code g} ns, ns */
    private static double offCpu(Config system, ModelScenario loop, Path file, double g) {
        try {
            Config c = system.withValue(
                    "netns-lab.model.rcu.grace-period", ConfigValueFactory.fromAnyRef(Math.round(g) + "ns"));
            DesignResult d = ModelRun.run(c, loop, file.toString()).designs().get(0);
            // over the runs that ended (the off-CPU time is summed at a run's end)
            long runs = d.recorders()
                    .get(org.netnslab.workload.churn.NetnsChurnWorkload.CLEANUP_RUN)
                    .summary()
                    .count();
            return runs == 0 ? Double.NaN : d.counters().getOrDefault("cleanup_off_cpu_us", 0L) * 1e3 / runs;
        } catch (ScenarioException | RunFailure e) {
            throw new ModelFailed(e);
        }
    }

    /** A model run's failure inside the search. */
    private static final class ModelFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ModelFailed(Exception cause) {
            super(cause);
        }
    }
}
