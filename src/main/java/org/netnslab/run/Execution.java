package org.netnslab.run;

import com.typesafe.config.Config;
import org.netnslab.machine.MachineSettings;
import org.netnslab.settings.HoconDurations;

/**
 * How a scenario runs (scenario keys {@code execution}, {@code machine}, {@code random-seed}; defaults in
 * reference.conf).
 *
 * <p>A CPU sweep ({@code machine.cpus = [1, 2, 4, ...]} or {@code run --sweep machine.cpus=1,2,4}) runs
 * every design at every count; {@link #machine} then holds the first count.
 *
 * @param mode live (real threads) or virtual (simulated time on a simulated machine)
 * @param machine the simulated machine (virtual only; live ignores it)
 * @param cpuSweep the CPU counts of a sweep, in the order given (virtual only); empty when there is no sweep
 * @param seedCpus the CPU count the seed's figures are judged at: the count the scenario file runs at (its
 *     {@code machine.cpus}, else the defaults'), whatever {@code --sweep} or {@code --set} makes of it; 0 where the
 *     file itself lists counts (none of them is the seed's machine).
 */
public record Execution(Mode mode, MachineSettings machine, java.util.List<Integer> cpuSweep, int seedCpus) {
    /** The execution modes. */
    public enum Mode {
        /** Real threads, {@link System#nanoTime()}. */
        LIVE,
        /** One thread under {@link org.netnslab.machine.VirtualEngine}: simulated time, CPUs and locks. */
        VIRTUAL
    }

    /** Copies the list. */
    public Execution {
        cpuSweep = java.util.List.copyOf(cpuSweep);
    }

    /** @param mode the mode @param machine the machine; no sweep */
    public Execution(Mode mode, MachineSettings machine) {
        this(mode, machine, java.util.List.of(), machine.cpus());
    }

    /** @return true when the scenario sweeps {@code machine.cpus} */
    public boolean isSweep() {
        return !cpuSweep.isEmpty();
    }

    /** @return the CPU counts each design runs at: the sweep's, or the one machine's */
    public java.util.List<Integer> cpuCounts() {
        return isSweep() ? cpuSweep : java.util.List.of(machine.cpus());
    }

    /** @return true for {@link Mode#VIRTUAL} */
    public boolean isVirtual() {
        return mode == Mode.VIRTUAL;
    }

    /**
     * @param netnsLab the {@code netns-lab} block
     * @return reference.conf's (or the --config's) defaults
     */
    public static Execution defaults(Config netnsLab) {
        return new Execution(
                Mode.valueOf(netnsLab.getString("execution").toUpperCase(java.util.Locale.ROOT)),
                machineDefaults(netnsLab));
    }

    /** @return the {@code netns-lab} block's machine; a value out of range is named with its file and line */
    private static MachineSettings machineDefaults(Config netnsLab) {
        Config machine = netnsLab.getConfig("machine");
        int cpus = netnsLab.getInt("machine.cpus");
        double jitter = netnsLab.getDouble("machine.jitter");
        org.netnslab.machine.Scheduling scheduling = scheduling(machine);
        org.netnslab.machine.HostBackground background = hostBackground(machine);
        try {
            return new MachineSettings(cpus, jitter, netnsLab.getLong("random-seed"), scheduling, background);
        } catch (IllegalArgumentException e) { // "machine.cpus must be ...", "machine.jitter must be ..."
            throw located(machine, e);
        }
    }

    /**
     * @param e a range problem whose message starts with the key at fault, {@code "machine.<key> must be ..."}
     * @return it with where that key was set before it ("FILE:LINE: "), where it came from a file
     */
    private static IllegalArgumentException located(Config machine, IllegalArgumentException e) {
        String key =
                e.getMessage().substring("machine.".length(), e.getMessage().indexOf(' '));
        return new IllegalArgumentException(where(machine, key) + e.getMessage(), e);
    }

