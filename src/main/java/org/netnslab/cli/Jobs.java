package org.netnslab.cli;

import java.io.PrintStream;
import org.netnslab.scenario.DesignRun;
import org.netnslab.scenario.HeapEstimate;
import org.netnslab.scenario.Scenario;

/**
 * {@code run --jobs N}: how many design runs run side by side. Default: the available processors. Live
 * execution keeps one at a time (its figures are the JVM's own threads and timing: two design runs at
 * once would measure each other); virtual execution runs N lanes, each its own actor system and engine,
 * with the figures of one lane. The heap check counts N populations at once (at most one per design run:
 * no more lanes run than there are design runs) and lowers N, saying so, until they fit (the check of one run has already refused a scenario that does not fit once).
 */
final class Jobs {
    private Jobs() {}

    /**
     * @param requested {@code --jobs}, or null for the default
     * @param s the validated scenario
     * @param heapCheck {@code netns-lab.run.heap-check}
     * @param usableHeap the JVM's usable heap, B
     * @param err where the lines saying why N changed go
     * @return the lanes to run, or -1 after printing why {@code requested} is refused
     */
    static int choose(Integer requested, Scenario s, boolean heapCheck, long usableHeap, PrintStream err) {
        if (requested != null && (requested < 1 || requested > 1024)) {
            err.println("netns-lab: --jobs: must be in 1..1024, got " + requested); // said by run and validate alike
            return -1;
        }
        if (!s.execution().isVirtual()) {
            if (requested != null && requested > 1) {
                err.println(
                        "netns-lab: --jobs " + requested + ": live execution runs one design at a time (its figures are"
                                + " the JVM's threads and timing, which a second design run would share); running --jobs 1");
            }
            return 1;
        }
        int jobs = requested != null ? requested : Runtime.getRuntime().availableProcessors();
        int runs = DesignRun.plan(s, s.sensitivity().samples()).size();
        int atOnce = Math.min(jobs, runs); // no more lanes run than there are design runs
        if (heapCheck && atOnce > 1) {
            int fit = HeapEstimate.jobsThatFit(s, atOnce, usableHeap);
            if (fit < atOnce) {
                err.println("netns-lab: --jobs " + jobs + (requested == null ? " (the available processors)" : "")
                        + ": "
                        + (atOnce < jobs ? "the " + runs + " design runs (all there are)" : jobs + " design runs")
                        + " at once need about " + HeapEstimate.mib(HeapEstimate.bytes(s, atOnce)) + " MiB of heap,"
                        + " more than this JVM's usable " + (usableHeap >> 20) + " MiB; running --jobs " + fit
                        + " (about " + HeapEstimate.mib(HeapEstimate.bytes(s, fit)) + " MiB)");
                return fit;
            }
        }
        return jobs;
    }

    /**
     * @param requested {@code --jobs}, or null for the default
     * @param lanes what {@link #choose} chose
     * @param processors the available processors
     * @return where {@code lanes} came from, as the progress display's first line says it: {@code --jobs 4}, or
     *     the default, each with the heap's lowering when there was one
     */
    static String from(Integer requested, int lanes, int processors) {
        String lowered = lanes < (requested != null ? requested : processors) ? ", lowered to what the heap holds" : "";
        return requested != null
                ? "--jobs " + requested + lowered
                : "the default: the available processors, " + processors + lowered + "; --jobs N sets it";
    }
}
