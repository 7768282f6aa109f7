package org.netnslab.report;

import static org.netnslab.report.JsonFields.at;
import static org.netnslab.report.JsonFields.num;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.metrics.RunResult;

/**
 * result.json's {@code execution} object (mode, simulated machine, sweep, the run's clocks) and the clocks each
 * replicate's design run carries, written and read back. A file without them reads as null.
 */
final class ExecutionJson {
    private static final String MACHINE = "execution.machine";

    private ExecutionJson() {}

    /** Adds {@code execution} to result.json's root, when the record has it. */
    static void write(ObjectNode root, RunRecord r) {
        RunResult.ExecutionInfo e = r.execution();
        if (e == null) {
            return;
        }
        ObjectNode en = root.putObject("execution");
        en.put("mode", e.mode());
        ObjectNode mn = en.putObject("machine");
        ArrayNode cpus = mn.putArray("cpus");
        e.cpus().forEach(cpus::add);
        num(mn, "jitter", e.jitter());
        mn.put("random_seed", e.randomSeed());
        if (e.scheduling() != null) {
            RunResult.SchedulingInfo s = e.scheduling();
            mn.put("scheduler", s.scheduler());
            mn.put("preempt", s.preempt());
            mn.put("hz", s.hz());
            mn.put("base_slice_ns", s.baseSliceNanos());
            if (e.mode().equals("virtual") && s.scheduler().equals("fair")) { // where a slice shaped anything
                ArrayNode slices = mn.putArray("slice_ns"); // the slice used at each count: base_slice_ns 0 derives it
                s.sliceNanos().forEach(slices::add);
            }
            mn.put("context_switch_ns", s.contextSwitchNanos());
            mn.put("task_group", s.taskGroup());
            if (s.hasColdSwitch()) { // absent where it adds nothing, as in every run before the key
                ObjectNode cold = mn.putObject("cold_switch");
                cold.put("base_ns", s.coldSwitchBaseNanos());
                cold.put("evicted_ns", s.coldSwitchEvictedNanos());
                cold.put("cached_tasks", s.coldSwitchCachedTasks());
            }
            if (s.hasHostBackground()) { // absent where it runs nothing, as in every run before the key
                ObjectNode hb = mn.putObject("host_background");
                hb.put("period_ns", s.hostBackgroundPeriodNanos());
                hb.put("per_netns_ns", s.hostBackgroundPerNetnsNanos());
                hb.put("doubling_netns", s.hostBackgroundDoublingNetns());
            }
            // the keys are the run's inputs and stay recorded; this says which of them shaped nothing
            ArrayNode none = mn.putArray("no_effect");
            boolean live = !e.mode().equals("virtual");
            if (live) { // the host's own CPUs ran the threads, and no cost was jittered
                none.add("cpus");
                none.add("jitter");
            }
            RunResult.SchedulingInfo.noEffect(live, s.scheduler().equals("fifo"))
                    .forEach(none::add);
        }
        if (e.dispatcher() != null) { // live: the threads the figures were measured on
            ObjectNode dn = en.putObject("dispatcher");
            dn.put("id", e.dispatcher().id());
            dn.put("executor", e.dispatcher().executor());
            dn.put("threads", e.dispatcher().threads());
        }
        if (e.sweep()) {
            ObjectNode sn = en.putObject("sweep");
            sn.put("key", "machine.cpus");
            sn.put("design_key", "<design>@<cpus>cpu");
            sn.put("comparisons", "each design against the baseline at the same cpus");
        } else {
            en.putNull("sweep");
        }
        if (e.seedCpus() != null) { // the count the seed's figures are judged at; 0: none
            en.put("seed_cpus", e.seedCpus());
        }
        clocks(en, r.clocks());
    }

    /** Writes a design run's (or the run's) real and simulated clocks; simulated ones null in live execution. */
    static void clocks(ObjectNode n, RunResult.Clocks c) {
        num(n, "run_wall_s", c.wallSeconds());
        num(n, "simulated_s", c.simulatedSeconds());
        if (c.simulatedEvents() < 0) {
            n.putNull("simulated_events");
        } else {
            n.put("simulated_events", c.simulatedEvents());
        }
        num(n, "simulated_events_per_wall_s", c.eventsPerWallSecond());
    }

