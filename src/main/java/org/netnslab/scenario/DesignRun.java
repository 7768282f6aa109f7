package org.netnslab.scenario;

import java.util.ArrayList;
import java.util.List;
import org.netnslab.metrics.ReplicateOrder;
import org.netnslab.metrics.RunResult;

/**
 * One design run of a scenario: one design, in one replicate, at one CPU count of a sweep, at one
 * sensitivity sample. The unit that {@code --jobs} runs side by side and a cluster hands to its workers:
 * a design run is a function of (scenario, scale, this record) alone (its own actor system or a fresh
 * machine, {@code random-seed + replicate}), so where and when it runs does not change its figures.
 *
 * @param index its place in {@link #plan}'s order, from 0: the order {@code --jobs 1} runs them in
 * @param replicate the replicate, from 0
 * @param cpus the simulated CPU count it runs at
 * @param design the design's index in {@link Scenario#designs()}
 * @param sample the sensitivity sample, from 1; 0 for the base run (the scenario's own costs)
 * @param key its result's key: the design's name, or {@code <design>@<n>cpu} in a sweep
 */
public record DesignRun(int index, int replicate, int cpus, int design, int sample, String key) {

    /**
     * Every design run of a scenario, in the order one lane runs them: the base run's replicates, each at
     * every CPU count (in the order given) with the designs rotated ({@link ReplicateOrder}), then each
     * sensitivity sample (one replicate, seeded as the base run's first) likewise.
     *
     * @param s a validated scenario
     * @param samples sensitivity samples, 0 for none
     * @return the runs, {@link #index} = position
     */
    public static List<DesignRun> plan(Scenario s, int samples) {
        List<DesignRun> runs = new ArrayList<>();
        boolean sweep = s.execution().isSweep();
        for (int sample = 0; sample <= samples; sample++) {
            int reps = sample == 0 ? s.repeat() : 1;
            for (int rep = 0; rep < reps; rep++) {
                for (int n : s.execution().cpuCounts()) {
                    for (int i : ReplicateOrder.of(s.designs().size(), rep)) {
                        String name = s.designs().get(i).name();
                        runs.add(new DesignRun(
                                runs.size(), rep, n, i, sample, sweep ? RunResult.ExecutionInfo.key(name, n) : name));
                    }
                }
            }
        }
        return List.copyOf(runs);
    }

    /**
     * @param s the scenario
     * @param samples the run's sensitivity samples
     * @return what a progress line calls this run when several run at once: the key, the replicate (when
     *     there are several) and the sample
     */
    public String label(Scenario s, int samples) {
        StringBuilder b = new StringBuilder(key);
        if (sample == 0 && s.repeat() > 1) {
            b.append(", replicate ").append(replicate + 1).append('/').append(s.repeat());
        }
        if (sample > 0) {
            b.append(", sample ").append(sample).append('/').append(samples);
        }
        return b.toString();
    }
}
