package org.netnslab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.netnslab.design.Design;
import org.netnslab.scenario.DesignRun;
import org.netnslab.scenario.HeapEstimate;
import org.netnslab.scenario.LoadedRun;
import org.netnslab.scenario.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code validate}: a scenario loaded and checked as {@code run} loads it ({@link LoadedRun#load}), without running
 * it; one line with its shape and heap estimate. Exit 2 on any problem.
 */
@Command(
        name = "validate",
        description = "Check a scenario file (and --set overrides) without running it; exit 2 on any problem.")
final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "scenario file")
    Path file;

    @Option(names = "--set", paramLabel = "PATH=VALUE", description = "override a scenario key")
    List<String> sets = new ArrayList<>();

    @Option(names = "--scale", paramLabel = "F", defaultValue = "1.0", description = "scale to check")
    double scale;

    @Option(names = "--config", paramLabel = "FILE", description = "extra HOCON file over conf/application.conf")
    Path config;

    @Option(names = "--repeat", paramLabel = "N", description = "check as run --repeat N would run it")
    Integer repeat;

    @Option(names = "--sweep", paramLabel = "KEY=A,B,...", description = "check as run --sweep would run it")
    String sweep;

    @Option(names = "--sensitivity", paramLabel = "N", description = "check as run --sensitivity N would run it")
    Integer sensitivity;

    @Option(
            names = "--cluster",
            paramLabel = "HOST:PORT",
            description = "check the coordinator's address, transport and TLS stores as run --cluster would")
    String cluster;

    @Option(names = "--jobs", paramLabel = "N", description = "check as run --jobs N would run it")
    Integer jobs;

    @Override
    public Integer call() {
        // the options of a run's command line too, so that swapping run for validate checks the whole line
        List<String> all = RunCommand.withSweep(sets, sweep);
        LoadedRun loaded = all == null ? null : RunCommand.load(file, all, scale, config, sweep, repeat, sensitivity);
        if (loaded == null) {
            return Main.EXIT_CONFIG;
        }
        if (Jobs.choose(
                        jobs,
                        loaded.scenario(),
                        loaded.system().getBoolean("netns-lab.run.heap-check"),
                        Runtime.getRuntime().maxMemory(),
                        System.err)
                < 1) {
            return Main.EXIT_CONFIG;
        }
        try { // --cluster, or netns-lab.cluster.coordinator of the configuration: what run checks before it starts
            ClusterCommands.Checked c = ClusterCommands.checkCoordinator(cluster, loaded.system(), loaded.scenario());
            if (c != null) { // as run checks it before it starts: another program may hold the port
                org.netnslab.cluster.ClusterConfig.checkCanListen(c.bind(), c.name());
            }
        } catch (IllegalArgumentException e) {
            System.err.println("netns-lab: " + e.getMessage());
            return Main.EXIT_CONFIG;
        }
        Scenario s = loaded.scenario();
        long need = HeapEstimate.mib(HeapEstimate.bytes(s));
        long usable = Runtime.getRuntime().maxMemory() >> 20;
        System.out.printf(
                "%s: OK: scenario %s, %d design(s) %s, %s%s; heap estimate %d MiB of %d MiB usable%s%n",
                file,
                s.name(),
                s.designs().size(),
                s.designs().stream().map(Design::name).toList(),
                s.workload().shape(s.scale()),
                (s.repeat() > 1 ? "; " + s.repeat() + " replicates" : "")
                        + (s.execution().isSweep() ? "; at " + s.execution().cpuCounts() + " CPUs" : "")
                        + (s.sensitivity().samples() > 0
                                ? "; a sensitivity study of " + s.sensitivity().samples() + " sample"
                                        + (s.sensitivity().samples() == 1 ? "" : "s")
                                : "")
                        + runs(DesignRun.plan(s, s.sensitivity().samples()).size()), // the run's own plan
                need,
                usable,
                need > usable // only where netns-lab.run.heap-check = false let it through
                        ? ", more than it: the run may fail with OutOfMemoryError (netns-lab.run.heap-check is off)"
                        : "");
        Design base = s.designs().stream()
                .filter(d -> d.name().equals(s.baseline()))
                .findFirst()
                .orElse(null);
        for (Design d : s.designs()) {
            String same = base == null || d == base ? null : s.sameModelNote(base, d);
            if (same != null) {
                System.err.println("netns-lab: warning: " + same);
            }
        }
        return 0;
    }

    /** @return e.g. {@code "; 1 design run"} or {@code "; 1,200 design runs"} */
    static String runs(int n) {
        return String.format("; %,d design run%s", n, n == 1 ? "" : "s");
    }
}
