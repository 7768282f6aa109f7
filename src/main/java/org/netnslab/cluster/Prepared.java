package org.netnslab.cluster;

import com.typesafe.config.Config;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;

/**
 * A scenario loaded on a node from {@link RunInputs}, with what running it needs.
 *
 * @param scenario the validated scenario, {@code --repeat} and {@code --sensitivity} applied
 * @param system the node's merged configuration (for the model's actor system)
 * @param settings the runner's settings
 */
public record Prepared(Scenario scenario, Config system, RunSettings settings) {
    /** Loads {@link RunInputs} the way {@code run} loads its command line. */
    @FunctionalInterface
    public interface Loader {
        /**
         * @param inputs the run's inputs
         * @return the loaded scenario, or null once what is wrong has been printed to stderr
         */
        Prepared load(RunInputs inputs);
    }
}
