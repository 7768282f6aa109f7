package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a probe line must hold before the fit or the model may use it: each (probe, load) kind's fields, each a
 * finite number in its range. The ranges are the probes' own bounds (N at most 10,000 injectors, 100,000
 * processes or lifecycles...), so a hand-edited calibration.json cannot make the model run a load no probe could
 * have measured. Lines from the probes are checked too: a line the fit cannot use is a probe defect, said at once.
 */
public final class ProbeLines {
    /** A required numeric field and its range. */
    record Field(String name, double min, double max) {}

    static final double NS = 1e13; // ~3 hours in ns: above any probe's bound

    private static final Map<String, List<Field>> FIELDS = Map.ofEntries(
            Map.entry(
                    "sched/context-switch",
                    List.of(new Field("rounds", 1, 100_000_000), new Field("context_switch_p50_ns", -NS, NS))),
            Map.entry(
                    "sched/ring",
                    List.of(
                            new Field("tasks", 2, 20_000),
                            new Field("hop_p50_ns", 0, NS),
                            new Field("hop_min_ns", 0, NS))),
            Map.entry(
                    "uevent/broadcast-walk",
                    List.of(
                            new Field("extra_sockets", 0, 100_000),
                            new Field("send_p50_ns", 1, NS),
                            new Field("send_p99_ns", 1, NS),
                            new Field("recv_p50_ns", 0, NS),
                            new Field("user_p50_ns", 0, NS))),
            Map.entry("uevent/wake", List.of(new Field("send_p50_ns", 1, NS))),
            Map.entry("uevent/remote", List.of(new Field("sends", 1, 1_000_000))),
            Map.entry(
                    "uevent/stop",
                    List.of(
                            new Field("rounds", 1, 1000),
                            new Field("stop_cpu_count", 1, 1000),
                            new Field("stop_cpu_mean_ns", 0, NS))),
            Map.entry(
                    "uevent/idle",
                    List.of(
                            new Field("netns", 0, 20_000),
                            new Field("window_ns", 1, NS),
                            new Field("machine_busy_ns", 0, NS))),
            Map.entry(
                    "uevent/exit",
                    List.of(
                            new Field("children", 1, 10_000),
                            new Field("exit_p50_ns", 0, NS),
                            new Field("reap_p50_ns", 0, NS))),
            Map.entry("uevent/waiters", List.of(new Field("closers", 1, 2000), new Field("sends", 2000, 50_000))),
            Map.entry(
                    "uevent/pair",
                    List.of(
                            new Field("injectors", 1, 1),
                            new Field("sends", 1, 50_000_000),
                            new Field("injector_cpu_ns", 0, NS),
                            new Field("listener_cpu_ns", 0, NS),
                            new Field("listener_wakeups", 0, 1e10),
                            new Field("send_p50_ns", 1, NS))),
            Map.entry(
                    "uevent/tc1",
                    List.of(
                            new Field("injectors", 1, 10_000),
                            new Field("sends_per_injector", 1, 1_000_000),
                            new Field("sends", 1, 50_000_000),
                            new Field("throughput_per_s", 1e-9, 1e12),
                            new Field("send_mean_ns", 1, NS),
                            new Field("send_p50_ns", 1, NS),
                            new Field("send_p99_ns", 1, NS))),
            Map.entry(
                    "uevent/reorder",
                    List.of(
                            new Field("injectors_into_one_netns", 1, 1000),
                            new Field("sends_per_injector", 1, 1_000_000),
                            new Field("sends", 1, 50_000_000),
                            new Field("out_of_order_share", 0, 1))),
            Map.entry(
                    "proc/listener",
                    List.of(
                            new Field("processes", 1, 100_000),
                            new Field("spawn_wall_ns", 0, NS),
                            new Field("events", 0, 1e9),
                            new Field("wakeups", 0, 1e9),
                            new Field("cpu_ns", 0, NS))),
            Map.entry(
                    "proc/pidfd",
                    List.of(
                            new Field("processes", 1, 100_000),
                            new Field("pidfd_fork_cpu_p50_ns", 0, NS),
                            new Field("pidfd_exit_cpu_p50_ns", 0, NS))),
            Map.entry(
                    "proc/proc-scan",
                    List.of(
                            new Field("live_requested", 0, 100_000),
                            new Field("entries", 1, 1_000_000),
                            new Field("scans", 1, 1000),
                            new Field("scan_mean_ns", 0, NS),
                            new Field("scan_cpu_p50_ns", 0, NS))),
            Map.entry(
                    "lifecycle/unshare-loops",
                    List.of(
                            new Field("loops", 1, 1000),
                            new Field("iterations", 1, 100_000),
                            new Field("lifecycles", 1, 100_000),
                            new Field("loop_wall_mean_ns", 1, NS),
                            new Field("lifecycles_per_s", 1e-9, 1e9),
                            new Field("unshare_cpu_p50_ns", 0, NS),
                            new Field("child_cpu_p50_ns", 0, NS))));

