package org.netnslab.scenario;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.netnslab.design.Design;
import org.netnslab.design.Strategies;
import org.netnslab.machine.MachineSettings;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.MinScale;
import org.netnslab.metrics.RatioDefinition;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.Execution;

/**
 * A run's result from its design runs' outcomes ({@link DesignRunOutcome}, by {@link DesignRun#index}), whoever
 * ran them: replicates in plan order, each design merged over them, comparisons with the baseline over the
 * replicates' means, and derived ratios; in a CPU sweep, each within one CPU count.
 */
final class RunAssembly {
    private RunAssembly() {}

    /**
     * @param scenario the validated scenario
     * @param plan every design run ({@link DesignRun#plan})
     * @param outcomes their outcomes, by {@link DesignRun#index}
     * @param sample the sensitivity sample whose runs to take; 0 for the base run
     * @param repeat that sample's replicates
     * @param started when the run started
     * @param t0 {@link System#nanoTime()} when it started, for its wall time
     * @param dispatcher the model's dispatcher of a live run; null in virtual execution
     * @return the run's result for that sample
     */
    static RunResult assemble(
            Scenario scenario,
            List<DesignRun> plan,
            DesignRunOutcome[] outcomes,
            int sample,
            int repeat,
            Instant started,
            long t0,
            RunResult.DispatcherInfo dispatcher) {
        Execution execution = scenario.execution();
        boolean sweep = execution.isSweep();
        List<Integer> counts = execution.cpuCounts();
        List<Design> designs = scenario.designs();
        // result keys: the design's name, or <design>@<n>cpu in a sweep; count-major, designs in scenario order
        List<String> keys = new ArrayList<>();
        for (int n : counts) {
            designs.forEach(d -> keys.add(key(d.name(), n, sweep)));
        }
        List<RunResult.Replicate> replicates = new ArrayList<>();
        // per replicate, per count: the designs' results under their own names (what derived ratios name)
        List<Map<Integer, List<DesignResult>>> byCount = new ArrayList<>();
        for (int rep = 0; rep < repeat; rep++) {
            int replicate = rep;
            List<DesignRun> runs = plan.stream()
                    .filter(r -> r.sample() == sample && r.replicate() == replicate)
                    .toList();
            Map<String, DesignResult> results = new LinkedHashMap<>();
            Map<String, RunResult.Clocks> clocks = new LinkedHashMap<>();
            Map<Integer, List<DesignResult>> own = new LinkedHashMap<>();
            for (int n : counts) {
                Map<String, DesignResult> atCount = new LinkedHashMap<>();
                for (DesignRun r : runs) {
                    if (r.cpus() == n) {
                        DesignRunOutcome o = outcomes[r.index()];
                        atCount.put(designs.get(r.design()).name(), o.result());
                        results.put(
                                r.key(),
                                readKeysOnly(
                                        sweep ? renamed(o.result(), r.key()) : o.result(),
                                        scenario.workload().usedModelKeys()));
                        clocks.put(r.key(), o.clocks());
                    }
                }
                own.put(n, designs.stream().map(d -> atCount.get(d.name())).toList());
            }
            replicates.add(new RunResult.Replicate(
                    rep + 1,
                    runs.stream().map(DesignRun::key).toList(),
                    keys.stream().map(results::get).toList(),
                    keys.stream().map(clocks::get).toList()));
            byCount.add(own);
        }
        List<DesignResult> merged = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            merged.add(DesignResult.merge(column(replicates, i)));
        }
        int base = designs.indexOf(designs.stream()
                .filter(d -> d.name().equals(scenario.baseline()))
                .findFirst()
                .orElseThrow());
        List<Comparison> comparisons = new ArrayList<>();
        String m = scenario.workload().comparedMeasure();
        List<RunResult.DerivedRatio> ratios = new ArrayList<>();
        for (int c = 0;
                c < counts.size();
                c++) { // comparisons stay within one CPU count: the baseline at the same count
            int off = c * designs.size();
            for (int i = 0; i < designs.size(); i++) {
                DesignResult b = merged.get(off + i);
                if (i != base
                        && merged.get(off + base).recorders().containsKey(m)
                        && b.recorders().containsKey(m)) {
                    Comparison cmp = Comparison.of(m, column(replicates, off + base), column(replicates, off + i));
                    String same = scenario.sameModelNote(designs.get(base), designs.get(i));
                    if (same != null) {
                        cmp = cmp.withSameModelNote(same);
                    }
                    comparisons.add(cmp);
                }
            }
            int n = counts.get(c);
            for (RunResult.DerivedRatio r : RatioDefinition.overReplicates(
                    scenario.derivedRatios(),
                    byCount.stream().map(own -> own.get(n)).toList())) {
                ratios.add(
                        sweep
                                ? new RunResult.DerivedRatio(
                                        r.name() + " @" + n + "cpu",
                                        r.model(),
                                        r.seed(),
                                        r.replicates(),
                                        r.ciLow(),
                                        r.ciHigh())
                                : r);
            }
        }
        MachineSettings ms = execution.machine();
        return new RunResult(
                scenario.name(),
                scenario.description(),
                scenario.seed(),
                scenario.scale(),
                started,
                (System.nanoTime() - t0) / 1e9,
                merged,
                comparisons,
                scenario.seedRatios(),
                scenario.overrides(),
                ratios,
                replicates,
                new RunResult.ExecutionInfo(
                        execution.mode().name().toLowerCase(Locale.ROOT),
                        counts,
                        sweep,
                        ms.jitter(),
                        ms.randomSeed(),
                        new RunResult.SchedulingInfo(
                                ms.scheduling().scheduler().name().toLowerCase(Locale.ROOT),
                                ms.scheduling().preempt().name().toLowerCase(Locale.ROOT),
                                ms.scheduling().hz(),
                                ms.scheduling().baseSliceNanos(),
                                ms.scheduling().contextSwitchNanos(),
                                ms.scheduling().taskGroup().name().toLowerCase(Locale.ROOT),
                                counts.stream()
                                        .map(n -> ms.scheduling().sliceNanos(n))
                                        .toList(),
                                ms.scheduling().coldSwitch().baseNanos(),
                                ms.scheduling().coldSwitch().evictedNanos(),
                                ms.scheduling().coldSwitch().cachedTasks(),
                                ms.hostBackground().periodNanos(),
                                ms.hostBackground().perNetnsNanos(),
                                ms.hostBackground().doublingNetns()),
                        dispatcher,
                        execution.seedCpus()),
                scenario.workload().shape(scenario.scale()),
                minScale(scenario, execution.mode().name().toLowerCase(Locale.ROOT)));
    }

    /** @return the scenario's minimum scale when it holds for the run's execution mode, else null */
    private static MinScale minScale(Scenario scenario, String mode) {
        MinScale m = scenario.minScale();
        return m == null ? null : m.forMode(mode);
    }

    /** @return the key of a design's results: its name, or {@code <design>@<n>cpu} in a sweep */
    private static String key(String design, int cpus, boolean sweep) {
        return sweep ? RunResult.ExecutionInfo.key(design, cpus) : design;
    }

    private static DesignResult renamed(DesignResult r, String name) {
        return copy(r, name, r.strategies());
    }

    /**
     * @param r a design's result
     * @param groups the model key groups the workload reads ({@code Workload.usedModelKeys})
     * @return it with only the strategies the workload reads: a uevent run does not list proc connector keys
     */
    private static DesignResult readKeysOnly(DesignResult r, Set<String> groups) {
        Map<String, String> read = new LinkedHashMap<>();
        r.strategies().forEach((k, v) -> {
            String g = Strategies.groupOf(k);
            if (g == null || groups.contains(g)) {
                read.put(k, v);
            }
        });
        return copy(r, r.name(), read);
    }

    /** @return {@code r} under {@code name} with {@code strategies}, its figures the same */
    private static DesignResult copy(DesignResult r, String name, Map<String, String> strategies) {
        return new DesignResult(
                name,
                strategies,
                r.recorders(),
                r.throughputPerSec(),
                r.throughputUnit(),
                r.wallSeconds(),
                r.invariants(),
                r.counters(),
                r.throughputSeries());
    }

    /** @return design {@code i}'s result in each replicate, in replicate order */
    private static List<DesignResult> column(List<RunResult.Replicate> replicates, int i) {
        return replicates.stream().map(r -> r.designs().get(i)).toList();
    }
}
