package org.netnslab.scenario;

import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;

/**
 * What one design run gives back, wherever it ran (a lane of {@code --jobs}, a cluster worker).
 *
 * @param result the design's result, under its own name (the sweep's key is applied when merging)
 * @param clocks the run's wall time and, in virtual execution, simulated time and engine events
 */
public record DesignRunOutcome(DesignResult result, RunResult.Clocks clocks) {}