    /** Fields checked only when present: the lifecycle's tracefs figures; the uevent loads' CPU clocks, machine
     * times and settling, the listeners' sleeps, a send's p99 (required of tc1 and walk lines; the walk's spread fits machine.jitter), the unshare loop's own CPU
     * per iteration, its CPU means (the lifecycle fit takes them), a proc listener's fork-to-exec time and a TC1 line's injector
     * preemptions and ends by quarter (a recording made before the probes measured one has none). A waiters line's own figures are checked
     * by {@link #waiters}, an exit line's kernel threads by {@link #exitKthreads}. */
    private static final List<Field> OPTIONAL = List.of(
            new Field("batch_mean_netns", 1e-9, 1e6),
            new Field("put_to_free_mean_ns", 0, NS),
            new Field("injector_cpu_ns", 0, NS),
            new Field("listener_cpu_ns", 0, NS),
            new Field("received", 0, 1e10),
            new Field("listener_overruns", 0, 1e10),
            new Field("machine_busy_ns", 0, NS),
            new Field("machine_idle_ns", 0, NS),
            new Field("machine_steal_ns", 0, NS),
            new Field("settle_ms", -1, 1e7),
            new Field("listener_sleeps", 0, 1e10),
            new Field("send_p99_ns", 1, NS),
            new Field("parent_cpu_p50_ns", 0, NS),
            new Field("unshare_cpu_mean_ns", 0, NS),
            new Field("child_cpu_mean_ns", 0, NS),
            new Field("parent_cpu_mean_ns", 0, NS),
            new Field("fork_to_exec_p50_ns", 0, NS),
            new Field("injector_preemptions", 0, 1e10),
            new Field("injector_ends_q1", 0, 1e7),
            new Field("injector_ends_q2", 0, 1e7),
            new Field("injector_ends_q3", 0, 1e7),
            new Field("injector_ends_q4", 0, 1e7));

    private static final Set<String> FILTERS = Set.of("all", "exit", "nonzero-exit");

    /** The contended loads the model predicts: the only kinds a prediction or unseen line may be. */
    private ProbeLines() {}

    /**
     * @param set the sets
     * @return null when every line is usable, else what is wrong with the first that is not, e.g.
     *     {@code fit_set[3] (uevent broadcast-walk): send_p50_ns must be a number in 1..1e13, got -5}
     */
    public static String problem(ProbeSet set) {
        String p = problem("fit_set", "fit", set.fit());
        p = p != null ? p : problem("prediction_set", "prediction", set.prediction());
        return p != null ? p : problem("unseen_set", "unseen", set.unseen());
    }

    /** @return a line's fields, each number by its value (50000 and 50000.0 are one figure), the rest as written */
    private static Map<String, String> figures(ObjectNode l) {
        Map<String, String> f = new java.util.TreeMap<>();
        l.fields()
                .forEachRemaining(e -> f.put(
                        e.getKey(),
                        e.getValue().isNumber()
                                ? Double.toString(e.getValue().asDouble())
                                : e.getValue().toString()));
        return f;
    }

