package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.netnslab.machine.Scheduling;
import org.netnslab.scenario.ModelKeys;

/**
 * What {@code calibrate --from} checks of a recording beyond its lines' probe bounds ({@link ProbeLines}), before any
 * model run: the host's figures that become the simulated machine, and each line field the fit takes as a model
 * value as it is (a median, not a regression) against that key's range, so an edited figure is named by its JSON
 * path instead of failing inside a model run. A regression that lands outside a key's range is a fit result, as when
 * the probes run: NOT FITTED, the default stays.
 */
final class RecordingCheck {
    private RecordingCheck() {}

    /** The preemption models {@link HostFacts#read} records. */
    private static final java.util.Set<String> PREEMPT =
            java.util.Set.of("none", "voluntary", "full", "lazy", "unknown");

    /** Per (probe, load) kind: each field the fit takes as a key's value, and the key. */
    private static final Map<String, Map<String, String>> DIRECT = Map.of(
            "sched/context-switch", Map.of("context_switch_p50_ns", CostFit.CONTEXT_SWITCH),
            "uevent/broadcast-walk",
                    Map.of(
                            "recv_p50_ns", "costs.uevent.recv",
                            "user_p50_ns", "costs.uevent.injector-user",
                            "handle_p50_ns", "costs.uevent.listener-user"),
            "uevent/exit",
                    Map.of("exit_p50_ns", "costs.uevent.injector-exit", "reap_p50_ns", "costs.uevent.injector-exit"),
            "proc/pidfd",
                    Map.of(
                            "pidfd_fork_cpu_p50_ns", "costs.proc.pidfd-fork",
                            "pidfd_exit_cpu_p50_ns", "costs.proc.pidfd-exit"),
            "lifecycle/unshare-loops",
                    Map.of(
                            "unshare_cpu_p50_ns", "costs.netns.setup-net",
                            "unshare_cpu_mean_ns", "costs.netns.setup-net"));

    /**
     * @param host a recording's host
     * @return what the model cannot take of it, naming the field ({@code host.baseSliceNs: ...}), or null
     */
    static String host(HostFacts host) {
        if (host.preempt() == null || !PREEMPT.contains(host.preempt())) {
            return "host.preempt must be none, voluntary, full, lazy or unknown, got "
                    + (host.preempt() == null ? "null" : "'" + host.preempt() + "'");
        }
        if (!(host.loadAverage1() >= 0 && host.loadAverage1() < 1e6)) {
            return "host.loadAverage1 must be a number in 0..1,000,000, got " + host.loadAverage1();
        }
        if (host.busyAtStart() != null && !(host.busyAtStart() >= 0 && host.busyAtStart() <= 1)) {
            return "host.busyAtStart must be a number in 0..1 (or absent), got " + host.busyAtStart();
        }
        if (host.busyDuringProbes() != null && host.busyDuringProbes().problem() != null) {
            return host.busyDuringProbes().problem();
        }
        if (host.hz() != 0) { // 0: the probes could not read CONFIG_HZ, and the model keeps its own
            String bad = machine(host.hz(), 0, 0);
            if (bad != null) {
                return "host.hz: " + host.hz() + " is outside what the model accepts (" + bad + "; 0 when not read)";
            }
        }
        String bad = machine(250, host.baseSliceNs(), 0);
        return bad == null
                ? null
                : "host.baseSliceNs: " + host.baseSliceNs() + " is outside what the model accepts (" + bad + ")";
    }

    /**
     * @param set a recording's lines, within their probes' bounds
     * @return the first line field the model cannot take as its key's value, named by its JSON path, or null
     */
    /**
     * @param set a recording's lines
     * @param cpus the host's CPUs
     * @return the first idle line whose machine was busy longer than its CPUs could be over its window (two
     *     /proc/stat ticks of slack a CPU), named by its place, or null
     */
    static String idleBusy(ProbeSet set, int cpus) {
        for (int i = 0; i < set.fit().size(); i++) {
            ObjectNode l = set.fit().get(i);
            if (!"idle".equals(l.path("load").asText())) {
                continue;
            }
            double most = (l.path("window_ns").asDouble() + 20e6) * cpus;
            if (l.path("machine_busy_ns").asDouble() > most) {
                return String.format(
                        "fit_set[%d].machine_busy_ns (uevent idle): %.0f ns is more than %d CPUs can be busy in its"
                                + " window_ns of %.0f",
                        i,
                        l.path("machine_busy_ns").asDouble(),
                        cpus,
                        l.path("window_ns").asDouble());
            }
        }
        return null;
    }

    /**
     * @param set a recording's sets
     * @param cpus its host's CPU count
     * @return the first line that names a CPU the host does not have (a probe pins to CPUs 0..cpus-1: a recording
     *     whose host was edited to fewer CPUs than its lines ran on contradicts itself), named by its place, or null
     */
    static String cpuNumbers(ProbeSet set, int cpus) {
        String p = cpuNumbers("fit_set", set.fit(), cpus);
        p = p != null ? p : cpuNumbers("prediction_set", set.prediction(), cpus);
        return p != null ? p : cpuNumbers("unseen_set", set.unseen(), cpus);
    }

