package org.netnslab.cluster;

import org.netnslab.scenario.LoadedRun;

/** Loads a coordinator's run on a worker node the way {@code run} loads its command line. */
@FunctionalInterface
public interface RunLoader {
    /**
     * @param inputs the run's inputs
     * @return the loaded scenario, {@code --repeat} and {@code --sensitivity} applied, or null once what is wrong has
     *     been printed to stderr
     */
    LoadedRun load(RunInputs inputs);
}
