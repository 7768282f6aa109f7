package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which probe runs make the three sets, and running them. The <em>fit set</em> has nothing contending (one task at
 * a time, or one injector and its listener alone): what {@link CostFit} may use. The <em>prediction set</em> is
 * contended, the scale ladder of each kind of load ({@link Ladder}: many injectors, listeners at once, parallel loops
 * of {@code unshare -n}): {@link Predictions} compares the model with it and nothing is ever fitted on it. The
 * <em>unseen</em> shapes ({@link UnseenShapes}) are contended loads drawn at random from the ladder's ranges, each run
 * once: compared as the prediction set is, reported apart, never fitted on and never used to choose anything. Each
 * part (uevent, proc, lifecycle) can be run alone ({@code --only}).
 *
 * @param fit the fit-set lines, in the order measured
 * @param prediction the prediction-set lines (the ladder)
 * @param unseen the unseen shapes' lines ({@code "set": "unseen"}); empty in a recording made before them
 */
public record ProbeSet(List<ObjectNode> fit, List<ObjectNode> prediction, List<ObjectNode> unseen) {
    /**
     * @param fit the fit-set lines
     * @param prediction the prediction-set lines
     */
    public ProbeSet(List<ObjectNode> fit, List<ObjectNode> prediction) {
        this(fit, prediction, List.of());
    }

    /** The parts {@code --only} can name. */
    public static final List<String> PARTS = List.of("uevent", "proc", "lifecycle");
    /** The sleeping processes of the fit set's second /proc scan. */
    static final int SCAN_FIT_LIVE = 1000;

    /** How many times a full calibration runs each contended uevent load (interleaved, so a slow spell of the
     * machine does not take all the runs of one load). */
    static final int RUNS = 3;

    /**
     * How many times a full calibration runs the pair and remote probes, each a fraction of a second: their lines'
     * CPU per message and p99 move by up to a third between runs of one sitting (listener CPU per message 1656-2430 ns
     * in one), and their medians set {@code recv}, {@code wake-listener}, the send's intercept and {@code
     * machine.jitter} for every contended uevent load.
     */
    static final int PAIR_RUNS = 9;

    /** The probes' longest wait for a quiet machine before a contended load (probe.h settle), ms. */
    static final long SETTLE_CAP_MS = 5000;

    /** One probe invocation: which set it belongs to ("fit", "prediction", "unseen"), the probe and its arguments. */
    record Step(String set, String part, String probe, String... args) {
        Step(boolean fitSet, String part, String probe, String... args) {
            this(fitSet ? "fit" : "prediction", part, probe, args);
        }

        String label() {
            return set + (set.equals("unseen") ? " shape" : " set") + ": " + probe + " " + String.join(" ", args);
        }
    }

    /** The walk's sizes beyond {@link UeventFit#CACHED_WALK} extra sockets, where its footprint leaves the caches. */
    static final List<Long> LONG_WALK = List.of(2000L, 4000L, 8000L, 16000L);

    /** {@code --quick}'s: three sizes, one more than the knee and the extra it fits. */
    static final List<Long> QUICK_LONG_WALK = List.of(2000L, 4000L, 8000L);

    /**
     * @param quick whether it is {@code --quick}'s walk
     * @return the walk's extra socket counts, comma separated, as uevent_probe fit takes them (its holder spreads
     *     them over processes within RLIMIT_NOFILE, so no size depends on that limit)
     */
    static String walkSizes(boolean quick) {
        List<Long> sizes =
                new ArrayList<>(quick ? List.of(0L, 250L, 500L, 1000L) : List.of(0L, 125L, 250L, 500L, 1000L));
        sizes.addAll(quick ? QUICK_LONG_WALK : LONG_WALK);
        return String.join(",", sizes.stream().map(String::valueOf).toList());
    }

    /** The idle probe's window, s: about six of our VM's init's one-second bursts. */
    static final long IDLE_SECONDS = 6;

    /**
     * @param ladder the ladder, whose TC1 sizes bound the idle netns
     * @return the idle probe's netns counts, comma separated: 0, then a third, two thirds and all of the largest TC1
     *     N, rounded down to ten (quick: 0, a half and all)
     */
    static String idleSizes(Ladder.Plan ladder) {
        long top = ladder.sizes().get(Ladder.Kind.TC1).stream()
                .mapToLong(Long::longValue)
                .max()
                .orElse(0);
        int parts = ladder.quick() ? 2 : 3;
        List<Long> sizes = new ArrayList<>(List.of(0L));
        for (int p = 1; p <= parts; p++) {
            long k = p == parts ? top : top * p / parts / 10 * 10;
            if (k > 0 && !sizes.contains(k)) {
                sizes.add(k);
            }
        }
        return String.join(",", sizes.stream().map(String::valueOf).toList());
    }