    /** @return the clocks saved in {@code n}, at {@code p}, or null when it has none */
    static RunResult.Clocks clocks(JsonFields f, JsonNode n, String p) throws ReportInputException {
        if (!n.has("run_wall_s")) {
            return null;
        }
        JsonNode ev = f.field(n, p, "simulated_events");
        return new RunResult.Clocks(
                f.number(n, p, "run_wall_s"),
                f.number(n, p, "simulated_s"),
                ev.isNull() ? -1 : f.whole(n, p, "simulated_events"));
    }

    /** @return the run's execution, or null when the file has none */
    static RunResult.ExecutionInfo read(JsonFields f, JsonNode root) throws ReportInputException {
        if (!root.has("execution")) {
            return null;
        }
        JsonNode e = f.object(root, "", "execution");
        JsonNode m = f.object(e, "execution", "machine");
        JsonNode cn = f.array(m, MACHINE, "cpus");
        List<Integer> cpus = new ArrayList<>();
        for (int i = 0; i < cn.size(); i++) {
            cpus.add((int) f.number(cn.get(i), at(MACHINE + ".cpus", i)));
        }
        long[] cold = wholes(f, m, "cold_switch", "base_ns", "evicted_ns", "cached_tasks");
        long[] hb = wholes(f, m, "host_background", "period_ns", "per_netns_ns", "doubling_netns");
        RunResult.SchedulingInfo scheduling = !m.has("scheduler")
                ? null
                : new RunResult.SchedulingInfo(
                        f.text(m, MACHINE, "scheduler"),
                        f.text(m, MACHINE, "preempt"),
                        (int) f.whole(m, MACHINE, "hz"),
                        f.whole(m, MACHINE, "base_slice_ns"),
                        f.whole(m, MACHINE, "context_switch_ns"),
                        m.has("task_group") ? f.text(m, MACHINE, "task_group") : "root",
                        slices(f, m),
                        cold[0],
                        cold[1],
                        cold[2],
                        hb[0],
                        hb[1],
                        hb[2]);
        RunResult.DispatcherInfo dispatcher = null;
        if (e.has("dispatcher")) { // live runs since the key
            JsonNode d = f.object(e, "execution", "dispatcher");
            dispatcher = new RunResult.DispatcherInfo(
                    f.text(d, "execution.dispatcher", "id"), f.text(d, "execution.dispatcher", "executor"), (int)
                            f.whole(d, "execution.dispatcher", "threads"));
        }
        JsonNode sweep = f.field(e, "execution", "sweep");
        Integer seedCpus = null;
        if (e.has("seed_cpus")) { // runs since the key; before it, every count was judged
            long n = f.count(e, "execution", "seed_cpus");
            if (n > 4096) { // machine.cpus' range
                throw f.wrong("execution.seed_cpus", "expected a CPU count 0..4096, found " + n);
            }
            seedCpus = (int) n;
        }
        return new RunResult.ExecutionInfo(
                f.text(e, "execution", "mode"),
                cpus,
                !sweep.isNull(),
                f.number(m, MACHINE, "jitter"),
                f.whole(m, MACHINE, "random_seed"),
                scheduling,
                dispatcher,
                seedCpus);
    }

    /**
     * @return the whole numbers {@code fields} of the optional object {@code execution.machine.<key>} (cold_switch,
     *     host_background: written only where they add something); 0s where it is absent
     */
    private static long[] wholes(JsonFields f, JsonNode m, String key, String... fields) throws ReportInputException {
        long[] v = new long[fields.length];
        if (m.has(key)) {
            JsonNode o = f.object(m, MACHINE, key);
            for (int i = 0; i < fields.length; i++) {
                v[i] = f.whole(o, MACHINE + "." + key, fields[i]);
            }
        }
        return v;
    }

    /** @return {@code execution.machine.slice_ns}, or empty in a file without it */
    private static List<Long> slices(JsonFields f, JsonNode m) throws ReportInputException {
        List<Long> slices = new ArrayList<>();
        if (m.has("slice_ns")) {
            for (double v : f.numbers(m, MACHINE, "slice_ns")) {
                slices.add((long) v);
            }
        }
        return slices;
    }
}
