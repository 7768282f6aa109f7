package org.netnslab.run;

import org.netnslab.design.Design;
import org.netnslab.metrics.DesignResult;

/**
 * Runs one design of a workload: sets the model up for it, drives it through the workload's phases,
 * tears it down, checks the invariants and measures. A workload supplies one through
 * {@link org.netnslab.workload.Workload#runner(double)}; {@link ScenarioRunner} calls it once per
 * design, each time with a fresh {@link DesignScope} that it closes afterwards.
 */
@FunctionalInterface
public interface DesignRunner {
    /**
     * @param design the design to run
     * @param scope where the run spawns its actors and runs its streams and phases
     * @return the design's result
     * @throws RunFailure when a model request times out or a phase stalls
     */
    DesignResult run(Design design, DesignScope scope) throws RunFailure;
}
