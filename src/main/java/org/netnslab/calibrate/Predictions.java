package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.ScenarioException;

/**
 * The model's predictions of the prediction set: for every contended load the probes measured, the matching scenario
 * (written to {@code DIR/scenario-<load>.conf}, so a user can run it again) runs in virtual time on the calibrated
 * costs and the host's CPU count, and each figure is put beside the measured one with its ratio and a verdict
 * against its band (issue #19): throughput and means within +-25%; p50 and p99 within 2x; the out-of-order share
 * within 2x, and its growth from the smallest to the largest M within 2x of the host's (issue #20 expected growth;
 * this 2-CPU host shows little); listener CPU ratios within +-0.1; loop wall within +-25%, batch size and
 * put-to-free within 2x. The contended uevent loads run several times on the host and are compared by their median
 * ({@link HostFigure}). A miss is a result: {@link Row#whyMissed} says why ({@link MissReasons}). Nothing here feeds
 * back into the costs.
 */
public final class Predictions {
    /**
     * One measured-vs-predicted figure.
     *
     * @param load the load, e.g. "tc1 N=1000"
     * @param measure what is compared, with its unit
     * @param measured the host's figure: the median over the load's runs
     * @param predicted the model's figure
     * @param band the band, e.g. "+-25%", "2x", "+-0.1"
     * @param within whether predicted is inside the band around measured
     * @param whyMissed for a miss, why: the mechanism the model lacks, or what the measurement shows (else empty)
     * @param runs how many times the host ran the load (the median and range are over them)
     * @param low the host's lowest figure over its runs (the measured one when it ran once)
     * @param high the host's highest figure over its runs
     */
    public record Row(
            String load,
            String measure,
            double measured,
            double predicted,
            String band,
            boolean within,
            String whyMissed,
            int runs,
            double low,
            double high) {
        /** A figure the host measured once. */
        public Row(
                String load,
                String measure,
                double measured,
                double predicted,
                String band,
                boolean within,
                String whyMissed) {
            this(load, measure, measured, predicted, band, within, whyMissed, 1, measured, measured);
        }

        /**
         * @param otherBand what the band compares, when its width alone does not say it
         * @return this row with that band
         */
        Row withBand(String otherBand) {
            return new Row(load, measure, measured, predicted, otherBand, within, whyMissed, runs, low, high);
        }

        /** @return predicted / measured */
        public double ratio() {
            return predicted / measured;
        }
    }

    private final Config system;
    private final String design;
    private final int cpus;
    private final Path folder;
    private final PrintStream progress;
    private final java.util.function.Consumer<String> stage;

    /**
     * @param system the configuration with the calibrated costs and the host's design era
     * @param design the era's design name
     * @param cpus the host's CPUs: the simulated machine's
     * @param folder where the generated scenarios go (scenario-<load>.conf)
     * @param progress where a line per model run goes
     * @param stage told which model run runs now (for the line a Ctrl-C prints)
     */
    public Predictions(
            Config system,
            String design,
            int cpus,
            Path folder,
            PrintStream progress,
            java.util.function.Consumer<String> stage) {
        this.system = system;
        this.design = design;
        this.cpus = cpus;
        this.folder = folder;
        this.progress = progress;
        this.stage = stage;
    }

