package org.netnslab.workload;

import java.util.List;
import org.netnslab.run.DesignRunner;

/**
 * A scenario's workload: what its {@code workload.type} asks for. Each type lives in its own package
 * with its runner and its analysis ({@code injection}, {@code churn}, {@code procevents}, {@code soak},
 * {@code scale}); the rest of
 * the program reaches it only through these methods.
 */
public interface Workload {
    /**
     * @return every measure name its runs can record, as named in result.json (a derived ratio may name only
     *     these), the one comparisons between designs are made on first
     */
    List<String> measures();

    /** @return the measure comparisons between designs are made on: the first of {@link #measures()} */
    default String comparedMeasure() {
        return measures().get(0);
    }

    /**
     * @param scale the run's {@code --scale}, &gt; 0
     * @return a runner for the workload at that scale, called once per design
     */
    DesignRunner runner(double scale);

    /**
     * @param scale the run's {@code --scale}, &gt; 0
     * @return the workload's size at that scale in a few words, e.g. {@code 40 workers x 10 iterations}
     */
    String shape(double scale);

    /**
     * The heap the workload's population needs while every netns, listener and injector of one design run is
     * alive, before {@link org.netnslab.workload.PopulationBytes}'s safety factor: the population times the
     * measured bytes per object ({@link org.netnslab.workload.PopulationBytes} holds the figures).
     *
     * @param scale the run's {@code --scale}, &gt; 0
     * @param cpus per-CPU slots of each netns's counters
     * @return bytes; 0 for a workload with no population of its own
     */
    default long populationHeapBytes(double scale, int cpus) {
        return 0;
    }

    /**
     * What to lower when the population does not fit the heap, for the heap check's message.
     *
     * @param scale the run's {@code --scale}
     * @param cpus per-CPU slots of each netns's counters
     * @return e.g. "lower --scale or the population"; a workload whose population --scale does not shrink says so
     *     and names its largest part's key
     */
    default String populationAdvice(double scale, int cpus) {
        return "lower --scale or the population";
    }

    /**
     * @return the fault switches ({@code model.faults.*}) its runs can take: a switch outside them is refused, for
     *     {@link #faultRefusal}'s reason (netns-scale would stall on one, proc-events applies none); all by default
     */
    default java.util.Set<org.netnslab.fault.FaultSwitch> faultSwitches() {
        return java.util.EnumSet.allOf(org.netnslab.fault.FaultSwitch.class);
    }

    /**
     * @param design one of the run's designs
     * @return empty when the design records {@link #comparedMeasure}, else why not (e.g. "its proc-monitor.kind is
     *     pidfd"): a seed ratio of such a design could never be judged
     */
    default java.util.Optional<String> withoutComparedMeasure(org.netnslab.design.Design design) {
        return java.util.Optional.empty();
    }

    /**
     * @param design one of the run's designs
     * @param measure one of {@link #measures}
     * @return empty when the design's runs record {@code measure} (or may), else why they never do: a derived ratio of
     *     it could never be shown
     */
    default java.util.Optional<String> withoutMeasure(org.netnslab.design.Design design, String measure) {
        return java.util.Optional.empty();
    }

    /**
     * @param f a switch outside {@link #faultSwitches}
     * @return why it is refused, said after "a TYPE run", e.g. "would stall on it (...)"
     */
    default String faultRefusal(org.netnslab.fault.FaultSwitch f) {
        return "would stall on it (it waits for every listener's delivery and every request's answer)";
    }

    /**
     * @param f a switch of {@link #faultSwitches}
     * @param every its every-Nth count, above 0
     * @return why this count is refused, said after "a TYPE run" (it could never finish with it); null: taken
     */
    default String faultCountRefusal(org.netnslab.fault.FaultSwitch f, int every) {
        return null;
    }

    /**
     * The model keys the workload's runs read, as groups of {@link org.netnslab.design.Strategies#GROUPS}
     * (e.g. {@code uevent}, {@code costs.netns}): two designs equal in every one of them are the same model for
     * this workload, and a comparison between them measures noise only.
     *
     * @return the groups; the default, every group
     */
    default java.util.Set<String> usedModelKeys() {
        return org.netnslab.design.Strategies.GROUPS.keySet();
    }
}
