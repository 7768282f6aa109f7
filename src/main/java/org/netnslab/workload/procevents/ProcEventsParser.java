package org.netnslab.workload.procevents;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netnslab.proc.ProcEvents;
import org.netnslab.proc.ProcessTable;
import org.netnslab.settings.HoconChecker;
import org.netnslab.workload.WorkloadParser;

/**
 * Reads a {@code proc-events} workload: {@code processes}, {@code nonzero-exit-fraction},
 * {@code listeners { name = [EVENT, ...] }} with the PROC_EVENT names of {@link ProcEvents#names()}, the order they bind
 * in ({@code bind-order}, default by name), the later forks before each exit ({@code exit-after-forks},
 * default 1000), and the pacing of virtual runs: {@code process-interval} and {@code exec-delay}.
 */
public final class ProcEventsParser extends WorkloadParser {
    /** Most short-lived processes one run may have: every event is built in memory. */
    private static final long MAX_PROCESSES = 5_000_000;

    /** Reads {@code workload.type = proc-events}. */
    public ProcEventsParser() {
        super(
                "proc-events",
                "processes",
                "nonzero-exit-fraction",
                "listeners",
                "bind-order",
                "process-interval",
                "exec-delay",
                "exit-after-forks");
    }

    /** @return " ('X' is not one)" for a list's first name that is no event's, or "" (not a list: said already) */
    private static String unknownName(ConfigValue value) {
        if (value.valueType() != ConfigValueType.LIST) {
            return "";
        }
        for (Object n : (List<?>) value.unwrapped()) {
            if (ProcEvents.mask(List.of(String.valueOf(n))).isEmpty()) {
                return " ('" + n + "' is not one; names are upper case)";
            }
        }
        return "";
    }

    /** @return the first event name a listener's list repeats, or null for none */
    private static String twice(ConfigValue list) {
        Set<String> seen = new HashSet<>();
        for (Object n : (List<?>) list.unwrapped()) {
            if (!seen.add(String.valueOf(n))) {
                return String.valueOf(n);
            }
        }
        return null;
    }

    @Override
    protected ProcEventsWorkload read(HoconChecker c, double scale) {
        long processes = c.integer("workload.processes", null, 1, MAX_PROCESSES);
        double fraction = c.fraction("workload.nonzero-exit-fraction", 0);
        Map<String, Integer> listeners = new LinkedHashMap<>();
        ConfigObject ls = c.object("workload.listeners");
        if (ls != null) {
            for (Map.Entry<String, ConfigValue> e : new TreeMap<>(ls).entrySet()) {
                String path = "workload.listeners." + ConfigUtil.joinPath(e.getKey());
                OptionalInt mask = e.getValue().valueType() == ConfigValueType.LIST
                        ? ProcEvents.mask(((List<?>) e.getValue().unwrapped())
                                .stream().map(String::valueOf).toList())
                        : OptionalInt.empty();
                String repeated = mask.isPresent() ? twice(e.getValue()) : null;
                if (!HoconChecker.isSafeName(e.getKey())
                        || e.getKey().contains(".")
                        || ProcEventsWorkload.MONITORS.contains(e.getKey())) {
                    // <design>.proc.listener_busy.<name>.hgrm: a '.' in the name could make two designs' files one
                    c.problemAt(
                            e.getValue().origin(),
                            path,
                            "a listener's name is part of measure and file names (proc.listener_busy.<name>,"
                                    + " <design>.<measure>.hgrm): 1-100 letters, digits, '_' or '-', starting with"
                                    + " a letter or digit (a '.' could make two designs' files one), and not pidfd or"
                                    + " proc-scan");
                } else if (repeated != null) { // a set of events: a repeat is a slip
                    c.problemAt(
                            e.getValue().origin(),
                            path,
                            "names " + repeated + " twice: a listener's filter is a set of events (did you"
                                    + " mean another one?), got " + e.getValue().render(ConfigRenderOptions.concise()));
                } else if (mask.isEmpty()) {
                    c.problemAt(
                            e.getValue().origin(),
                            path,
                            "must be a list of PROC_EVENT names from " + new TreeSet<>(ProcEvents.names()) + ", got "
                                    + e.getValue().render(ConfigRenderOptions.concise()) + unknownName(e.getValue()));
                } else if (mask.getAsInt() == ProcEvents.NONE) { // cn_filter drops every event for PROC_EVENT_NONE
                    c.problemAt(
                            e.getValue().origin(),
                            path,
                            "an empty list asks for no event (PROC_EVENT_NONE): under per-listener filtering the"
                                    + " listener would receive nothing; name at least one of "
                                    + new TreeSet<>(ProcEvents.names()));
                } else {
                    listeners.put(e.getKey(), mask.getAsInt());
                }
            }
            if (ls.isEmpty()) {
                c.problem("workload.listeners", "needs at least one listener (name = [EVENT, ...])");
            }
            listeners = bindOrder(c, listeners, ls.keySet());
        } else if (c.conf().hasPath("workload.bind-order")) {
            c.problem("workload.bind-order", "orders workload.listeners, which this workload has none of");
        }
        Long paced = c.nanos("workload.process-interval", 0, 1_000_000_000L, "1ms");
        Long delayed = c.nanos("workload.exec-delay", 0, 1_000_000_000L, "1ms");
        long interval = paced == null ? 0 : paced;
        long execDelay = delayed == null ? 0 : delayed;
        if (execDelay > 0 && interval == 0 && paced != null) { // absent or 0; a refused interval is said once
            c.problem(
                    "workload.exec-delay",
                    "needs workload.process-interval above 0 (the events are paced only with it)");
            execDelay = 0;
        } else if (execDelay > 0 && interval > 0 && 2 * execDelay >= interval) {
            // the exits come half an interval after the forks: a process's exec must come before its own exit
            c.problem(
                    "workload.exec-delay",
                    "must be below half of workload.process-interval (" + readable(interval)
                            + " / 2 = " + readable(interval / 2)
                            + "): a process's exit may come half an interval after its fork,"
                            + " got " + readable(execDelay));
            execDelay = 0;
        }
        long wave = c.integer("workload.exit-after-forks", (long) ProcessTable.WAVE, 0, MAX_PROCESSES);
        ProcEventsWorkload w = new ProcEventsWorkload(processes, fraction, listeners, interval, execDelay, (int) wave);
        capScaled(
                c,
                scale,
                "workload.processes",
                w.processes() * scale,
                MAX_PROCESSES,
                " processes (their events are built in memory)");
        return w;
    }