    /** The ring sizes of the full fit set and of {@code --quick}'s, before the host's limits. */
    static final List<Long> RINGS = List.of(2L, 10L, 100L, 300L, 1000L, 3000L);

    static final List<Long> QUICK_RINGS = List.of(2L, 10L, 100L, 1000L);

    /**
     * @param ladder the ladder, whose limits cap the rings as they cap the /proc scans' sleeping processes (one task
     *     and 256 KiB a process, {@link Ladder#held}), and to 2K + 16 descriptors within RLIMIT_NOFILE (hard)
     * @return the ring sizes, comma separated, as sched_probe ring takes them
     */
    static String ringSizes(Ladder.Plan ladder) {
        long cap = Long.MAX_VALUE;
        for (HostLimits.Limit l : ladder.limits().limits()) {
            cap = Math.min(
                    cap,
                    l.name().equals("RLIMIT_NOFILE")
                            ? (l.room() == HostLimits.UNLIMITED ? Long.MAX_VALUE : (l.room() - 16) / 2)
                            : Ladder.held(Ladder.Kind.SCAN, l));
        }
        long max = cap;
        return String.join(
                ",",
                (ladder.quick() ? QUICK_RINGS : RINGS)
                        .stream()
                                .filter(k -> k == 2 || k <= max)
                                .map(String::valueOf)
                                .toList());
    }

    /** Rounds of {@code uevent_probe stop} in a full calibration: its mean over about 0.6 s. */
    static final long STOP_ROUNDS = 200;

    /**
     * @param ladder the prediction set's ladder; {@code ladder.quick()}: the small version (CI), fewer sends,
     *     processes and loops, each load once
     * @param unseen the unseen shapes to run after the sets, those of a part not run left out
     * @param parts the parts to run
     * @return the probe runs, fit set first within each part, the unseen shapes last
     */
    static List<Step> plan(Ladder.Plan ladder, List<UnseenShapes.Shape> unseen, Set<String> parts) {
        boolean quick = ladder.quick();
        Map<Ladder.Kind, List<Long>> sizes = ladder.sizes();
        List<Step> s = new ArrayList<>();
        // the host's task switch, whatever the parts: every contended load pays it
        s.add(new Step(true, "host", "sched_probe", "ctxsw", quick ? "20000" : "100000"));
        // and what a switch-in costs more when others ran since: rings up to as many tasks as the largest TC1 holds
        s.add(new Step(true, "host", "sched_probe", "ring", ringSizes(ladder), quick ? "20000" : "60000"));
        if (parts.contains("uevent")) {
            // the fit's medians move by up to a third between runs on a small VM (where the process lands, what the
            // other vCPU does): the full fit takes its medians over RUNS runs of the walk
            for (int run = 0; run < (quick ? 1 : PAIR_RUNS); run++) {
                if (run < (quick ? 1 : RUNS)) {
                    s.add(new Step(true, "uevent", "uevent_probe", "fit", walkSizes(quick), quick ? "500" : "2000"));
                }
                // the sender and its listener as two processes: what a send and a receive cost when the skb crosses
                s.add(new Step(true, "uevent", "uevent_probe", "pair", "-", quick ? "5000" : "20000"));
                // a lone sender whose skbs a reader frees on the other CPU: the send's spread in the contended loads
                s.add(new Step(true, "uevent", "uevent_probe", "remote", "-", quick ? "5000" : "20000"));
            }
            s.add(new Step(true, "uevent", "uevent_probe", "wake", "-", quick ? "300" : "2000"));
            // the listener's last wake-up, by the stop pipe that ends every TC1 and reorder load
            s.add(new Step(true, "uevent", "uevent_probe", "stop", "-", quick ? "50" : Long.toString(STOP_ROUNDS)));
            // a finished injector's exit and reaping, which the contended loads pay while the others still send
            // 2000 exits (about 0.5 s) so that the kernel threads they wake stand out of the machine's background.
            // Before the idle probe: after its thousands of sleepers have exited, the same 2000 exits made the
            // per-CPU kworkers run 6017 times instead of 10-295 (one sitting), which the fit would charge to the exits
            s.add(new Step(true, "uevent", "uevent_probe", "exit", "-", quick ? "200" : "2000"));
            // what the host runs beside a load for the netns alive, with nothing else running: up to the largest TC1
            s.add(new Step(
                    true,
                    "uevent",
                    "uevent_probe",
                    "idle",
                    idleSizes(ladder),
                    quick ? "2" : Long.toString(IDLE_SECONDS)));
            // what a finished injector's socket release, waiting in netlink_table_grab, costs every later broadcast
            for (int run = 0; run < (quick ? 1 : RUNS); run++) {
                s.add(new Step(true, "uevent", "uevent_probe", "waiters", "256", quick ? "5000" : "20000"));
            }
            // the contended uevent loads vary from run to run on a small VM (TC1 N=10: 404k to 527k sends/s in
            // consecutive runs), so each runs RUNS times and is compared by its median (Predictions)
            for (int run = 0; run < (quick ? 1 : RUNS); run++) {
                for (Ladder.Kind k : List.of(Ladder.Kind.TC1, Ladder.Kind.REORDER)) {
                    for (long size : sizes.get(k)) {
                        s.add(ladderStep("prediction", "uevent", k, size, quick));
                    }
                }
            }
        }
        if (parts.contains("proc")) {
            s.add(new Step(true, "proc", "proc_probe", "fit", quick ? "150" : "500"));
            s.add(new Step(true, "proc", "proc_probe", "pidfd", quick ? "200" : "1000"));
            // a scan's CPU per entry moves by up to a sixth between runs on a small VM (10-14 us), the listeners'
            // exit / all by up to 2x (0.24-0.44 in five runs back to back): the full set runs the fit's two scan
            // sizes and every contended size RUNS times, each round close together in time, and takes medians
            for (int run = 0; run < (quick ? 1 : RUNS); run++) {
                s.add(new Step(true, "proc", "proc_probe", "scan", "0", "10"));
                // a second size: the marginal CPU of an entry once the task structs no longer stay in cache
                s.add(new Step(true, "proc", "proc_probe", "scan", Integer.toString(SCAN_FIT_LIVE), "10", "fit"));
                for (long procs : sizes.get(Ladder.Kind.LISTENERS)) {
                    s.add(ladderStep("prediction", "proc", Ladder.Kind.LISTENERS, procs, quick));
                }
                for (long live : sizes.get(Ladder.Kind.SCAN)) {
                    s.add(ladderStep("prediction", "proc", Ladder.Kind.SCAN, live, quick));
                }
            }
        }
        if (parts.contains("lifecycle")) {
            // the 40 loops' wall moves by a third between runs (3.2 to 4.3 s): the serial fit loop and the parallel
            // loops alternate RUNS times in the full set, fitted and compared by their medians
            for (int run = 0; run < (quick ? 1 : RUNS); run++) {
                s.add(new Step(true, "lifecycle", "netns_probe", "serial", quick ? "30" : "200"));
                for (long loops : sizes.get(Ladder.Kind.LOOPS)) {
                    s.add(ladderStep("prediction", "lifecycle", Ladder.Kind.LOOPS, loops, quick));
                }
            }
        }
        for (UnseenShapes.Shape shape : unseen) {
            String part = part(shape.kind());
            if (parts.contains(part)) {
                s.add(ladderStep("unseen", part, shape.kind(), shape.size(), quick));
            }
        }
        return s;
    }

