package org.netnslab.scenario;

import java.util.List;
import java.util.Map;
import org.netnslab.design.Design;
import org.netnslab.metrics.MinScale;
import org.netnslab.metrics.RatioDefinition;
import org.netnslab.run.Execution;
import org.netnslab.workload.Workload;

/**
 * A validated load-test scenario, ready to run.
 *
 * @param file the scenario file it came from
 * @param name its name
 * @param description one line
 * @param seed the kernel thread it reproduces
 * @param workload the workload
 * @param designs the designs to compare, in order
 * @param baseline the design every other one is compared against
 * @param seedRatios the seed's own ratio of each design's mean over the baseline's on the compared
 *     measure, by design (only designs of this run)
 * @param derivedRatios the seed's other ratios, each of two measures' means (only those whose designs
 *     this run has)
 * @param scale {@code --scale}, &gt; 0
 * @param overrides the {@code --set path=value} arguments applied, in order
 * @param repeat how many replicates to run ({@code repeat} key, {@code --repeat}), &gt;= 1
 * @param execution live or virtual, and the simulated machine
 * @param sensitivity the sensitivity study of the cost block ({@code sensitivity} block, {@code --sensitivity N});
 *     {@link Sensitivity#NONE} for none
 * @param minScale the smallest {@code --scale} its verdict can judge at ({@code min-scale} block), or null for any
 */
public record Scenario(
        String file,
        String name,
        String description,
        String seed,
        Workload workload,
        List<Design> designs,
        String baseline,
        Map<String, Double> seedRatios,
        List<RatioDefinition> derivedRatios,
        double scale,
        List<String> overrides,
        int repeat,
        Execution execution,
        Sensitivity sensitivity,
        MinScale minScale) {

    /**
     * @param n replicates, &gt;= 1
     * @return this scenario run {@code n} times
     */
    public Scenario withRepeat(int n) {
        return copy(n, execution, sensitivity);
    }

    /**
     * @param e how to run
     * @return this scenario run that way
     */
    public Scenario withExecution(Execution e) {
        return copy(repeat, e, sensitivity);
    }

    /**
     * @param study the sensitivity study to run with it
     * @return this scenario with that study
     */
    public Scenario withSensitivity(Sensitivity study) {
        return copy(repeat, execution, study);
    }

    /** @return this scenario with the options a run may change: its replicates, execution and sensitivity study */
    private Scenario copy(int repeat, Execution execution, Sensitivity sensitivity) {
        return new Scenario(
                file,
                name,
                description,
                seed,
                workload,
                designs,
                baseline,
                seedRatios,
                derivedRatios,
                scale,
                overrides,
                repeat,
                execution,
                sensitivity,
                minScale);
    }

    /** Copies the collections. */
    public Scenario {
        if (repeat < 1) {
            throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
        }
        designs = List.copyOf(designs);
        seedRatios = Map.copyOf(seedRatios);
        derivedRatios = List.copyOf(derivedRatios);
        overrides = List.copyOf(overrides);
        sensitivity = sensitivity == null ? Sensitivity.NONE : sensitivity;
    }

    /**
     * @param a a design, the baseline of a comparison
     * @param b another design
     * @return why a comparison of {@code b} with {@code a} measures noise only: they differ in no model key this
     *     workload reads; null when they differ
     */
    public String sameModelNote(org.netnslab.design.Design a, org.netnslab.design.Design b) {
        if (!org.netnslab.design.Strategies.sameIn(a.model(), b.model(), workload.usedModelKeys())) {
            return null;
        }
        return b.name() + " and " + a.name() + " differ in no model key this workload uses ("
                + String.join(", ", new java.util.TreeSet<>(workload.usedModelKeys()))
                + "): the same model here, so their difference is noise, whatever its p-value";
    }
}
