package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which probe runs make the two sets, and running them. The <em>fit set</em> has nothing contending (one task at
 * a time, or one injector and its listener alone): what {@link CostFit} may use. The <em>prediction set</em> is
 * contended (many injectors, listeners at once, 40 loops of {@code unshare -n}): {@link Predictions} compares the
 * model with it and nothing is ever fitted on it. Each part (uevent, proc, lifecycle) can be run alone ({@code --only}).
 *
 * @param fit the fit-set lines, in the order measured
 * @param prediction the prediction-set lines
 */
public record ProbeSet(List<ObjectNode> fit, List<ObjectNode> prediction) {
    /** The parts {@code --only} can name. */
    public static final List<String> PARTS = List.of("uevent", "proc", "lifecycle");
    /** The sleeping processes of the fit set's second /proc scan. */
    static final int SCAN_FIT_LIVE = 1000;

    /** How many times a full calibration runs each contended uevent load (interleaved, so a slow spell of the
     * machine does not take all the runs of one load). */
    static final int RUNS = 3;

    /** The probes' longest wait for a quiet machine before a contended load (probe.h settle), ms. */
    static final long SETTLE_CAP_MS = 5000;

    /** One probe invocation: which set it belongs to, the probe and its arguments. */
    record Step(boolean fitSet, String part, String probe, String... args) {
        String label() {
            return (fitSet ? "fit set" : "prediction set") + ": " + probe + " " + String.join(" ", args);
        }
    }

    /**
     * @param quick the small version (CI): fewer sends, processes and loops; the same kinds of load
     * @param parts the parts to run
     * @return the probe runs, fit set first within each part
     */
    static List<Step> plan(boolean quick, Set<String> parts) {
        List<Step> s = new ArrayList<>();
        // the host's task switch, whatever the parts: every contended load pays it
        s.add(new Step(true, "host", "sched_probe", "ctxsw", quick ? "20000" : "100000"));
        if (parts.contains("uevent")) {
            // the fit's medians move by up to a third between runs on a small VM (where the process lands, what the
            // other
            // vCPU does): the full fit takes its medians over RUNS runs of the walk
            for (int run = 0; run < (quick ? 1 : RUNS); run++) {
                s.add(new Step(
                        true,
                        "uevent",
                        "uevent_probe",
                        "fit",
                        quick ? "0,250,500,1000" : "0,125,250,500,1000",
                        quick ? "500" : "2000"));
                // the sender and its listener as two processes: what a send and a receive cost when the skb crosses
                s.add(new Step(true, "uevent", "uevent_probe", "pair", "-", quick ? "5000" : "20000"));
            }
            s.add(new Step(true, "uevent", "uevent_probe", "wake", "-", quick ? "300" : "2000"));
            // a finished injector's exit and reaping, which the contended loads pay while the others still send
            // 2000 exits (about 0.5 s) so that the kernel threads they wake stand out of the machine's background
            s.add(new Step(true, "uevent", "uevent_probe", "exit", "-", quick ? "200" : "2000"));
            // what a finished injector's socket release, waiting in netlink_table_grab, costs every later broadcast
            for (int run = 0; run < (quick ? 1 : RUNS); run++) {
                s.add(new Step(true, "uevent", "uevent_probe", "waiters", "256", quick ? "5000" : "20000"));
            }
            // the contended uevent loads vary from run to run on a small VM (TC1 N=10: 404k to 527k sends/s in
            // consecutive runs), so each runs RUNS times and is compared by its median (Predictions)
            for (int run = 0; run < (quick ? 1 : RUNS); run++) {
                for (int[] nk : quick
                        ? new int[][] {{10, 500}, {100, 100}}
                        : new int[][] {{10, 5000}, {100, 1000}, {1000, 100}}) {
                    s.add(new Step(
                            false, "uevent", "uevent_probe", "tc1", Integer.toString(nk[0]), Integer.toString(nk[1])));
                }
                for (int m : quick ? new int[] {2, 4} : new int[] {2, 4, 8}) {
                    s.add(new Step(
                            false,
                            "uevent",
                            "uevent_probe",
                            "reorder",
                            Integer.toString(m),
                            Integer.toString((quick ? 2000 : 20000) / m)));
                }
            }
        }
        if (parts.contains("proc")) {
            s.add(new Step(true, "proc", "proc_probe", "fit", quick ? "150" : "500"));
            s.add(new Step(true, "proc", "proc_probe", "pidfd", quick ? "200" : "1000"));
            // a scan's CPU per entry moves by up to a sixth between runs on a small VM (10-14 us): the full set runs
            // the
            // fit's two sizes and the contended sizes RUNS times, each round close together in time, and takes medians
            for (int run = 0; run < (quick ? 1 : RUNS); run++) {
                s.add(new Step(true, "proc", "proc_probe", "scan", "0", "10"));
                // a second size: the marginal CPU of an entry once the task structs no longer stay in cache
                s.add(new Step(true, "proc", "proc_probe", "scan", Integer.toString(SCAN_FIT_LIVE), "10", "fit"));
                if (run == 0) { // once, after the first round's fit scans
                    s.add(new Step(false, "proc", "proc_probe", "listeners", quick ? "1000" : "8000"));
                }
                for (int live : quick ? new int[] {500} : new int[] {2000, 4000, 8000}) {
                    s.add(new Step(false, "proc", "proc_probe", "scan", Integer.toString(live), "5"));
                }
            }
        }
        if (parts.contains("lifecycle")) {
            // the 40 loops' wall moves by a third between runs (3.2 to 4.3 s): the serial fit loop and the parallel
            // loops
            // alternate RUNS times in the full set, fitted and compared by their medians
            for (int run = 0; run < (quick ? 1 : RUNS); run++) {
                s.add(new Step(true, "lifecycle", "netns_probe", "serial", quick ? "30" : "200"));
                s.add(new Step(
                        false, "lifecycle", "netns_probe", "parallel", quick ? "8" : "40", quick ? "10" : "100"));
            }
        }
        return s;
    }

