package org.netnslab.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.RunResult;

/**
 * A finished run made up without running anything, the same on every call: two designs with a latency
 * measure in us compared by Welch's test, one in ms with a single value each (no Welch test), an empty
 * one, a non-zero invariant, counters, a throughput series, a seed ratio and a derived ratio that is
 * NaN. {@code report/result-schema1.json} is what result.json held for it before the report was rebuilt
 * from a record (machine set to {@link #MACHINE}).
 */
final class TinyRun {
    static final RunRecord.Machine MACHINE = new RunRecord.Machine(2, "17.0.15", "2.6.21");

    private TinyRun() {}

    static RunResult result() {
        DesignResult a = design("kernel-4.18", 50_000, 0, 12_345_678);
        DesignResult b = design("per-netns-2018", 20_000, 7, 3_456_789);
        List<DesignResult> designs = List.of(a, b);
        return new RunResult(
                "tiny",
                "a <tiny> run",
                "seed & thread",
                0.01,
                Instant.parse("2026-11-30T12:00:00.123456Z"),
                2.5,
                designs,
                List.of(Comparison.of("uevent.transaction", a, b), Comparison.of("proc.listener_busy.all", a, b)),
                Map.of("per-netns-2018", 0.8),
                List.of("workload.injectors=4"),
                List.of(
                        new RunResult.DerivedRatio("busy(exit) / busy(all)", 0.4, 0.35),
                        new RunResult.DerivedRatio("busy(none) / busy(none)", Double.NaN, 1.5)),
                oneReplicate(designs),
                null,
                null,
                null);
    }

    /**
     * The same two designs over three replicates whose baseline transaction means differ, assembled as
     * {@link org.netnslab.scenario.ScenarioRunner} assembles a run: merged designs, comparisons over
     * replicate means, derived ratios per replicate. {@code report/result-schema2.json} is its result.json.
     */
    static RunResult replicated() {
        List<RunResult.Replicate> reps = new ArrayList<>();
        long[][] bases = {{50_000, 20_000}, {47_000, 23_000}, {53_000, 19_000}};
        for (int i = 0; i < bases.length; i++) {
            DesignResult a = design("kernel-4.18", bases[i][0], i, 12_345_678 + i * 1_000_000L);
            DesignResult b = design("per-netns-2018", bases[i][1], 7, 3_456_789 + i * 100_000L);
            List<String> order =
                    i % 2 == 0 ? List.of("kernel-4.18", "per-netns-2018") : List.of("per-netns-2018", "kernel-4.18");
            reps.add(new RunResult.Replicate(i + 1, order, List.of(a, b)));
        }
        List<DesignResult> as = reps.stream().map(r -> r.designs().get(0)).toList();
        List<DesignResult> bs = reps.stream().map(r -> r.designs().get(1)).toList();
        List<Double> busy = reps.stream()
                .map(r -> r.designs()
                                .get(1)
                                .recorders()
                                .get("proc.listener_busy.all")
                                .meanNanos()
                        / r.designs()
                                .get(0)
                                .recorders()
                                .get("proc.listener_busy.all")
                                .meanNanos())
                .toList();
        return new RunResult(
                "tiny",
                "a <tiny> run",
                "seed & thread",
                0.01,
                Instant.parse("2026-11-30T12:00:00.123456Z"),
                7.5,
                List.of(DesignResult.merge(as), DesignResult.merge(bs)),
                List.of(Comparison.of("uevent.transaction", as, bs), Comparison.of("proc.listener_busy.all", as, bs)),
                Map.of("per-netns-2018", 0.8),
                List.of("workload.injectors=4"),
                List.of(RunResult.DerivedRatio.over("busy(b) / busy(a)", 0.35, busy)),
                reps,
                null,
                null,
                null);
    }

    /**
     * @param designs a run's design results, in the order they ran
     * @return the run's replicates when it had one: those results
     */
    /**
     * TC1's comparison of per-netns-2018 with kernel-4.18 over two replicates, ratio 0.661 within an interval, seed
     * ratio 0.82, and no design figures.
     *
     * @param low the interval's low end
     * @param high its high end
     * @param ratios the run's seed ratios across measures
     * @param execution how the run ran, or null for not known
     * @return the run
     */
    static RunResult seededComparison(
            double low, double high, List<RunResult.DerivedRatio> ratios, RunResult.ExecutionInfo execution) {
        Comparison c = new Comparison(
                "uevent.transaction",
                "kernel-4.18",
                "per-netns-2018",
                60,
                40,
                0.661,
                List.of(50.0, 70.0),
                List.of(30.0, 50.0),
                null,
                new org.netnslab.metrics.RatioInterval(0.661, low, high, 1),
                null);
        return seeded(List.of(c), Map.of("per-netns-2018", 0.82), ratios, execution);
    }

