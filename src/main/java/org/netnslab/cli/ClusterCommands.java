package org.netnslab.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.nio.file.Path;
import java.util.List;
import org.netnslab.cluster.ClusterConfig;
import org.netnslab.cluster.ClusterRuns;
import org.netnslab.cluster.RunInputs;
import org.netnslab.cluster.RunLoader;
import org.netnslab.scenario.LoadedRun;
import org.netnslab.scenario.Scenario;
import org.netnslab.settings.HoconDurations;

/**
 * The command line's side of a cluster: the coordinator that {@code run --cluster HOST:PORT} (or
 * {@code netns-lab.cluster.coordinator}) starts, and how a worker ({@link WorkerCommand}) loads a coordinator's run.
 * See docs/parallel-runs.md.
 */
final class ClusterCommands {
    private ClusterCommands() {}

    /** How long a node stopped by SIGINT or SIGTERM waits for itself to leave the cluster. */
    static final java.time.Duration LEAVE = java.time.Duration.ofSeconds(10);

    /** Prints a cluster line on stderr. */
    static void say(String line) {
        System.err.println("netns-lab: cluster: " + line);
    }

    /**
     * Loads a coordinator's run on this node as {@code run} loads its command line ({@link LoadedRun#load},
     * {@link LoadedRun#withOptions}), what is wrong printed on stderr.
     *
     * @return the loader
     */
    static RunLoader loader() {
        return in -> {
            LoadedRun l = LoadedScenario.orReport(
                    Path.of(in.file()), in.sets(), in.scale(), in.config().isEmpty() ? null : Path.of(in.config()));
            return l == null
                    ? null
                    : l.withOptions(in.repeat() > 0 ? in.repeat() : null, in.samples() > 0 ? in.samples() : null);
        };
    }

    /**
     * @return what a node compares with its peer before a run: the version and a digest of its classes (two builds of
     *     one version from other code make other figures), e.g. {@code netns-lab 0.1.0 (code 3f2a...)}
     */
    static String nodeVersion() {
        return Main.VERSION + " (code " + org.netnslab.cluster.CodeDigest.of() + ")";
    }

    /**
     * Starts the coordinator of {@code run}, or none.
     *
     * @param option {@code --cluster}, or null
     * @param system the merged configuration ({@code netns-lab.cluster.coordinator} when the option is absent)
     * @param scenario the loaded scenario
     * @param inputs the run's inputs
     * @return the coordinator, or null when the run is not a cluster run
     * @throws IllegalArgumentException naming the option or key when the address is bad or refused, or the
     *     scenario runs live
     */
    static ClusterRuns coordinator(String option, Config system, Scenario scenario, RunInputs inputs) {
        Checked c = checkCoordinator(option, system, scenario);
        if (c == null) {
            return null;
        }
        try {
            return ClusterRuns.start(
                    system,
                    c.node(),
                    c.bind(),
                    inputs,
                    nodeVersion(),
                    c.waitForWorkers(),
                    ClusterCommands::say,
                    c.name());
        } catch (ConfigException e) {
            throw new IllegalArgumentException(c.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * A coordinator's checked settings: where it listens, the option or key that said so, its wait for workers, and
     * its node's configuration ({@link ClusterConfig#of}, which opened the TLS stores once).
     */
    record Checked(ClusterConfig.HostPort bind, String name, java.time.Duration waitForWorkers, Config node) {}

    /**
     * What {@link #coordinator} checks before it starts anything: the address and where it came from, virtual
     * execution, loopback or TLS with readable stores, a wait of 0 or more. validate runs it too.
     *
     * @return the checked settings, or null when the run is not a cluster's
     * @throws IllegalArgumentException naming the option or key at fault
     */
    static Checked checkCoordinator(String option, Config system, Scenario scenario) {
        if (option != null && option.isBlank()) {
            throw new IllegalArgumentException(
                    "--cluster: empty address; give the HOST:PORT to coordinate at, e.g. 127.0.0.1:2552");
        }
        String at = option != null ? option : system.getString("netns-lab.cluster.coordinator");
        if (at.isEmpty()) {
            return null;
        }
        String name = option != null ? "--cluster" : "netns-lab.cluster.coordinator";
        if (!scenario.execution().isVirtual()) {
            throw new IllegalArgumentException(
                    name + ": a cluster runs design runs in virtual execution only (live figures"
                            + " are the JVM's own threads and timing, which differ from node to node)");
        }
        ClusterConfig.HostPort bind = ClusterConfig.HostPort.parse(at, name);
        try {
            java.time.Duration wait = HoconDurations.duration(system, "netns-lab.cluster.wait-for-workers");
            // the coordinator's timer: Akka's scheduler takes Int.MaxValue ticks at most (about 24 days at 1 ms)
            java.time.Duration longest = HoconDurations.schedulerLongestDelay(system);
            if (wait.isNegative() || wait.compareTo(longest) > 0) {
                throw new IllegalArgumentException("netns-lab.cluster.wait-for-workers: must be 0 or more and at most "
                        + longest.toDays() + " days (how long the coordinator waits for a first worker; Akka's"
                        + " scheduler takes no longer delay), got " + wait.toMillis() + "ms");
            }
            // loopback, or TLS with its stores
            return new Checked(bind, name, wait, ClusterConfig.of(system, bind, bind, "coordinator", name, name));
        } catch (ConfigException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    /** @return the inputs a worker needs to load {@code run}'s command line */
    static RunInputs inputs(Path file, List<String> sets, double scale, Integer repeat, Integer samples, Path config) {
        return new RunInputs(
                file.toString(),
                sets,
                scale,
                repeat == null ? 0 : repeat,
                samples == null ? 0 : samples,
                config == null ? "" : config.toString());
    }
}
