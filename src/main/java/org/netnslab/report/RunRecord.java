package org.netnslab.report;

import akka.Version;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.MinScale;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.SensitivityResult;

/**
 * One run's results, where the load model ends and the reports start: the console and HTML reports render
 * from this record only, and {@link ResultsFolder} saves it to the output folder and reads it back, so
 * {@code netns-lab report DIR} rebuilds the report a run wrote. Which file saves which part:
 * docs/reading-results.md.
 *
 * @param scenario the scenario's name
 * @param description its one-line description
 * @param seed the kernel thread it reproduces; null when read back and {@code result-extra.json} could
 *     not be read
 * @param scale the {@code --scale} used
 * @param machine where it ran
 * @param started when the run started
 * @param wallSeconds the whole run's wall time, s
 * @param overrides the {@code --set} arguments the run was made with
 * @param designs each design's record, in the scenario's order
 * @param ratios figures derived across measures or designs, each beside the seed's (may be empty)
 * @param comparisons the comparisons between designs
 * @param seedRatios the seed's own ratio b/a by design b (may be empty)
 * @param notes what could not be read back, one sentence each naming the file; empty for a run's own
 *     record. Both reports print them.
 * @param replicates each replicate's own figures, in the order they ran (one for a schema 1 file)
 * @param execution how the run ran (mode, simulated machine, sweep); null when not saved
 * @param sensitivity the run's sensitivity study ({@code --sensitivity N}); null when it had none
 * @param shape the workload's size at the run's scale ({@link RunResult#shape}); null when not saved
 * @param minScale the smallest {@code --scale} the scenario's verdict can judge at, or null for any (and when
 *     {@code result-extra.json} could not be read)
 */
public record RunRecord(
        String scenario,
        String description,
        String seed,
        double scale,
        Machine machine,
        Instant started,
        double wallSeconds,
        List<String> overrides,
        List<DesignRecord> designs,
        List<RunResult.DerivedRatio> ratios,
        List<Comparison> comparisons,
        Map<String, Double> seedRatios,
        List<String> notes,
        List<ReplicateRecord> replicates,
        RunResult.ExecutionInfo execution,
        SensitivityResult sensitivity,
        String shape,
        MinScale minScale) {

    /**
     * @return whether the run's {@code --scale} is below the scenario's {@link MinScale}: its verdict then says so
     *     in place of an agreement with a seed figure or an all-clear
     */
    public boolean belowMinScale() {
        return minScale != null && minScale.excludes(scale);
    }

    /** @return true when this run swept the CPU count (designs keyed {@code <design>@<n>cpu}) */
    public boolean isSweep() {
        return execution != null && execution.sweep();
    }

    /**
     * @param design a design's name, or a sweep's {@code <design>@<n>cpu} key
     * @return the seed's ratio b/a the design is judged against, or null: in a sweep at the count the seed's figures
     *     are judged at only ({@link RunResult.ExecutionInfo#judgesSeedAt})
     */
    public Double seedRatio(String design) {
        Double v = seedRatio(seedRatios, design, isSweep());
        return v != null && execution != null && !execution.judgesSeedAt(cpusOf(design)) ? null : v;
    }

    /**
     * @param design a design's name, or a sweep's {@code <design>@<n>cpu} key
     * @return the CPU count it ran at (a sweep's key's, else the run's one count); -1 when the run does not say
     */
    public int cpusOf(String design) {
        if (isSweep()) {
            return RunResult.ExecutionInfo.cpusOf(design);
        }
        return execution == null || execution.cpus().isEmpty()
                ? -1
                : execution.cpus().get(0);
    }

    /**
     * @param seedRatios seed ratios by design
     * @param design a design's name, or a sweep's {@code <design>@<n>cpu} key
     * @param sweep whether the run is a sweep, whose keys find their design's ratio
     * @return the ratio for {@code design}, or null
     */
    static Double seedRatio(Map<String, Double> seedRatios, String design, boolean sweep) {
        Double v = seedRatios.get(design);
        if (v == null && sweep) {
            v = seedRatios.get(RunResult.ExecutionInfo.designOf(design));
        }
        return v;
    }

    /**
     * The run's two clocks summed over every design run of every replicate.
     *
     * @return wall s, simulated s (NaN live or unknown), simulated events (-1 live or unknown)
     */
    public RunResult.Clocks clocks() {
        double wall = 0;
        double sim = 0;
        long events = 0;
        boolean all = true;
        for (ReplicateRecord rep : replicates) {
            for (ReplicateRecord.Design d : rep.designs()) {
                if (d.clocks() == null) {
                    all = false;
                    continue;
                }
                wall += d.clocks().wallSeconds();
                sim += d.clocks().simulatedSeconds();
                events = events < 0 || d.clocks().simulatedEvents() < 0
                        ? -1
                        : events + d.clocks().simulatedEvents();
            }
        }
        return all ? new RunResult.Clocks(wall, sim, events) : new RunResult.Clocks(wallSeconds, Double.NaN, -1);
    }

    /**
     * The machine a run ran on, as result.json's {@code machine} holds it.
     *
     * @param cpus available processors
     * @param java the Java version
     * @param akka the Akka version
     */
    public record Machine(int cpus, String java, String akka) {
        /** @return this JVM's machine */
        public static Machine current() {
            return new Machine(
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), Version.current());
        }
    }

    /** Copies the collections. */
    public RunRecord {
        overrides = List.copyOf(overrides);
        designs = List.copyOf(designs);
        ratios = List.copyOf(ratios);
        comparisons = List.copyOf(comparisons);
        seedRatios = Map.copyOf(seedRatios);
        notes = List.copyOf(notes);
        replicates = List.copyOf(replicates);
        if (replicates.isEmpty()) {
            throw new IllegalArgumentException("a run has at least one replicate");
        }
    }

    /** @return how many replicates the run had: with one, nothing about the spread between runs is known */
    public int repeat() {
        return replicates.size();
    }

    /**
     * @param r a finished run
     * @param machine where it ran
     * @return its record, without a sensitivity study
     */
    public static RunRecord of(RunResult r, Machine machine) {
        return of(r, null, machine);
    }

    /**
     * @param r a finished run
     * @param sensitivity its sensitivity study, or null
     * @param machine where it ran
     * @return its record
     */
    public static RunRecord of(RunResult r, SensitivityResult sensitivity, Machine machine) {
        return new RunRecord(
                r.scenario(),
                r.description(),
                r.seed(),
                r.scale(),
                machine,
                r.started(),
                r.wallSeconds(),
                r.overrides(),
                r.designs().stream().map(DesignRecord::of).toList(),
                r.ratios(),
                r.comparisons(),
                r.seedRatios(),
                List.of(),
                r.replicates().stream().map(ReplicateRecord::of).toList(),
                r.execution(),
                sensitivity,
                r.shape(),
                r.minScale());
    }
}
