package org.netnslab.scenario;

import java.util.List;
import org.netnslab.run.RunFailure;

/**
 * Runs a scenario's design runs somewhere else than this JVM's lanes (a cluster's workers,
 * {@code run --cluster}); what it cannot place runs on the local lanes it is given. Each design run is a
 * function of (scenario, scale, the run) alone, so where it ran does not change the figures, and the
 * runner merges the outcomes as it merges its own lanes'. Close it when the run ends, to leave the other nodes.
 */
public interface RunDistributor extends AutoCloseable {
    /** The local lanes, for the design runs left when no other node can take them. */
    @FunctionalInterface
    interface Local {
        /**
         * @param runs design runs of the plan, in plan order
         * @return the outcomes, by {@link DesignRun#index} (an array of the plan's size; only these runs filled)
         * @throws RunFailure when one fails
         */
        DesignRunOutcome[] run(List<DesignRun> runs) throws RunFailure;
    }

    /**
     * @param scenario the validated scenario
     * @param plan every design run, {@link DesignRun#plan} order
     * @param local runs what is left here
     * @return every run's outcome, by {@link DesignRun#index}
     * @throws RunFailure when a design run fails (wherever it ran: a deterministic run fails everywhere)
     */
    DesignRunOutcome[] run(Scenario scenario, List<DesignRun> plan, Local local) throws RunFailure;

    /** Leaves the other nodes; a failure to do so is reported by the distributor, not thrown. */
    @Override
    void close();
}