    /**
     * @return the key's text parsed, a problem prefixed with where the key was set
     * @throws IllegalArgumentException naming the file and line of the key at fault, where it came from a file
     */
    private static <T> T parsed(Config machine, String key, java.util.function.Function<String, T> parse) {
        try {
            return parse.apply(machine.getString(key));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where(machine, key) + e.getMessage(), e);
        }
    }

    /**
     * @param machine a {@code machine} block with every key (reference.conf's, or a scenario's merged on it)
     * @return its {@code host-background}
     * @throws IllegalArgumentException naming the key at fault
     */
    public static org.netnslab.machine.HostBackground hostBackground(Config machine) {
        long period = HoconDurations.duration(machine, "host-background.period").toNanos();
        long perNetns =
                HoconDurations.duration(machine, "host-background.per-netns").toNanos();
        long doubling = whole(machine, "host-background.doubling-netns");
        try {
            return new org.netnslab.machine.HostBackground(period, perNetns, doubling);
        } catch (IllegalArgumentException e) { // the message starts with the key out of range: say where it was set
            throw located(machine, e);
        }
    }

    /**
     * @return the whole number at {@code path} of the machine block
     * @throws IllegalArgumentException for one with a fraction (Typesafe Config's getLong would cut 1.5 to 1)
     */
    private static long whole(Config machine, String path) {
        com.typesafe.config.ConfigValue v = machine.getValue(path);
        if (v.valueType() == com.typesafe.config.ConfigValueType.NUMBER
                && !(v.unwrapped() instanceof Integer || v.unwrapped() instanceof Long)) {
            throw new IllegalArgumentException(
                    where(machine, path) + "machine." + path + " must be a whole number, got " + v.render());
        }
        return machine.getLong(path);
    }

    /** @return "FILE:LINE: " of the key at {@code path} in the machine block, where it came from a file, else "" */
    private static String where(Config machine, String path) {
        com.typesafe.config.ConfigOrigin o = machine.getValue(path).origin();
        return o.filename() == null ? "" : o.filename() + ":" + o.lineNumber() + ": ";
    }

    /**
     * @param machine a {@code machine} block with every key (reference.conf's, or a scenario's merged on it)
     * @return its scheduling keys
     * @throws IllegalArgumentException naming the key at fault
     */
    public static org.netnslab.machine.Scheduling scheduling(Config machine) {
        return new org.netnslab.machine.Scheduling(
                parsed(machine, "scheduler", org.netnslab.machine.Scheduling.Scheduler::parse),
                parsed(machine, "preempt", org.netnslab.machine.Scheduling.Preempt::parse),
                (int) whole(machine, "hz"),
                HoconDurations.duration(machine, "base-slice").toNanos(),
                HoconDurations.duration(machine, "context-switch").toNanos(),
                parsed(machine, "task-group", org.netnslab.machine.Scheduling.TaskGroup::parse),
                new org.netnslab.machine.ColdSwitch(
                        HoconDurations.duration(machine, "cold-switch.base").toNanos(),
                        HoconDurations.duration(machine, "cold-switch.evicted").toNanos(),
                        whole(machine, "cold-switch.cached-tasks")));
    }

    /** Live execution with reference.conf's machine (what tests and the embedding API get by default). */
    public static final Execution LIVE = new Execution(
            Mode.LIVE,
            defaults(com.typesafe.config.ConfigFactory.defaultReference().getConfig("netns-lab"))
                    .machine());

    /**
     * @param replicate 0-based replicate index
     * @return the machine of that replicate: random seed {@code random-seed + replicate}
     */
    public MachineSettings machineFor(int replicate) {
        return machineFor(replicate, machine.cpus());
    }

    /**
     * @param replicate 0-based replicate index
     * @param cpus the CPU count of this design run (one of {@link #cpuCounts()})
     * @return the machine of that replicate at that count: random seed {@code random-seed + replicate}, the
     *     same at every count, so a sweep's counts differ in CPUs only
     */
    public MachineSettings machineFor(int replicate, int cpus) {
        return new MachineSettings(
                cpus,
                machine.jitter(),
                machine.randomSeed() + replicate,
                machine.scheduling(),
                machine.hostBackground());
    }
}