    /**
     * @param predictionSet the prediction-set lines
     * @return a row per compared figure, in the lines' order
     * @throws ScenarioException a generated scenario is invalid (a defect here)
     * @throws RunFailure a model run failed
     * @throws IOException a scenario file cannot be written
     */
    public List<Row> predict(List<ObjectNode> predictionSet) throws ScenarioException, RunFailure, IOException {
        List<Row> rows = new ArrayList<>();
        List<double[]> reorder = new ArrayList<>(); // {M, measured share, predicted share}
        java.util.Set<String> done = new java.util.HashSet<>();
        for (ObjectNode l : predictionSet) {
            String kind = l.path("probe").asText() + "/" + l.path("load").asText();
            switch (kind) {
                case "uevent/tc1", "uevent/reorder", "proc/proc-scan", "lifecycle/unshare-loops" -> {
                    String key = repeatKey(l); // run several times: compared by their median
                    if (done.add(key)) {
                        List<ObjectNode> runs = predictionSet.stream()
                                .filter(r -> repeatKey(r).equals(key))
                                .toList();
                        switch (kind) {
                            case "uevent/tc1" -> tc1(runs, rows);
                            case "uevent/reorder" -> reorder.add(reorder(runs, rows));
                            case "proc/proc-scan" -> scan(runs, rows);
                            default -> loops(runs, rows);
                        }
                    }
                }
                case "proc/listener" -> {} // the three listeners of one run are compared together below
                default -> progress.println("calibrate: no model load for prediction line " + kind + "; skipped");
            }
        }
        List<ObjectNode> listeners = CostFit.select(predictionSet, "proc", "listener");
        if (!listeners.isEmpty()) {
            listeners(listeners, rows);
        }
        if (reorder.size() >= 2) {
            double[] lo = reorder.get(0);
            double[] hi = reorder.get(reorder.size() - 1);
            // Issue #20 expected the share to grow with M; this host's does not, or hardly (1.9%, 0%, 0.9% on
            // 2026-11-30; 4.4%, 4.9%, 5.3% on 2026-12-01), so the row compares the growth itself, largest M over
            // smallest, as the share rows compare the shares: within 2x of the host's
            rows.add(factor(
                            "reorder M=" + (int) lo[0] + ".." + (int) hi[0],
                            "out-of-order share, largest M / smallest M",
                            lo[1] > 0 ? hi[1] / lo[1] : Double.NaN,
                            lo[2] > 0 ? hi[2] / lo[2] : Double.NaN,
                            2,
                            MissReasons.REORDER)
                    .withBand("2x of the host's growth"));
        }
        return rows;
    }

    /**
     * @return what makes two prediction lines runs of the same load: probe, load, and its size (injectors, sends each;
     *     a scan's processes; the loops and their iterations)
     */
    private static String repeatKey(ObjectNode l) {
        return l.path("probe").asText() + "/" + l.path("load").asText() + "/"
                + l.path("injectors").asLong()
                + "/" + l.path("injectors_into_one_netns").asLong() + "/"
                + l.path("sends_per_injector").asLong()
                + "/" + l.path("live_requested").asLong() + "/"
                + l.path("loops").asLong() + "/" + l.path("iterations").asLong();
    }

