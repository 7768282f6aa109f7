package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.netnslab.machine.MachineSettings;
import org.netnslab.run.Execution;
import org.netnslab.settings.HoconChecker;
import org.netnslab.settings.HoconDurations;
import org.netnslab.settings.HoconSyntax;

/**
 * A scenario's {@code execution}, {@code machine} and {@code random-seed} keys over reference.conf's (or the
 * --config's) defaults, each checked with a message naming it. Problems go to the scenario's {@link HoconChecker}.
 */
final class ExecutionReader {
    private ExecutionReader() {}

    /**
     * @param c the scenario's checker
     * @param conf the scenario, resolved
     * @param reference the {@code netns-lab} block whose defaults apply
     * @param fileCpus the scenario file's own {@code machine.cpus}, before any {@code --set}; null when the file has
     *     none
     * @return how the scenario runs; the defaults where a key was refused (the problem is recorded)
     */
    static Execution read(HoconChecker c, Config conf, Config reference, ConfigValue fileCpus) {
        Execution dflt = Execution.defaults(reference);
        String mode = c.string("execution", dflt.mode().name().toLowerCase(Locale.ROOT));
        Execution.Mode m = dflt.mode();
        if (mode != null) {
            if (mode.equals("live") || mode.equals("virtual")) {
                m = Execution.Mode.valueOf(mode.toUpperCase(Locale.ROOT));
            } else {
                c.problem("execution", "must be live or virtual, got '" + mode + "'");
            }
        }
        if (conf.hasPath("machine")) {
            ConfigObject machine = c.object("machine"); // reports "must be an object" itself
            if (machine == null) {
                return new Execution(m, dflt.machine());
            }
            c.unknownKeys(
                    machine,
                    Set.of(
                            "cpus",
                            "jitter",
                            "scheduler",
                            "preempt",
                            "hz",
                            "base-slice",
                            "context-switch",
                            "task-group",
                            "cold-switch",
                            "host-background"),
                    "machine.");
            if (conf.hasPath("machine.cold-switch")) {
                ConfigObject cold = c.object("machine.cold-switch");
                if (cold != null) {
                    c.unknownKeys(cold, Set.of("base", "evicted", "cached-tasks"), "machine.cold-switch.");
                }
            }
            if (conf.hasPath("machine.host-background")) {
                ConfigObject hb = c.object("machine.host-background");
                if (hb != null) {
                    c.unknownKeys(hb, Set.of("period", "per-netns", "doubling-netns"), "machine.host-background.");
                }
            }
        }
        List<Integer> sweep = cpuSweep(c, conf, m);
        boolean list =
                conf.hasPath("machine.cpus") && conf.getValue("machine.cpus").valueType() == ConfigValueType.LIST;
        int cpus = !list
                ? (int) c.integer("machine.cpus", (long) dflt.machine().cpus(), 1, 4096)
                : sweep.isEmpty() ? dflt.machine().cpus() : sweep.get(0);
        double jitter = dflt.machine().jitter();
        if (conf.hasPath("machine.jitter")) {
            ConfigValue j = conf.getValue("machine.jitter");
            if (j.valueType() == ConfigValueType.NUMBER
                    && ((Number) j.unwrapped()).doubleValue() >= 0
                    && ((Number) j.unwrapped()).doubleValue() <= 0.5) {
                jitter = ((Number) j.unwrapped()).doubleValue();
            } else {
                c.problemAt(
                        j.origin(),
                        "machine.jitter",
                        "must be a number in 0..0.5, got " + HoconSyntax.shownAsNumber(j));
            }
        }
        long seed = c.integer("random-seed", dflt.machine().randomSeed(), Long.MIN_VALUE, Long.MAX_VALUE);
        org.netnslab.machine.Scheduling scheduling = scheduling(c, dflt);
        warnNoEffect(conf, m, scheduling.scheduler());
        return new Execution(
                m,
                new MachineSettings(cpus, jitter, seed, scheduling, hostBackground(c, conf, dflt)),
                sweep,
                seedCpus(fileCpus, dflt.machine().cpus()));
    }

    /**
     * The count a sweep's seed figures are judged at: the one the scenario runs at without the sweep. A seed's
     * figure is of one machine; at other counts the model answers a question the seed did not measure.
     *
     * @param fileCpus the file's own {@code machine.cpus}, or null
     * @param dflt the defaults' count
     * @return the file's count, {@code dflt} where it has none, 0 where the file itself lists counts
     */
    static int seedCpus(ConfigValue fileCpus, int dflt) {
        if (fileCpus == null) {
            return dflt;
        }
        return fileCpus.valueType() == ConfigValueType.NUMBER ? ((Number) fileCpus.unwrapped()).intValue() : 0;
    }