    /**
     * Runs the plan, one probe at a time.
     *
     * @param runner the probe runner
     * @param quick see {@link #plan}
     * @param parts see {@link #plan}
     * @param progress where a line per probe run goes
     * @param stage told what runs now (for the line a Ctrl-C prints)
     * @param busy told how busy the machine was over each probe run
     * @return the lines, by set
     * @throws ProbeException a probe could not run (the lines before it are lost: a calibration is whole)
     * @throws IOException a probe could not be started or read
     */
    static ProbeSet measure(
            ProbeRunner runner,
            boolean quick,
            Set<String> parts,
            PrintStream progress,
            java.util.function.Consumer<String> stage,
            BusyMeter busy)
            throws ProbeException, IOException {
        List<ObjectNode> fit = new ArrayList<>();
        List<ObjectNode> prediction = new ArrayList<>();
        List<Step> steps = plan(quick, parts);
        stage.accept("removing the tracefs instances of killed probes");
        removeStaleTracing(runner, progress);
        int i = 0;
        for (Step step : steps) {
            progress.printf("calibrate: [%d/%d] %s%n", ++i, steps.size(), step.label());
            stage.accept(step.label());
            long t0 = System.nanoTime();
            BusyMeter.Sample before = BusyMeter.sample();
            List<ObjectNode> lines = runner.run(step.probe(), step.args());
            busy.add(step.label(), before, BusyMeter.sample(), (System.nanoTime() - t0) / 1e9);
            (step.fitSet() ? fit : prediction).addAll(lines);
            for (ObjectNode l : lines) {
                if (l.path("settle_ms").asLong() >= SETTLE_CAP_MS) {
                    progress.printf(
                            "calibrate: warning: %s: the machine was not quiet within %d s before this load; its figures"
                                    + " include other work (see the load average)%n",
                            step.label(), SETTLE_CAP_MS / 1000);
                }
            }
            progress.printf("calibrate:        %d line(s) in %.1f s%n", lines.size(), (System.nanoTime() - t0) / 1e9);
        }
        return new ProbeSet(List.copyOf(fit), List.copyOf(prediction));
    }

    /**
     * Removes the tracefs instances of lifecycle probes that were killed (SIGKILL: no handler ran) and so still
     * trace, whatever parts run (netns_probe clean), and says which.
     */
    private static void removeStaleTracing(ProbeRunner runner, PrintStream progress)
            throws ProbeException, IOException {
        for (ObjectNode l : runner.run("netns_probe", "clean")) {
            for (var name : l.path("removed")) {
                progress.println("calibrate: removed the tracefs instance " + name.asText()
                        + ", left tracing by a netns_probe that was killed");
            }
        }
    }
}