    private void tc1(List<ObjectNode> runs, List<Row> rows) throws ScenarioException, RunFailure, IOException {
        ObjectNode l = runs.get(0);
        int n = l.path("injectors").asInt();
        long k = l.path("sends_per_injector").asLong();
        String load = "tc1 N=" + n;
        DesignResult d = run("tc1-n" + n, injection(n, n, k));
        MeasureSummary s = d.recorders().get("uevent.transaction").summary();
        long sends = d.recorders().get("uevent.transaction").count();
        // every run must carry the CPU clocks (older recordings have none: then no CPU rows)
        boolean cpuKnown = runs.stream().allMatch(r -> r.has("injector_cpu_ns") && r.has("listener_cpu_ns"))
                && d.counters().containsKey("injector_cpu_us");
        if (!cpuKnown && runs.stream().anyMatch(r -> r.has("injector_cpu_ns"))) {
            progress.println("calibrate: " + load + ": not every run carries injector_cpu_ns and listener_cpu_ns;"
                    + " no CPU rows");
        }
        rows.add(within(
                load,
                "throughput, sends/s",
                HostFigure.field(runs, "throughput_per_s"),
                d.throughputPerSec(),
                0.25,
                cpuKnown && runs.stream().allMatch(r -> r.has("machine_busy_ns"))
                        ? MissReasons.throughput(runs)
                        : MissReasons.THROUGHPUT));
        HostFigure mean = HostFigure.of(runs, r -> r.path("send_mean_ns").asDouble() / 1e3);
        double predictedMean = micros(s, s.mean());
        // too low: it lacks the kernel's tail of preempted sends; too high: where the host's mean lies beyond its p99
        // (carried by that tail) it has more of that tail than this host run, else it counts more waiting for a CPU
        boolean tailCarried = mean.median()
                > HostFigure.of(runs, r -> r.path("send_p99_ns").asDouble() / 1e3)
                        .median();
        rows.add(within(
                load,
                "send mean, us",
                mean,
                predictedMean,
                0.25,
                predictedMean < mean.median()
                        ? MissReasons.TAIL_MEAN
                        : tailCarried ? MissReasons.TAIL_MEAN_HIGH : MissReasons.TIMING));
        for (String[] q : new String[][] {{"p50", "send_p50_ns"}, {"p99", "send_p99_ns"}}) {
            HostFigure measured = HostFigure.of(runs, r -> r.path(q[1]).asDouble() / 1e3);
            double predicted = micros(s, q[0].equals("p50") ? s.p50() : s.p99());
            rows.add(factor(
                    load,
                    "send " + q[0] + ", us",
                    measured,
                    predicted,
                    2,
                    predicted < measured.median() ? MissReasons.SEND_SPREAD : MissReasons.SEND_HIGH));
        }
        if (cpuKnown && sends > 0) { // where the CPU goes: each side's own CPU clock, per message
            rows.add(within(
                    load,
                    "injector CPU per send, us",
                    HostFigure.of(
                            runs,
                            r -> r.path("injector_cpu_ns").asDouble()
                                    / 1e3
                                    / r.path("sends").asDouble()),
                    (double) d.counters().get("injector_cpu_us") / sends,
                    0.25,
                    n >= 1000 ? MissReasons.INJECTOR_CPU_WALK : MissReasons.INJECTOR_CPU));
            rows.add(within(
                    load,
                    "listener CPU per message, us",
                    HostFigure.of(
                            runs,
                            r -> r.path("listener_cpu_ns").asDouble()
                                    / 1e3
                                    / Math.max(1, r.path("received").asDouble())),
                    (double) d.counters().get("listener_cpu_us") / sends,
                    0.25,
                    MissReasons.LISTENER_CPU));
        }
    }

    private double[] reorder(List<ObjectNode> runs, List<Row> rows) throws ScenarioException, RunFailure, IOException {
        ObjectNode l = runs.get(0);
        int m = l.path("injectors_into_one_netns").asInt();
        long k = l.path("sends_per_injector").asLong();
        DesignResult d = run("reorder-m" + m, injection(1, m, k * m));
        long received = d.recorders().get("uevent.delivery").count();
        double predicted = received == 0 ? 0 : (double) d.invariants().seqnumOutOfOrder() / received;
        HostFigure measured = HostFigure.field(runs, "out_of_order_share");
        rows.add(factor("reorder M=" + m, "out-of-order share", measured, predicted, 2, MissReasons.REORDER));
        return new double[] {m, measured.median(), predicted};
    }