    /**
     * A scheduling key the scenario or a --set gives that the run will not use gets a warning on stderr (result.json
     * lists the scheduling keys among them in execution.machine.no_effect): under fifo (steps, not tasks) all but the
     * scheduler, in live execution all of them; so do the fair machine's own keys ({@code machine.cold-switch},
     * {@code machine.host-background}) and {@code workload.listeners-woken-at-end} set to true.
     */
    private static void warnNoEffect(Config conf, Execution.Mode m, org.netnslab.machine.Scheduling.Scheduler s) {
        boolean live = m != Execution.Mode.VIRTUAL;
        boolean fifo = s == org.netnslab.machine.Scheduling.Scheduler.FIFO;
        List<String> keys = new java.util.ArrayList<>();
        for (String field : org.netnslab.metrics.RunResult.SchedulingInfo.noEffect(live, fifo)) {
            keys.add("machine." + field.replace("_ns", "").replace('_', '-'));
        }
        if (live // the host's own CPUs run a live run; a sweep's list is refused as such, not warned of
                && !(conf.hasPath("machine.cpus")
                        && conf.getValue("machine.cpus").valueType() == com.typesafe.config.ConfigValueType.LIST)) {
            keys.add("machine.cpus");
        }
        if (live || fifo) { // charged by the fair CPUs of virtual time only
            keys.addAll(List.of("machine.cold-switch", "machine.host-background"));
            for (String share : List.of("model.netns.rtnl.setup-share", "model.netns.rtnl.exit-share")) {
                if (conf.hasPath(share)
                        && !"0".equals(String.valueOf(conf.getValue(share).unwrapped()))) {
                    keys.add(share); // RTNL holds are steps of the fair machine's tasks; 0 asks for none
                }
            }
            String woken = "workload.listeners-woken-at-end"; // false asks for nothing: no warning
            if (conf.hasPath(woken)
                    && "true".equals(String.valueOf(conf.getValue(woken).unwrapped()))) {
                keys.add(woken);
            }
        }
        // a file's simulated machine switched to live by --set execution=live (as the README suggests) is the user's
        // choice, and result.json's no_effect records it: only what a --set also gives is warned of then
        boolean liveBySet = live && ScenarioLoader.bySet(conf, "execution");
        if (live && conf.hasPath("machine.jitter") && (!liveBySet || ScenarioLoader.bySet(conf, "machine.jitter"))) {
            System.err.println("netns-lab: warning: machine.jitter has no effect: live execution measures the host's"
                    + " own work and jitters no modelled cost");
        }
        for (String k : keys) {
            if (conf.hasPath(k) && (!liveBySet || ScenarioLoader.bySet(conf, k))) {
                System.err.println("netns-lab: warning: " + k + " has no effect: "
                        + (live
                                ? "live execution runs on the host's own CPUs and scheduler"
                                : "machine.scheduler = fifo runs steps, not tasks"));
            }
        }
    }

    /** The machine's scheduling keys, each checked with a message naming it; a bad one keeps the default. */
    private static org.netnslab.machine.Scheduling scheduling(HoconChecker c, Execution dflt) {
        org.netnslab.machine.Scheduling d = dflt.machine().scheduling();
        var scheduler = choice(
                c,
                "machine.scheduler",
                d.scheduler(),
                org.netnslab.machine.Scheduling.Scheduler::parse,
                "fair or fifo");
        var preempt = choice(
                c,
                "machine.preempt",
                d.preempt(),
                org.netnslab.machine.Scheduling.Preempt::parse,
                "none, voluntary or full");
        var group = choice(
                c,
                "machine.task-group",
                d.taskGroup(),
                org.netnslab.machine.Scheduling.TaskGroup::parse,
                "root or session");
        int hz = (int) c.integer("machine.hz", (long) d.hz(), 100, 1000);
        long slice = nanosOf(c, "machine.base-slice", d.baseSliceNanos(), 1_000_000_000L);
        long csw = nanosOf(c, "machine.context-switch", d.contextSwitchNanos(), 1_000_000L);
        org.netnslab.machine.ColdSwitch dc = d.coldSwitch();
        org.netnslab.machine.ColdSwitch cold = new org.netnslab.machine.ColdSwitch(
                nanosOf(c, "machine.cold-switch.base", dc.baseNanos(), org.netnslab.machine.ColdSwitch.MAX_NANOS),
                nanosOf(c, "machine.cold-switch.evicted", dc.evictedNanos(), org.netnslab.machine.ColdSwitch.MAX_NANOS),
                c.integer(
                        "machine.cold-switch.cached-tasks",
                        dc.cachedTasks(),
                        0,
                        org.netnslab.machine.ColdSwitch.MAX_TASKS));
        return new org.netnslab.machine.Scheduling(scheduler, preempt, hz, slice, csw, group, cold);
    }