    /** @return the part that runs a kind of load */
    static String part(Ladder.Kind k) {
        return switch (k) {
            case TC1, REORDER -> "uevent";
            case LISTENERS, SCAN -> "proc";
            case LOOPS -> "lifecycle";
        };
    }

    private static Step ladderStep(String set, String part, Ladder.Kind k, long size, boolean quick) {
        List<String> p = Ladder.probe(k, size, quick);
        return new Step(set, part, p.get(0), p.subList(1, p.size()).toArray(String[]::new));
    }

    /**
     * Runs the plan, one probe at a time.
     *
     * @param runner the probe runner
     * @param ladder see {@link #plan}
     * @param unseen see {@link #plan}
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
            Ladder.Plan ladder,
            List<UnseenShapes.Shape> unseen,
            Set<String> parts,
            PrintStream progress,
            java.util.function.Consumer<String> stage,
            BusyMeter busy)
            throws ProbeException, IOException {
        List<ObjectNode> fit = new ArrayList<>();
        List<ObjectNode> prediction = new ArrayList<>();
        List<ObjectNode> shapes = new ArrayList<>();
        List<Step> steps = plan(ladder, unseen, parts);
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
            switch (step.set()) {
                case "fit" -> fit.addAll(lines);
                case "prediction" -> prediction.addAll(lines);
                default -> { // a shape's line says which set it is in: the probe prints the prediction set's
                    lines.forEach(l -> l.put("set", "unseen"));
                    shapes.addAll(lines);
                }
            }
            // once a probe: its lines (the proc listeners print one a filter) share the one settling before the load
            if (lines.stream().anyMatch(l -> l.path("settle_ms").asLong() >= SETTLE_CAP_MS)) {
                progress.printf(
                        "calibrate: warning: [%d/%d] %s: the machine was not quiet within %d s before this load; its"
                                + " figures include other work (see the load average)%n",
                        i, steps.size(), step.label(), SETTLE_CAP_MS / 1000);
            }
            progress.printf("calibrate:        %d line(s) in %.1f s%n", lines.size(), (System.nanoTime() - t0) / 1e9);
        }
        return new ProbeSet(List.copyOf(fit), List.copyOf(prediction), List.copyOf(shapes));
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