    /**
     * A run of one replicate with no design figures: what the verdict judges from comparisons and ratios alone.
     *
     * @param comparisons its design comparisons
     * @param seeds the seed's ratios by design
     * @param ratios its seed ratios across measures
     * @param execution how it ran, or null for not known
     * @return the run
     */
    static RunResult seeded(
            List<Comparison> comparisons,
            Map<String, Double> seeds,
            List<RunResult.DerivedRatio> ratios,
            RunResult.ExecutionInfo execution) {
        return new RunResult(
                "tiny",
                "a run",
                "seed",
                0.01,
                Instant.parse("2026-12-02T12:00:00Z"),
                2.0,
                List.of(),
                comparisons,
                seeds,
                List.of(),
                ratios,
                oneReplicate(List.of()),
                execution,
                null,
                null);
    }

    /** @return the verdict of a one-replicate run of {@code designs} with {@code comparisons}, no seed figures */
    static Verdict verdict(List<DesignResult> designs, List<Comparison> comparisons) {
        return verdict(designs, comparisons, Map.of());
    }

    /** @return the verdict of a one-replicate run of {@code designs} with {@code comparisons} and seed ratios */
    static Verdict verdict(List<DesignResult> designs, List<Comparison> comparisons, Map<String, Double> seedRatios) {
        return Verdict.of(
                RunRecord.of(run(0.01, designs, comparisons, seedRatios, List.of(), List.of(), null), MACHINE));
    }

    /**
     * @return a one-replicate run of scenario "tiny" of {@code designs} at {@code scale}, with no sensitivity study
     *     and no minimum scale
     */
    static RunResult run(
            double scale,
            List<DesignResult> designs,
            List<Comparison> comparisons,
            Map<String, Double> seedRatios,
            List<String> overrides,
            List<RunResult.DerivedRatio> ratios,
            RunResult.ExecutionInfo execution) {
        return new RunResult(
                "tiny",
                "a run",
                "seed",
                scale,
                Instant.parse("2026-12-06T12:00:00Z"),
                1.0,
                designs,
                comparisons,
                seedRatios,
                overrides,
                ratios,
                oneReplicate(designs),
                execution,
                null,
                null);
    }

    static List<RunResult.Replicate> oneReplicate(List<DesignResult> designs) {
        return List.of(new RunResult.Replicate(
                1, designs.stream().map(DesignResult::name).toList(), designs));
    }

    static DesignResult design(String name, long base, long outOfOrder, long busyNanos) {
        LatencyRecorder tx = new LatencyRecorder();
        LatencyRecorder rx = new LatencyRecorder();
        for (int i = 1; i <= 1000; i++) {
            tx.record(base + i * 37L % 5000);
            rx.record(base * 2 + i * 11L % 3000);
        }
        LatencyRecorder busy = new LatencyRecorder("ms", 1e6);
        busy.record(busyNanos);
        Map<String, LatencyRecorder> m = new LinkedHashMap<>();
        m.put("uevent.transaction", tx);
        m.put("uevent.delivery", rx);
        m.put("proc.listener_busy.all", busy);
        m.put("netns.cleanup", new LatencyRecorder());
        Map<String, String> strategies = new LinkedHashMap<>();
        strategies.put("uevent.serialization", "x < y & z");
        strategies.put("uevent.seqnum-scope", name.startsWith("kernel") ? "global" : "per-netns");
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("grace_periods", 3L);
        counters.put("batches", outOfOrder + 1);
        return new DesignResult(
                name,
                strategies,
                m,
                1000.5,
                "transactions",
                1.25,
                new Invariants(outOfOrder, 0, 0, 0, 0, 0, 0, 0, 0),
                counters,
                List.of(new double[] {0.5, 900}, new double[] {1.0, 1100.25}));
    }
}