    private static String cpuNumbers(String array, List<ObjectNode> lines, int cpus) {
        for (int i = 0; i < lines.size(); i++) {
            ObjectNode l = lines.get(i);
            for (String f : List.of("cpu", "sender_cpu", "reader_cpu")) {
                if (l.path(f).isNumber() && l.path(f).asDouble() >= cpus) {
                    return String.format(
                            "%s[%d].%s (%s %s): CPU %s, but host.cpus is %d (CPUs 0..%d): the lines ran on more CPUs"
                                    + " than the host says it has",
                            array,
                            i,
                            f,
                            l.path("probe").asText(),
                            l.path("load").asText(),
                            l.path(f).asText(),
                            cpus,
                            cpus - 1);
                }
            }
        }
        return null;
    }

    static String direct(ProbeSet set) {
        for (int i = 0; i < set.fit().size(); i++) { // a prediction-set line is only compared with, never taken
            ObjectNode l = set.fit().get(i);
            String kind = l.path("probe").asText() + "/" + l.path("load").asText();
            for (Map.Entry<String, String> f :
                    new java.util.TreeMap<>(DIRECT.getOrDefault(kind, Map.of())).entrySet()) {
                if (!l.has(f.getKey()) || l.path(f.getKey()).asDouble() < 0) {
                    continue; // absent where optional; below 0 the fit says NOT FITTED, as for a probe run
                }
                long ns = Math.round(l.path(f.getKey()).asDouble());
                String bad = f.getValue().equals(CostFit.CONTEXT_SWITCH)
                        ? contextSwitch(ns)
                        : ModelKeys.problem(f.getValue(), ns + "ns");
                if (bad != null) {
                    return "fit_set[" + i + "]." + f.getKey() + " (" + kind.replace('/', ' ') + "): " + ns
                            + " ns is more than the model takes for " + f.getValue() + " (" + bad + ")";
                }
            }
        }
        return null;
    }