    private static String problem(String array, String expectedSet, List<ObjectNode> lines) {
        Map<Map<String, String>, Integer> seen = new java.util.HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            ObjectNode l = lines.get(i);
            String kind = l.path("probe").asText() + "/" + l.path("load").asText();
            String where = array + "[" + i + "] (" + kind.replace('/', ' ') + ")";
            Integer twin = seen.putIfAbsent(figures(l), i);
            if (twin != null) { // two runs never time alike to the ns: a copied line would count as another run
                return where + ": repeats " + array + "[" + twin + "] to the last figure: each probe line is one run";
            }
            for (String key : List.of("probe", "load")) {
                if (!l.path(key).isTextual() || l.path(key).asText().isBlank()) {
                    return array + "[" + i + "]." + key + ": each probe line names its " + key + " (a string), got "
                            + (l.has(key) ? l.get(key).toString() : "none");
                }
            }
            List<Field> fields = FIELDS.get(kind);
            if (fields == null) {
                return where + ": not a line any probe prints (probe and load: "
                        + String.join(", ", new java.util.TreeSet<>(FIELDS.keySet())) + ")";
            }
            if (!expectedSet.equals(l.path("set").asText())) {
                return where + ": its set is '" + l.path("set").asText() + "', not '" + expectedSet + "'";
            }
            String misfit = expectedSet.equals("fit") ? RecordingCheck.notAFitLoad(kind, l) : null;
            if (misfit != null) {
                return where + ": " + misfit;
            }
            if (!expectedSet.equals("fit") && !RecordingCheck.CONTENDED.contains(kind)) {
                return where + ": a fit-set line, which the model does not predict (a prediction or unseen line is one"
                        + " of " + String.join(", ", new java.util.TreeSet<>(RecordingCheck.CONTENDED)) + ")";
            }
            for (Field f : fields) {
                String bad = check(l.get(f.name()), f);
                if (bad != null) {
                    return where + ": " + bad;
                }
            }
            for (Field f : OPTIONAL) {
                if (l.has(f.name())) {
                    String bad = check(l.get(f.name()), f);
                    if (bad != null) {
                        return where + ": " + bad;
                    }
                }
            }
            if (kind.equals("uevent/tc1") && l.has("listener_cpu_ns") && !l.has("received")) {
                return where + ": received is missing: its listener CPU is per message received";
            }
            if (kind.equals("uevent/tc1")
                    && l.has("received")
                    && l.path("received").asDouble() < 1) {
                return where + ": received (" + l.get("received") + ") must be at least 1: every tc1 listener"
                        + " receives its netns's sends";
            }
            if (kind.equals("proc/listener")
                    && !FILTERS.contains(l.path("filter").asText())) {
                return where + ": filter must be one of " + FILTERS + ", got " + l.get("filter");
            }
            String badListener = RecordingCheck.badListener(kind, expectedSet, l);
            if (badListener != null) {
                return where + ": " + badListener;
            }
            // a listener wakes, or starts a drain, only for a message: never more often than the messages sent
            for (String key : List.of("listener_wakeups", "listener_sleeps")) {
                if (l.has(key)
                        && l.has("sends")
                        && l.path(key).asDouble() > l.path("sends").asDouble()) {
                    return where + ": " + key + " (" + l.get(key) + ") cannot exceed sends (" + l.get("sends") + ")";
                }
            }
            // the probe's processes run one after another: a process's exec comes before the next one's fork, so
            // the gaps at or above their median (half of them at least) fit in the spawn's wall time
            if (kind.equals("proc/listener") && l.has("fork_to_exec_p50_ns")) {
                double gaps = Math.ceil(l.path("fork_to_exec_count")
                                .asDouble(l.path("processes").asDouble())
                        / 2);
                if (l.path("fork_to_exec_p50_ns").asDouble() * gaps
                        > l.path("spawn_wall_ns").asDouble()) {
                    return where + ": fork_to_exec_p50_ns (" + l.get("fork_to_exec_p50_ns")
                            + ") cannot exceed the line's time per half of its processes (spawn_wall_ns / "
                            + (long) gaps + " = "
                            + Math.round(l.path("spawn_wall_ns").asDouble() / Math.max(1, gaps))
                            + "): at least half its fork-to-exec gaps are as long, one after another";
                }
            }
            if (l.has("send_p99_ns")
                    && l.has("send_p50_ns")
                    && l.path("send_p99_ns").asDouble() < l.path("send_p50_ns").asDouble()) {
                return where + ": send_p99_ns (" + l.get("send_p99_ns") + ") cannot be below send_p50_ns ("
                        + l.get("send_p50_ns") + ")";
            }
            if (kind.equals("lifecycle/unshare-loops")
                    && l.path("loops").asLong() * l.path("iterations").asLong() > 100_000) {
                return where + ": loops x iterations over 100,000";
            }
            String own = kind.equals("uevent/exit") ? exitKthreads(l) : KindChecks.of(kind, l);
            if (own != null) {
                return where + ": " + own;
            }
            for (String key : List.of("cleanup_net_run_pairs", "cleanup_net_run_cpu_pairs")) {
                String bad = pairs(l.get(key), key);
                if (bad != null) {
                    return where + ": " + bad;
                }
            }
            JsonNode runs = l.get("cleanup_net_run_pairs");
            JsonNode cpus = l.get("cleanup_net_run_cpu_pairs");
            if (cpus != null && (runs == null || runs.size() != cpus.size())) {
                return where + ": cleanup_net_run_cpu_pairs must have one pair per cleanup_net_run_pairs pair, got "
                        + cpus.size() + " against " + (runs == null ? "none" : runs.size());
            }
            for (int k = 0; cpus != null && k < cpus.size(); k++) {
                if (cpus.get(k).get(0).asLong() != runs.get(k).get(0).asLong()) {
                    return where + ": cleanup_net_run_cpu_pairs[" + k
                            + "] must count the netns of cleanup_net_run_pairs[" + k + "] ("
                            + runs.get(k).get(0) + "), got " + cpus.get(k).get(0);
                }
                if (cpus.get(k).get(1).asDouble() > runs.get(k).get(1).asDouble()) {
                    return where + ": cleanup_net_run_cpu_pairs[" + k + "]: the kworker's CPU in a run ("
                            + cpus.get(k).get(1) + " ns) cannot exceed the run's wall time ("
                            + runs.get(k).get(1) + " ns)";
                }
            }
        }
        return null;
    }

    /** The kernel threads' classes an exit line times (uevent_probe's kthreads_read), in its field names. */
    static final List<String> KTHREADS = List.of("rcu_gp_kthread", "ksoftirqd", "kworker");

    /**
     * An exit line's kernel-thread figures: absent, or all of them, each a count or
     * ns of at least 0, over windows of at least 1 ns, the exits' span inside their window.
     */
    private static String exitKthreads(ObjectNode l) {
        boolean any = false;
        for (var it = l.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            any |= f.startsWith("quiet_") || f.startsWith("exits_");
        }
        if (!any) {
            return null;
        }
        List<Field> fields = new java.util.ArrayList<>(List.of(
                new Field("quiet_window_ns", 1, NS),
                new Field("exits_window_ns", 1, NS),
                new Field("exits_span_ns", 0, l.path("exits_window_ns").asDouble())));
        for (String w : List.of("quiet", "exits")) {
            for (String k : KTHREADS) {
                fields.add(new Field(w + "_" + k + "_ns", 0, NS));
                fields.add(new Field(w + "_" + k + "_runs", 0, 1e9));
            }
        }
        for (Field f : fields) {
            String bad = check(l.get(f.name()), f);
            if (bad != null) {
                return bad
                        + (f.name().equals("exits_span_ns")
                                ? " (inside exits_window_ns)"
                                : " (an exit line's kernel-thread figures come all together, or none)");
            }
            if (f.name().endsWith("_runs") && !l.get(f.name()).canConvertToExactIntegral()) {
                return f.name() + " must be a whole count, got " + l.get(f.name());
            }
        }
        return null;
    }

    /** @return why {@code v} is not an array of [netns, ns] pairs of numbers >= 0, or null (also when absent) */
    private static String pairs(JsonNode v, String key) {
        if (v == null) {
            return null;
        }
        if (!v.isArray()) {
            return key + " must be an array of [netns, ns] pairs";
        }
        for (JsonNode pair : v) {
            if (!pair.isArray()
                    || pair.size() != 2
                    || !pair.get(0).isNumber()
                    || !pair.get(1).isNumber()
                    || pair.get(0).asDouble() < 0
                    || pair.get(1).asDouble() < 0) {
                return key + " must hold [netns, ns] pairs of numbers >= 0, got " + pair;
            }
        }
        return null;
    }

    /** Fields that count things the fit takes as a count: a fraction there is an edited line. */
    private static final java.util.Set<String> WHOLE = java.util.Set.of("extra_sockets");

    static String check(JsonNode v, Field f) {
        boolean whole = WHOLE.contains(f.name());
        if (v == null
                || !v.isNumber()
                || !Double.isFinite(v.asDouble())
                || v.asDouble() < f.min()
                || v.asDouble() > f.max()
                || (whole && v.asDouble() != Math.rint(v.asDouble()))) {
            return f.name()
                    + (f.min() == f.max()
                            ? " must be " + range(f.min()) // e.g. the pair probe's one injector
                            : " must be a " + (whole ? "whole " : "") + "number in " + range(f.min()) + ".."
                                    + range(f.max()))
                    + ", got "
                    + (v == null
                            ? "none (the field is missing)"
                            : v.isNumber() && !Double.isFinite(v.asDouble())
                                    ? "a number beyond a double's range"
                                    : v.toString());
        }
        return null;
    }

    private static String range(double v) {
        if (Math.abs(v) == NS) { // the bound of any time a probe measures: said as a time, not as 1.00e+13
            return (v < 0 ? "-" : "") + "10^13 ns";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e12 ? String.format("%,d", (long) v) : String.format("%.3g", v);
    }
}
