package org.netnslab.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A figure the seed reported as a ratio of two measures, declared by a scenario
 * ({@code derived-ratios}): the mean of one design's measure over the mean of another's (or the
 * same design's), shown beside the seed's value.
 *
 * @param name what is divided by what, as the report prints it
 * @param numerator the measure divided
 * @param denominator the measure it is divided by
 * @param seed the seed's value, &gt; 0
 */
public record RatioDefinition(String name, MeasureOf numerator, MeasureOf denominator, double seed) {

    /**
     * One design's measure.
     *
     * @param design the design's name
     * @param measure the measure's name, e.g. {@code proc.listener_busy.exit}
     */
    public record MeasureOf(String design, String measure) {}

    /**
     * @param designs a run's results
     * @return the ratio of the two means, or empty when a design or a measure is missing from the run
     */
    public Optional<RunResult.DerivedRatio> evaluate(List<DesignResult> designs) {
        Map<String, DesignResult> byName =
                designs.stream().collect(Collectors.toMap(DesignResult::name, Function.identity()));
        Optional<Double> num = mean(byName, numerator);
        Optional<Double> den = mean(byName, denominator);
        if (num.isEmpty() || den.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RunResult.DerivedRatio(name, num.get() / den.get(), seed));
    }

    /**
     * @param definitions a scenario's derived ratios, in order
     * @param designs the run's results
     * @return those that could be computed, in order
     */
    public static List<RunResult.DerivedRatio> evaluateAll(
            List<RatioDefinition> definitions, List<DesignResult> designs) {
        List<RunResult.DerivedRatio> out = new ArrayList<>();
        for (RatioDefinition d : definitions) {
            d.evaluate(designs).ifPresent(out::add);
        }
        return out;
    }

    /**
     * Each ratio computed in every replicate, then summarised over them ({@link RunResult.DerivedRatio#over}).
     *
     * @param definitions a scenario's derived ratios, in order
     * @param replicates each replicate's design results, in replicate order (at least one)
     * @return those that could be computed in every replicate, in order
     */
    public static List<RunResult.DerivedRatio> overReplicates(
            List<RatioDefinition> definitions, List<List<DesignResult>> replicates) {
        List<RunResult.DerivedRatio> out = new ArrayList<>();
        for (RatioDefinition d : definitions) {
            List<Double> values = new ArrayList<>();
            for (List<DesignResult> designs : replicates) {
                d.evaluate(designs).ifPresent(r -> values.add(r.model()));
            }
            if (!values.isEmpty() && values.size() == replicates.size()) {
                out.add(RunResult.DerivedRatio.over(d.name(), d.seed(), values));
            }
        }
        return out;
    }

    private static Optional<Double> mean(Map<String, DesignResult> byName, MeasureOf m) {
        DesignResult d = byName.get(m.design());
        LatencyRecorder r = d == null ? null : d.recorders().get(m.measure());
        return r == null ? Optional.empty() : Optional.of(r.meanNanos());
    }
}