    private void listeners(List<ObjectNode> lines, List<Row> rows) throws ScenarioException, RunFailure, IOException {
        long procs = lines.get(0).path("processes").asLong();
        long interval = Math.max(
                0, Math.min(1_000_000_000L, lines.get(0).path("spawn_wall_ns").asLong() / Math.max(1, procs)));
        // and each process's exec this long after its fork, by the kernel's event timestamps (lines since 2026-12-01's
        // fourth session; older ones: fork and exec at once)
        long execDelay = lines.stream()
                .filter(l -> l.has("fork_to_exec_p50_ns"))
                .mapToLong(l -> l.path("fork_to_exec_p50_ns").asLong())
                .findFirst()
                .orElse(0);
        if (execDelay > 0 && 2 * execDelay >= interval) { // the model's exits come half an interval after the forks
            progress.printf(
                    "calibrate: proc listeners: the host's fork-to-exec time (%d ns) is not below half its time per"
                            + " process (%d ns); the model's exec comes with its fork%n",
                    execDelay, interval);
            execDelay = 0;
        }
        String text = header("proc-listeners-" + procs, "proc connector listeners: all events, EXIT only, NONZERO_EXIT")
                + "workload {\n  type = proc-events\n  processes = " + procs + "\n  nonzero-exit-fraction = 0.1\n"
                // the load's shape as the probe made it: one process after another, this far apart
                + "  process-interval = " + interval + "ns\n"
                + (execDelay > 0 ? "  exec-delay = " + execDelay + "ns\n" : "")
                + "  listeners { all = [ALL], exit = [EXIT], nonzero-exit = [NONZERO_EXIT] }\n}\n"
                + "model { proc-connector { listener-rcvbuf = 536870912, listener-rcvbuf-option = so-rcvbufforce } }\n"
                + footer();
        DesignResult d = run("proc-listeners-" + procs, text);
        Map<String, Double> cpu = new java.util.HashMap<>();
        for (ObjectNode l : lines) {
            cpu.put(l.path("filter").asText(), l.path("cpu_ns").asDouble());
        }
        String load = "proc listeners, " + procs + " processes";
        for (String f : List.of("exit", "nonzero-exit")) {
            if (cpu.containsKey(f) && cpu.containsKey("all")) {
                double predicted = busy(d, f) / busy(d, "all");
                double measured = cpu.get(f) / cpu.get("all");
                boolean ok = Math.abs(predicted - measured) <= 0.1;
                rows.add(new Row(
                        load,
                        "listener CPU " + f + " / all",
                        measured,
                        predicted,
                        "+-0.1",
                        ok,
                        ok ? "" : MissReasons.WAKEUP));
            }
        }
    }

    private static double busy(DesignResult d, String listener) {
        LatencyRecorder r = d.recorders().get("proc.listener_busy." + listener);
        return r == null ? Double.NaN : r.sumNanos();
    }

    private void scan(List<ObjectNode> runs, List<Row> rows) throws ScenarioException, RunFailure, IOException {
        ObjectNode l = runs.get(0);
        long entries = Math.round(HostFigure.field(runs, "entries").median());
        String name = "proc-scan-" + l.path("live_requested").asLong();
        String text = header(name, "/proc scans over " + entries + " entries")
                + "workload {\n  type = proc-events\n  processes = 1\n  nonzero-exit-fraction = 0\n  listeners { all = [ALL] }\n}\n"
                + "model { proc-monitor { kind = proc-scan, live-processes = " + entries + ", scans = "
                + l.path("scans").asLong() + " } }\n" + footer();
        DesignResult d = run(name, text);
        // the scan's CPU, not its wall time: on a shared machine the wall time takes in other tasks' slices, which
        // the model's monitor (alone on its simulated CPU) does not have
        rows.add(within(
                "/proc scan, " + entries + " entries",
                "scan CPU, us",
                HostFigure.of(runs, r -> r.path("scan_cpu_p50_ns").asDouble() / 1e3),
                mean(d, "proc.scan"),
                0.25,
                MissReasons.SCAN));
    }

    private void loops(List<ObjectNode> runs, List<Row> rows) throws ScenarioException, RunFailure, IOException {
        ObjectNode l = runs.get(0);
        int loops = l.path("loops").asInt();
        long iters = l.path("iterations").asLong();
        String name = "unshare-loops-" + loops + "x" + iters;
        String text = header(name, loops + " parallel loops of " + iters + " unshare -n /bin/true")
                + ModelRun.churnWorkload(loops, iters)
                + footer();
        DesignResult d = run(name, text);
        String load = loops + " x " + iters + " unshare -n";
        MeasureSummary wall = d.recorders().get("netns.loop_wall").summary();
        rows.add(within(
                load,
                "loop wall, s",
                HostFigure.of(runs, r -> r.path("loop_wall_mean_ns").asDouble() / 1e9),
                micros(wall, wall.mean()) / 1e6,
                0.25,
                MissReasons.LOOPS));
        // as the probe counts it: lifecycles over the time to the last loop's end (the run's counted phase also
        // takes in the frees that follow)
        rows.add(within(
                load,
                "lifecycles/s",
                HostFigure.field(runs, "lifecycles_per_s"),
                loops * iters / (micros(wall, wall.max()) / 1e6),
                0.25,
                MissReasons.LIFECYCLE_RATE));
        // the tracefs figures, each over the runs that have it (a run whose trace was not usable has neither)
        List<ObjectNode> batched =
                runs.stream().filter(r -> r.has("batch_mean_netns")).toList();
        if (!batched.isEmpty()) {
            rows.add(factor(
                    load,
                    "cleanup_net batch, netns",
                    HostFigure.field(batched, "batch_mean_netns"),
                    d.recorders().get("netns.cleanup_batch").summary().mean(),
                    2,
                    MissReasons.LIFECYCLE));
        }
        List<ObjectNode> freed =
                runs.stream().filter(r -> r.has("put_to_free_mean_ns")).toList();
        if (!freed.isEmpty()) {
            rows.add(factor(
                    load,
                    "last put_net to free, ms",
                    HostFigure.of(freed, r -> r.path("put_to_free_mean_ns").asDouble() / 1e6),
                    mean(d, "netns.cleanup") / 1e3,
                    2,
                    MissReasons.LIFECYCLE));
        }
    }