    /** The machine's host-background keys, each checked with a message naming it; a bad one keeps the default. */
    private static org.netnslab.machine.HostBackground hostBackground(HoconChecker c, Config conf, Execution dflt) {
        org.netnslab.machine.HostBackground d = dflt.machine().hostBackground();
        String key = "machine.host-background.period";
        long period = d.periodNanos();
        if (conf.hasPath(key)) { // its range starts at 1ms, not 0: checked here with the range it has
            try {
                long n = HoconDurations.duration(conf, key).toNanos();
                if (n >= org.netnslab.machine.HostBackground.MIN_PERIOD_NANOS
                        && n <= org.netnslab.machine.HostBackground.MAX_PERIOD_NANOS) {
                    period = n;
                } else {
                    c.problem(key, "must be a duration in 1ms..60s, got " + HoconSyntax.shown(conf.getValue(key)));
                }
            } catch (com.typesafe.config.ConfigException e) {
                c.problem(
                        key,
                        "must be a duration with its unit (e.g. 1s), got " + HoconSyntax.shown(conf.getValue(key)));
            }
        }
        return new org.netnslab.machine.HostBackground(
                period,
                nanosOf(
                        c,
                        "machine.host-background.per-netns",
                        d.perNetnsNanos(),
                        org.netnslab.machine.HostBackground.MAX_PER_NETNS_NANOS),
                c.integer(
                        "machine.host-background.doubling-netns",
                        d.doublingNetns(),
                        0,
                        org.netnslab.machine.HostBackground.MAX_DOUBLING));
    }

    /**
     * @param values the allowed values, for the message, e.g. {@code "fair or fifo"}
     * @return the key's value parsed; the default when absent or refused (the problem is recorded, naming the key)
     */
    private static <T extends Enum<T>> T choice(
            HoconChecker c, String key, T dflt, java.util.function.Function<String, T> parse, String values) {
        String s = c.string(key, dflt.name().toLowerCase(Locale.ROOT));
        if (s == null) {
            return dflt;
        }
        try {
            return parse.apply(s);
        } catch (IllegalArgumentException e) {
            c.problem(key, "must be " + values + ", got '" + s + "'");
            return dflt;
        }
    }

    /** @return the key's duration in 0..max, ns; the default when absent or refused (the problem is recorded) */
    private static long nanosOf(HoconChecker c, String key, long dflt, long max) {
        Long n = c.nanos(key, dflt, max, "1500us");
        return n == null ? dflt : n;
    }

    /**
     * {@code machine.cpus} as a list: a CPU sweep. Each count 1..4096, no repeats, at least one, and the
     * run virtual (live execution has the host's CPUs only).
     *
     * @return the counts; empty when {@code machine.cpus} is not a list (or the list is wrong)
     */
    private static List<Integer> cpuSweep(HoconChecker c, Config conf, Execution.Mode mode) {
        if (!conf.hasPath("machine.cpus") || conf.getValue("machine.cpus").valueType() != ConfigValueType.LIST) {
            return List.of();
        }
        List<Integer> counts = new ArrayList<>();
        List<? extends ConfigValue> values = conf.getList("machine.cpus");
        for (ConfigValue v : values) {
            Object n = v.unwrapped();
            if (!(n instanceof Integer i) || i < 1 || i > 4096) {
                c.problem(
                        "machine.cpus",
                        "a CPU sweep is a list of integers in 1..4096, got '" + HoconSyntax.shown(v) + "'");
                return List.of();
            }
            if (counts.contains(i)) {
                c.problem("machine.cpus", "a CPU sweep names each count once, " + i + " is repeated");
                return List.of();
            }
            counts.add(i);
        }
        if (counts.isEmpty()) {
            c.problem("machine.cpus", "a CPU sweep needs at least one count, got []");
            return List.of();
        }
        if (mode != Execution.Mode.VIRTUAL) {
            c.problem(
                    "machine.cpus",
                    "a CPU sweep (a list of counts) needs execution = virtual: live execution runs on"
                            + " the host's CPUs only");
            return List.of();
        }
        return List.copyOf(counts);
    }
}