    /** @return ns in the largest unit that keeps it whole, e.g. 1ms, 250us, 754629ns */
    private static String readable(long ns) {
        return ns % 1_000_000 == 0 ? ns / 1_000_000 + "ms" : ns % 1000 == 0 ? ns / 1000 + "us" : ns + "ns";
    }

    /**
     * The order the listeners bind in: by name, or as {@code workload.bind-order} lists them (each listener once). A
     * HOCON object keeps no order of its own, and the order matters: the proc connector wakes its listeners newest bind
     * first (netlink's mc_list, hlist_add_head), and on the host the one an exit wakes last pays for it (an all-events
     * listener bound first: exit / all 0.24 against 0.30-0.34 bound last, four thousand processes on our 2-vCPU VM).
     *
     * @param c the scenario, which receives a problem with {@code workload.bind-order}
     * @param listeners the listeners accepted, by name
     * @param written every listener's name, accepted or not (a refused one is not named twice)
     * @return the accepted listeners, first bound first
     */
    static Map<String, Integer> bindOrder(HoconChecker c, Map<String, Integer> listeners, Set<String> written) {
        if (!c.conf().hasPath("workload.bind-order")) {
            return listeners;
        }
        List<String> order = c.stringList("workload.bind-order", "listener names");
        if (order == null) {
            return listeners;
        }
        Set<String> missing = new TreeSet<>(written);
        order.forEach(missing::remove);
        Set<String> seen = new HashSet<>();
        List<String> wrong =
                order.stream().filter(n -> !written.contains(n) || !seen.add(n)).toList();
        if (!wrong.isEmpty() || !missing.isEmpty()) {
            c.problem(
                    "workload.bind-order",
                    "must name each of workload.listeners " + new TreeSet<>(written) + " once"
                            + (wrong.isEmpty() ? "" : ", got " + wrong + " more than once or not a listener")
                            + (missing.isEmpty() ? "" : ", missing " + missing));
            return listeners;
        }
        Map<String, Integer> ordered = new LinkedHashMap<>();
        order.stream().filter(listeners::containsKey).forEach(n -> ordered.put(n, listeners.get(n)));
        return ordered;
    }
}
