package org.netnslab.calibrate;

import static java.util.Map.entry;
import static org.netnslab.calibrate.ModelScenario.keys;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.calibrate.Predictions.Row;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.ScenarioException;

/**
 * The proc loads of the prediction set against the model: the proc connector's three listeners (all events, EXIT
 * only, NONZERO_EXIT) and the /proc scans, each run on the model and compared.
 */
final class ProcRows {
    private ProcRows() {}

    /** The scans' workload: one process, one listener; the monitor scans. */
    static final Map<String, Object> SCAN_WORKLOAD = keys(
            entry("type", "proc-events"),
            entry("processes", 1),
            entry("nonzero-exit-fraction", 0),
            entry("listeners", keys(entry("all", List.of("ALL")))));

    /** The listeners' receive queues, large enough that no event is dropped (no ENOBUFS), as the probe's. */
    static final Map<String, Object> LISTENERS_MODEL = keys(entry(
            "proc-connector",
            keys(entry("listener-rcvbuf", 536870912), entry("listener-rcvbuf-option", "so-rcvbufforce"))));

    /**
     * @param procs processes
     * @param intervalNanos between two processes' starts, as the probe spaced them, ns
     * @param execDelayNanos from a process's fork to its exec, ns; 0: both at once
     * @return the listeners' workload: all events, EXIT only, NONZERO_EXIT
     */
    static Map<String, Object> listenersWorkload(long procs, long intervalNanos, long execDelayNanos) {
        Map<String, Object> workload = keys(
                entry("type", "proc-events"),
                entry("processes", procs),
                entry("nonzero-exit-fraction", 0.1),
                entry("exit-after-forks", 0), // proc_probe's parent waits for each child before the next fork
                entry("process-interval", intervalNanos + "ns"));
        if (execDelayNanos > 0) {
            workload.put("exec-delay", execDelayNanos + "ns");
        }
        workload.put(
                "listeners",
                keys(
                        entry("all", List.of("ALL")),
                        entry("exit", List.of("EXIT")),
                        entry("nonzero-exit", List.of("NONZERO_EXIT"))));
        return workload;
    }

    /**
     * @param entries the /proc entries a scan walks
     * @param scans how many scans
     * @return the model block of the /proc-scan monitor
     */
    static Map<String, Object> scanModel(long entries, long scans) {
        return keys(entry(
                "proc-monitor",
                keys(entry("kind", "proc-scan"), entry("live-processes", entries), entry("scans", scans))));
    }

    /**
     * The listeners' CPU, each filtered listener's over the one that takes every event, in the band of a share
     * ({@link Bands#share}: 2x below 0.2, else +-25%): the host's figure is the median of its runs' shares, each
     * run's listeners set against each other.
     *
     * @param lines the listener lines of one process count, a run's lines together (one a filter), in the order the
     *     probe printed them
     * @param rows receives the rows
     */
    static void listeners(PredictionRuns model, List<ObjectNode> lines, List<Row> rows)
            throws ScenarioException, RunFailure, IOException {
        List<Map<String, ObjectNode>> runs = runs(lines);
        long procs = lines.get(0).path("processes").asLong();
        long interval = Math.max(0, Math.min(1_000_000_000L, (long)
                Math.floor( // as a whole ns, as one run's wall over its processes always was
                        RunsFigure.field(lines, "spawn_wall_ns").median() / Math.max(1, procs))));
        // and each process's exec this long after its fork, by the kernel's event timestamps (a line without
        // fork_to_exec_p50_ns: fork and exec at once)
        List<ObjectNode> timed =
                lines.stream().filter(l -> l.has("fork_to_exec_p50_ns")).toList();
        long execDelay = timed.isEmpty()
                ? 0
                : Math.round(RunsFigure.field(timed, "fork_to_exec_p50_ns").median());
        if (execDelay > 0 && 2 * execDelay >= interval) { // the model's exits come half an interval after the forks
            model.progress()
                    .printf(
                            "calibrate: proc listeners: the host's fork-to-exec time (%d ns) is not below half its time"
                                    + " per process (%d ns); the model's exec comes with its fork%n",
                            execDelay, interval);
            execDelay = 0;
        }
        String name = "proc-listeners-" + procs;
        ModelRuns d = model.run(
                name,
                name,
                "proc connector listeners: all events, EXIT only, NONZERO_EXIT",
                listenersWorkload(procs, interval, execDelay),
                LISTENERS_MODEL);
        String load = "proc listeners, " + procs + " processes";
        for (String f : List.of("exit", "nonzero-exit")) {
            double[] shares = runs.stream()
                    .filter(run -> run.containsKey(f) && run.containsKey("all"))
                    .mapToDouble(run -> run.get(f).path("cpu_ns").asDouble()
                            / run.get("all").path("cpu_ns").asDouble())
                    .toArray();
            if (shares.length > 0) {
                rows.add(Bands.share(
                        load,
                        "listener CPU " + f + " / all",
                        RunsFigure.of(shares),
                        d.figure(r -> busy(r, f) / busy(r, "all")),
                        MissReasons.WAKEUP));
            }
        }
    }

    /**
     * @param lines one process count's listener lines, as printed: a run's lines together
     * @return the runs, each its lines by filter: a filter seen again starts the next run
     */
    static List<Map<String, ObjectNode>> runs(List<ObjectNode> lines) {
        List<Map<String, ObjectNode>> runs = new ArrayList<>();
        Map<String, ObjectNode> run = new HashMap<>();
        for (ObjectNode l : lines) {
            String filter = l.path("filter").asText();
            if (run.containsKey(filter)) {
                runs.add(run);
                run = new HashMap<>();
            }
            run.put(filter, l);
        }
        if (!run.isEmpty()) {
            runs.add(run);
        }
        return runs;
    }

    private static double busy(DesignResult d, String listener) {
        LatencyRecorder r = d.recorders().get("proc.listener_busy." + listener);
        return r == null ? Double.NaN : r.sumNanos();
    }

    /**
     * One size of /proc scan: the scan's CPU within +-25%.
     *
     * @param runs the host's runs of the load
     * @param rows receives the row
     */
    static void scan(PredictionRuns model, List<ObjectNode> runs, List<Row> rows)
            throws ScenarioException, RunFailure, IOException {
        ObjectNode l = runs.get(0);
        long entries = Math.round(RunsFigure.field(runs, "entries").median());
        String name = "proc-scan-" + l.path("live_requested").asLong();
        ModelRuns d = model.run(
                name,
                name,
                "/proc scans over " + entries + " entries",
                SCAN_WORKLOAD,
                scanModel(entries, l.path("scans").asLong()));
        // the scan's CPU, not its wall time: on a shared machine the wall time takes in other tasks' slices, which
        // the model's monitor (alone on its simulated CPU) does not have
        rows.add(Bands.within(
                "/proc scan, " + entries + " entries",
                "scan CPU, us",
                RunsFigure.of(runs, r -> r.path("scan_cpu_p50_ns").asDouble() / 1e3),
                d.figure(r -> ModelRun.mean(r, "proc.scan")),
                0.25,
                MissReasons.SCAN));
    }
}
