package org.netnslab.scenario;

import java.util.List;
import org.netnslab.design.Design;
import org.netnslab.settings.ConfigProblem;
import org.netnslab.workload.PopulationBytes;

/**
 * The up-front heap check: a scenario whose population does not fit the JVM's heap is refused before it
 * runs ({@code validate} too), instead of dying with OutOfMemoryError part-way.
 *
 * <p>Estimate = {@link #BASE_BYTES} + {@link #SAFETY} x the workload's population bytes
 * ({@link org.netnslab.workload.Workload#populationHeapBytes}, from the measured figures of
 * {@link PopulationBytes}). The factor covers what the figures leave out: messages in flight, queued
 * deliveries, recorders filling, and the free heap the garbage collector needs to keep up.
 */
public final class HeapEstimate {
    private HeapEstimate() {}

    /** Multiplies the population's measured bytes. */
    public static final double SAFETY = 2.0;
    /** The JVM, Akka and the program with no population, B (measured: 14 MB with 2000 netns; rounded up). */
    public static final long BASE_BYTES = 64L << 20;

    /**
     * @param s a validated scenario
     * @return the heap its largest design run needs, B
     */
    public static long bytes(Scenario s) {
        return bytes(s, 1);
    }

    /**
     * @param s a validated scenario
     * @param jobs design runs at once ({@code run --jobs}), &gt;= 1: each holds its own population
     * @return the heap that many of its largest design runs need side by side, B: the base once, the
     *     population's share {@code jobs} times
     */
    public static long bytes(Scenario s, int jobs) {
        return BASE_BYTES
                + Math.max(1, jobs) * Math.round(SAFETY * s.workload().populationHeapBytes(s.scale(), cpus(s)));
    }

    /** @return the most per-CPU slots a netns's counters have in any design of {@code s} */
    private static int cpus(Scenario s) {
        int machineCpus = s.execution().isVirtual()
                ? s.execution().cpuCounts().stream().max(Integer::compare).orElse(1)
                : Runtime.getRuntime().availableProcessors();
        int cpus = 1;
        for (Design d : s.designs()) {
            int slots = d.model().sockInuse().cpus();
            cpus = Math.max(cpus, slots == 0 ? machineCpus : slots);
        }
        return cpus;
    }

    /**
     * Refuses a scenario that does not fit, for a JVM whose usable heap is its -Xmx.
     *
     * @param s a validated scenario
     * @param maxHeap the heap the run would have, B
     * @throws ScenarioException see {@link #check(Scenario, long, long, List)}
     */
    public static void check(Scenario s, long maxHeap) throws ScenarioException {
        check(s, maxHeap, maxHeap, List.of());
    }

    /**
     * Refuses a scenario that does not fit.
     *
     * @param s a validated scenario
     * @param usableHeap the heap the run would have, B ({@link Runtime#maxMemory()}: with ParallelGC about 89%
     *     of -Xmx, one survivor space left out)
     * @param xmx the JVM's -Xmx (MaxHeapSize), B
     * @param otherOptions the JVM's other -X options (e.g. -XX:+UseParallelGC), kept in the suggestion since
     *     NETNS_LAB_JAVA_OPTS replaces the launcher's options and the collector changes the usable share; with no
     *     collector among them, the launcher's -XX:+UseParallelGC is added
     * @throws ScenarioException naming the estimate, the usable heap and -Xmx, and an -Xmx that fits, when the
     *     estimate exceeds {@code usableHeap}
     */
    public static void check(Scenario s, long usableHeap, long xmx, List<String> otherOptions)
            throws ScenarioException {
        long need = bytes(s);
        if (need <= usableHeap) {
            return;
        }
        double usableShare = xmx > 0 ? Math.min(1.0, (double) usableHeap / xmx) : 1.0;
        long suggestGiB = Math.max(2, (long) Math.ceil(need / usableShare / (1L << 30)));
        List<String> suggested = new java.util.ArrayList<>(List.of("-Xmx" + suggestGiB + "g"));
        suggested.addAll(otherOptions);
        if (otherOptions.stream().noneMatch(o -> o.matches("-XX:\\+Use\\w*GC"))) {
            suggested.add("-XX:+UseParallelGC"); // the launcher's collector, which the variable would replace
        }
        String options = String.join(" ", suggested);
        long physical = physicalMemory();
        String lower = s.workload().populationAdvice(s.scale(), cpus(s));
        String advice = physical > 0 && suggestGiB << 30 > physical
                ? "more than this machine's " + mib(physical) / 1024 + " GiB of memory could give: " + lower
                : "raise it, e.g. NETNS_LAB_JAVA_OPTS=\"" + options + "\" ./netns-lab run ..., or " + lower;
        throw new ScenarioException(List.of(new ConfigProblem(
                s.file(),
                -1,
                "workload",
                "scenario " + s.name() + " at --scale " + ScenarioLoader.typed(s.scale()) + " ("
                        + s.workload().shape(s.scale()) + ") needs about "
                        + mib(need) + " MiB of heap (" + SAFETY + " x the population's measured bytes + "
                        + mib(BASE_BYTES)
                        + " MiB), more than this JVM's usable heap of " + (usableHeap >> 20) + " MiB (-Xmx" + mib(xmx)
                        + "m): " + advice + " (netns-lab.run.heap-check = false runs it anyway)")));
    }

    /**
     * How many design runs of {@code s} fit side by side in the heap ({@code run --jobs}).
     *
     * @param s a validated scenario
     * @param jobs design runs asked for at once, &gt;= 1
     * @param usableHeap the heap the run would have, B
     * @return the largest count in 1..{@code jobs} whose estimate fits; 1 when even one does not (the check of
     *     one run, {@link #check}, refuses that case)
     */
    public static int jobsThatFit(Scenario s, int jobs, long usableHeap) {
        int n = Math.max(1, jobs);
        while (n > 1 && bytes(s, n) > usableHeap) {
            n--;
        }
        return n;
    }

    /** @return the machine's physical memory, B, or 0 when the JVM does not say */
    private static long physicalMemory() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize()
                : 0;
    }

    /**
     * @param bytes a size, B
     * @return it in MiB, rounded up (as every message of the check gives an estimate; the usable heap is
     *     rounded down, so an estimate over it never reads as the same figure)
     */
    public static long mib(long bytes) {
        return (bytes + (1L << 20) - 1) >> 20;
    }
}