    /** @return a measure's mean in us, whatever unit its recorder keeps */
    private static double mean(DesignResult d, String measure) {
        MeasureSummary s = d.recorders().get(measure).summary();
        return micros(s, s.mean());
    }

    /** @return value, in s's unit, in us */
    static double micros(MeasureSummary s, double value) {
        return switch (s.unit()) {
            case "ns" -> value / 1e3;
            case "us" -> value;
            case "ms" -> value * 1e3;
            case "s" -> value * 1e6;
            default -> throw new IllegalArgumentException("measure unit '" + s.unit() + "' is not a time unit");
        };
    }

    private String injection(int netns, int injectors, long perNetns) {
        return header("inject-" + netns + "-" + injectors, injectors + " injectors into " + netns + " netns")
                + ModelRun.injectionWorkload(netns, injectors, perNetns)
                + footer();
    }

    private static String header(String name, String description) {
        return "# Written by `netns-lab calibrate`: the model's side of one prediction-set load. Run it again with\n"
                + "# ./netns-lab run THIS_FILE --config calibrated.conf (the calibrated.conf beside it)\n"
                + "name = calib-" + name + "\ndescription = \"calibrate prediction: " + description + "\"\n"
                + "seed = \"netns-lab calibrate, prediction set (measured on this host)\"\n";
    }

    private String footer() {
        return ModelRun.footer(cpus, design);
    }

    private DesignResult run(String name, String text) throws ScenarioException, RunFailure, IOException {
        Path file = folder.resolve("scenario-" + name + ".conf");
        stage.accept("model: " + name);
        Files.writeString(file, text);
        long t0 = System.nanoTime();
        RunResult result = ModelRun.run(system, file);
        progress.printf("calibrate: model %s in %.1f s%n", name, (System.nanoTime() - t0) / 1e9);
        return result.designs().get(0);
    }

    private static Row within(
            String load, String measure, double measured, double predicted, double rel, String whyMissed) {
        return within(load, measure, HostFigure.once(measured), predicted, rel, whyMissed);
    }

    private static Row within(
            String load, String measure, HostFigure measured, double predicted, double rel, String whyMissed) {
        boolean ok = Math.abs(predicted / measured.median() - 1) <= rel;
        return new Row(
                load,
                measure,
                measured.median(),
                predicted,
                "+-" + Math.round(rel * 100) + "%",
                ok,
                ok ? "" : whyMissed,
                measured.runs(),
                measured.low(),
                measured.high());
    }

    private static Row factor(
            String load, String measure, double measured, double predicted, double f, String whyMissed) {
        return factor(load, measure, HostFigure.once(measured), predicted, f, whyMissed);
    }

    private static Row factor(
            String load, String measure, HostFigure measured, double predicted, double f, String whyMissed) {
        double r = predicted / measured.median();
        boolean ok = measured.median() > 0 && predicted > 0 && r <= f && r >= 1 / f;
        return new Row(
                load,
                measure,
                measured.median(),
                predicted,
                Math.round(f) + "x",
                ok,
                ok ? "" : whyMissed,
                measured.runs(),
                measured.low(),
                measured.high());
    }
}
