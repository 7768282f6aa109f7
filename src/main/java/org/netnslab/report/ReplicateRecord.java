package org.netnslab.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;

/**
 * One replicate of a run as the reports show it: the order its designs ran in and, per design, each
 * measure's mean, the throughput, the counted phase's time and the invariant counters of that
 * replicate alone (result.json schema 2's {@code replicates}).
 *
 * @param index the replicate's number, from 1
 * @param order the designs' names in the order they ran
 * @param designs each design's figures, in the scenario's order
 */
public record ReplicateRecord(int index, List<String> order, List<Design> designs) {

    /**
     * One design in one replicate.
     *
     * @param name the design's name
     * @param means each measure's mean in its unit, by measure name in report order
     * @param throughputPerSec counted operations per second of the counted phase
     * @param wallSeconds wall time of the counted phase, s
     * @param invariants the invariant counters by their result.json names
     * @param clocks the design run's wall and simulated time; null when the file has none
     */
    public record Design(
            String name,
            Map<String, Double> means,
            double throughputPerSec,
            double wallSeconds,
            Map<String, Long> invariants,
            RunResult.Clocks clocks) {
        /** Copies the maps, keeping their order. */
        public Design {
            means = Collections.unmodifiableMap(new LinkedHashMap<>(means));
            invariants = Collections.unmodifiableMap(new LinkedHashMap<>(invariants));
        }

        /** A design whose clocks were not saved. */
        public Design(
                String name,
                Map<String, Double> means,
                double throughputPerSec,
                double wallSeconds,
                Map<String, Long> invariants) {
            this(name, means, throughputPerSec, wallSeconds, invariants, null);
        }
    }

    /** Copies the lists. */
    public ReplicateRecord {
        order = List.copyOf(order);
        designs = List.copyOf(designs);
    }

    /**
     * @param r a replicate of a finished run
     * @return its record
     */
    public static ReplicateRecord of(RunResult.Replicate r) {
        List<Design> designs = new java.util.ArrayList<>();
        for (int i = 0; i < r.designs().size(); i++) {
            designs.add(design(
                    r.designs().get(i), r.clocks().isEmpty() ? null : r.clocks().get(i)));
        }
        return new ReplicateRecord(r.index(), r.order(), designs);
    }

    private static Design design(DesignResult d, RunResult.Clocks clocks) {
        Map<String, Double> means = new LinkedHashMap<>();
        d.recorders().forEach((k, v) -> means.put(k, v.meanNanos() / v.perUnit()));
        return new Design(
                d.name(),
                means,
                d.throughputPerSec(),
                d.wallSeconds(),
                d.invariants().asMap(),
                clocks);
    }
}