    /** @return what the simulated machine refuses of these figures (its own words), or null */
    private static String machine(int hz, long baseSliceNs, long contextSwitchNs) {
        try {
            new Scheduling(
                    Scheduling.Scheduler.FAIR,
                    Scheduling.Preempt.NONE,
                    hz,
                    baseSliceNs,
                    contextSwitchNs,
                    Scheduling.TaskGroup.ROOT);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * @param ns a fitted task switch, ns
     * @return what the simulated machine refuses of it, or null
     */
    static String contextSwitch(double ns) {
        return machine(250, 0, Math.round(ns));
    }

    /** The kinds of line the prediction set and the unseen shapes hold: contended loads only. */
    static final java.util.Set<String> CONTENDED = java.util.Set.of(
            "uevent/tc1", "uevent/reorder", "proc/proc-scan", "proc/listener", "lifecycle/unshare-loops");

    /** The keys calibrate writes at a calibration.json's top level ({@link CalibrationJson#write}). */
    static final java.util.Set<String> TOP_LEVEL = java.util.Set.of(
            "schema",
            "tool",
            "quick",
            "host",
            "fit_set",
            "prediction_set",
            "unseen_set",
            "fit",
            "predictions",
            "ladder",
            "unseen",
            "beyond");

    /**
     * @param root a recording's JSON
     * @return the first part of it that is not of the shape calibrate writes (schema, host.cpus, host.release, the
     *     ladder and the unseen shapes' sections and lines), named by its JSON path, or null
     */
    static String shape(com.fasterxml.jackson.databind.JsonNode root) {
        var schema = root.path("schema");
        if (!schema.isIntegralNumber() || schema.asInt() != 1) {
            if (schema.isIntegralNumber() && schema.asLong() > 1) {
                return "schema " + schema + "; this netns-lab reads schema 1: a newer netns-lab wrote it; read it with"
                        + " that one, or run calibrate again with this one";
            }
            return schema.isMissingNode()
                    ? "schema: missing; this netns-lab reads schema 1 (a whole number)"
                    : "schema " + schema + "; this netns-lab reads schema 1 (a whole number)";
        }
        // a key calibrate never writes would be dropped from the replay's calibration.json: refused, as the host's are
        for (var it = root.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!TOP_LEVEL.contains(key)) {
                return key + ": not a key of a calibration.json (its keys: "
                        + String.join(", ", new java.util.TreeSet<>(TOP_LEVEL)) + "); keep notes beside the file";
            }
        }
        var host = root.path("host");
        if (!host.path("cpus").isIntegralNumber()) {
            return "host.cpus must be a whole number in 1..4096, got " + host.path("cpus");
        }
        if (host.has("hz")
                && !(host.path("hz").isIntegralNumber() && host.path("hz").canConvertToInt())) {
            return "host.hz must be a whole number, got " + host.path("hz"); // not the text "250" read as 250
        }
        String release = host.path("release").isTextual() ? host.path("release").asText() : ""; // uname -r: text
        if (release.isBlank() || release.length() > 200 || !printable(release)) {
            return "host.release must be the kernel's release as text on one line (uname -r), got "
                    + host.path("release");
        }
        for (String section : java.util.List.of("ladder", "unseen")) {
            if (root.has(section) && !root.path(section).isObject()) {
                return section + " must be an object, as calibrate writes it, got "
                        + root.path(section).getNodeType();
            }
        }
        var lowered = root.path("ladder").path("lowered");
        if (!lowered.isMissingNode() && !lowered.isArray()) {
            return "ladder.lowered must be an array, got " + lowered.getNodeType();
        }
        for (int i = 0; i < lowered.size(); i++) {
            var text = lowered.get(i).path("text");
            if (!text.isTextual() || text.asText().length() > 500 || !printable(text.asText())) {
                return "ladder.lowered[" + i + "].text must be one printable line of text, got " + text.getNodeType();
            }
        }
        var unseen = root.path("unseen_set");
        int shapes = root.path("unseen").path("shapes").asInt(0);
        if (shapes > 0 && unseen.size() == 0) { // the draw is recorded, its host lines are not: a cut recording
            return "unseen_set holds no line, where unseen.shapes says " + shapes + " were drawn and measured";
        }
        for (int i = 0; i < unseen.size(); i++) {
            String kind = unseen.get(i).path("probe").asText() + "/"
                    + unseen.get(i).path("load").asText();
            if (!CONTENDED.contains(kind)) {
                return "unseen_set[" + i + "]: a " + kind + " line is not a contended load (an unseen shape is one of "
                        + new java.util.TreeSet<>(CONTENDED) + ")";
            }
        }
        return RecordedLadder.problem(root);
    }

    /** @return whether the text holds no control character (a terminal would act on it) */
    private static boolean printable(String s) {
        return s.chars().noneMatch(ch -> Character.isISOControl(ch));
    }

    /** Where proc_probe fit pinned a listener: beside its spawner, or on another CPU. */
    private static final java.util.Set<String> PLACEMENTS =
            new java.util.TreeSet<>(java.util.Set.of("apart", "beside"));

    /**
     * @param kind the line's probe/load
     * @param set the set it is in
     * @param l the line
     * @return why a proc listener line's wake-ups or {@code placement} are wrong, or null: a listener that received
     *     events woke at least once (it reads only after a wake-up); a placement is allowed on a fit-set proc listener
     *     line only, one of {@link #PLACEMENTS}, with two listeners at once
     */
    static String badListener(String kind, String set, com.fasterxml.jackson.databind.JsonNode l) {
        if (kind.equals("proc/listener")
                && l.path("events").asDouble() >= 1
                && l.path("wakeups").asDouble() < 1) {
            return "wakeups (" + l.get("wakeups") + ") must be at least 1 where events (" + l.get("events")
                    + ") is: proc_probe's listener reads only after a wake-up";
        }
        if (!l.has("placement")) {
            return null;
        }
        if (!kind.equals("proc/listener") || !set.equals("fit")) {
            return "placement is allowed only on a fit-set proc listener line (proc_probe fit's pinned runs)";
        }
        if (!l.get("placement").isTextual()
                || !PLACEMENTS.contains(l.get("placement").asText())) {
            return "placement must be \"apart\" or \"beside\", got " + l.get("placement");
        }
        if (l.path("listeners_at_once").asLong() != 2) {
            return "listeners_at_once (" + l.get("listeners_at_once") + ") must be 2 on a placed line (proc_probe"
                    + " fit pins an EXIT-only listener and an all-events one)";
        }
        return null;
    }

    /**
     * A fit-set line of a load the fit never reads: the prediction and unseen sets' loads (TC1, reorder; the parallel
     * unshare loops, the three listeners at once, the ladder's /proc scans), which share their probes with the fit's.
     *
     * @param kind the line's probe/load
     * @param l the line
     * @return why it is not a fit-set line, or null
     */
    static String notAFitLoad(String kind, com.fasterxml.jackson.databind.JsonNode l) {
        if (kind.equals("proc/listener")
                && !l.has("placement")
                && l.path("listeners_at_once").asLong() == 2) {
            return "a line with two listeners at once needs placement (\"apart\" or \"beside\": proc_probe fit's"
                    + " pinned runs)";
        }
        boolean prediction = switch (kind) {
            case "uevent/tc1", "uevent/reorder" -> true;
            case "lifecycle/unshare-loops" -> l.path("loops").asLong() != 1; // the fit's is the serial loop
            // the fit's run one at a time (its pinned runs two: badListener checks those)
            case "proc/listener" ->
                !l.has("placement") && l.path("listeners_at_once").asLong() != 1;
            case "proc/proc-scan" ->
                l.path("live_requested").asLong() != 0
                        && l.path("live_requested").asLong() != ProbeSet.SCAN_FIT_LIVE; // the fit's two sizes
            default -> false;
        };
        return prediction
                ? "a prediction or unseen load, which the fit never reads (the sets are not mixed: move it back to"
                        + " prediction_set or unseen_set)"
                : null;
    }
}
