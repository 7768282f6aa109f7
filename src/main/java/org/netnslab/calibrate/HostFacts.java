package org.netnslab.calibrate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * What the simulated machine takes from this host (docs/scheduler.md, its keys): online CPUs, HZ, the
 * preemption model, the scheduler's base slice, the kernel release, and the load at the start and while the
 * probes ran (a busy machine makes noisy figures).
 *
 * @param release /proc/sys/kernel/osrelease
 * @param cpus online CPUs (/sys/devices/system/cpu/online)
 * @param hz CONFIG_HZ from /proc/config.gz, or 0 when unreadable
 * @param preempt the preemption model: /sys/kernel/debug/sched/preempt's selected one, else CONFIG_PREEMPT_*
 *     from /proc/config.gz ("none", "voluntary", "full", "lazy"), else "unknown"
 * @param baseSliceNs /sys/kernel/debug/sched/base_slice_ns, else 750,000 ns x (1 + ilog2(min(cpus, 8)))
 *     (kernel/sched/fair.c sysctl_sched_base_slice, get_update_sysctl_factor), ns
 * @param baseSliceSource where baseSliceNs came from
 * @param loadAverage1 the 1-minute load average at the start
 * @param busyAtStart the share of the CPUs' time busy (/proc/stat: user, nice, system, irq, softirq) over the
 *     {@value #BUSY_SAMPLE_MS} ms before the probes, 0..1; null when not measured (a recording made before the
 *     probes sampled it, or /proc/stat unreadable). The load average alone also counts a previous calibration's
 *     thousands of short processes for a minute after they are gone.
 * @param taskGroup the task group the probes' processes run in against the kernel threads (kernel/sched/autogroup.c,
 *     CONFIG_FAIR_GROUP_SCHED): "session" (a cpu cgroup other than the root, or sched_autogroup's group for their
 *     session), "root", or null when not read (a recording made before the probes read it)
 * @param taskGroupSource what taskGroup was read from, e.g. "sched_autogroup: /proc/self/autogroup /autogroup-64";
 *     null with it
 * @param busyDuringProbes how much of the CPUs other work took while the probes ran ({@link BusyMeter}); null before
 *     they ran, or in a recording made before the probes measured it
 */
public record HostFacts(
        String release,
        int cpus,
        int hz,
        String preempt,
        long baseSliceNs,
        String baseSliceSource,
        double loadAverage1,
        Double busyAtStart,
        String taskGroup,
        String taskGroupSource,

        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        ProbesBusy busyDuringProbes) {
    /** How long {@link #read} samples the CPUs' busy time, ms. */
    static final int BUSY_SAMPLE_MS = 300;
    /** Busier than this share at the start, with the load average above the CPUs, is a busy machine. */
    static final double BUSY_SHARE = 0.25;

    /** The task group in lower case, as {@code machine.task-group} reads it (a recording may have another case). */
    public HostFacts {
        taskGroup = taskGroup == null ? null : taskGroup.toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * @param busy how busy other work kept the machine while the probes ran, or null
     * @return these facts with it
     */
    public HostFacts withBusyDuringProbes(ProbesBusy busy) {
        return new HostFacts(
                release,
                cpus,
                hz,
                preempt,
                baseSliceNs,
                baseSliceSource,
                loadAverage1,
                busyAtStart,
                taskGroup,
                taskGroupSource,
                busy);
    }

    /** @return whether other work took enough of the CPUs while the probes ran to make their figures noisy */
    public boolean busyDuring() {
        return busyDuringProbes != null && busyDuringProbes.busy();
    }

    /**
     * @return whether other work ran when the calibration started: the load average above the CPUs and, where it was
     *     sampled, the CPUs busier than {@link #BUSY_SHARE} just before the probes
     */
    public boolean busy() {
        return loadAverage1 > cpus && (busyAtStart == null || busyAtStart > BUSY_SHARE);
    }

    /** @return this host's facts, each from the first source that can be read */
    public static HostFacts read() {
        String release = text(Path.of("/proc/sys/kernel/osrelease"), System.getProperty("os.version"));
        int cpus = onlineCpus(text(Path.of("/sys/devices/system/cpu/online"), ""));
        if (cpus <= 0) {
            cpus = Runtime.getRuntime().availableProcessors();
        }
        String config = kernelConfig();
        int hz = 0;
        String preempt = "unknown";
        for (String line : config.split("\n")) {
            if (line.startsWith("CONFIG_HZ=")) {
                hz = Integer.parseInt(line.substring("CONFIG_HZ=".length()).trim());
            } else if (line.equals("CONFIG_PREEMPT_NONE=y")) {
                preempt = "none";
            } else if (line.equals("CONFIG_PREEMPT_VOLUNTARY=y")) {
                preempt = "voluntary";
            } else if (line.equals("CONFIG_PREEMPT=y")) {
                preempt = "full";
            } else if (line.equals("CONFIG_PREEMPT_LAZY=y")) {
                preempt = "lazy";
            }
        }
        String dyn = text(Path.of("/sys/kernel/debug/sched/preempt"), "");
        int open = dyn.indexOf('(');
        if (open >= 0 && dyn.indexOf(')', open) > open) { // "none (voluntary) full": the selected one in brackets
            preempt = dyn.substring(open + 1, dyn.indexOf(')', open));
        }
        String slice = text(Path.of("/sys/kernel/debug/sched/base_slice_ns"), "");
        long sliceNs;
        String sliceSource;
        if (slice.matches("\\d+")) {
            sliceNs = Long.parseLong(slice);
            sliceSource = "/sys/kernel/debug/sched/base_slice_ns";
        } else {
            sliceNs = defaultBaseSliceNs(cpus);
            sliceSource = "derived: 0.75 ms x (1 + ilog2(min(cpus, 8))) (debugfs not readable)";
        }
        double load = 0;
        String la = text(Path.of("/proc/loadavg"), "");
        if (!la.isEmpty()) {
            load = Double.parseDouble(la.split("\\s+")[0]);
        }
        String[] group = taskGroup(
                text(Path.of("/proc/self/cgroup"), ""),
                text(Path.of("/proc/sys/kernel/sched_autogroup_enabled"), ""),
                text(Path.of("/proc/self/autogroup"), ""),
                cg -> text(Path.of("/sys/fs/cgroup" + cg + "/cgroup.subtree_control"), ""));
        return new HostFacts(
                release, cpus, hz, preempt, sliceNs, sliceSource, load, busyShare(), group[0], group[1], null);
    }

    /**
     * Where this process (and so the probes it starts) is scheduled against the kernel threads. The kernel puts a
     * task in its cpu cgroup's task group; only in the root cpu cgroup, and with kernel.sched_autogroup_enabled, in
     * its session's autogroup instead (autogroup_task_group, task_wants_autogroup). Kernel threads stay in the root
     * group (autogroup_default).
     *
     * @param cgroup /proc/self/cgroup
     * @param autogroupEnabled /proc/sys/kernel/sched_autogroup_enabled ("" when absent: no CONFIG_SCHED_AUTOGROUP)
     * @param autogroup /proc/self/autogroup, e.g. "/autogroup-64 nice 0" ("" when absent, or in init's session:
     *     proc_sched_autogroup_show_task prints nothing for autogroup_default)
     * @param subtreeControl the cgroup.subtree_control text of a cgroup v2 path relative to /sys/fs/cgroup (called
     *     with "", the root cgroup's)
     * @return {"session" or "root", what it was read from}
     */
    static String[] taskGroup(
            String cgroup,
            String autogroupEnabled,
            String autogroup,
            java.util.function.UnaryOperator<String> subtreeControl) {
        String cpuCgroup = null;
        for (String line : cgroup.split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length < 3) {
                continue;
            }
            if (java.util.Arrays.asList(f[1].split(",")).contains("cpu")) { // v1: "4:cpu,cpuacct:/path"
                cpuCgroup = f[2];
            } else if (f[0].equals("0") && f[1].isEmpty() && cpuCgroup == null && !f[2].equals("/")) {
                // v2: "0::/path" is in a cpu task group other than the root when the root cgroup enables the cpu
                // controller for its children (its top-level ancestor then has one)
                if (java.util.Arrays.asList(subtreeControl.apply("").split("\\s+"))
                        .contains("cpu")) {
                    cpuCgroup = f[2];
                }
            }
        }
        if (cpuCgroup != null && !cpuCgroup.equals("/")) {
            return new String[] {"session", "cpu cgroup " + cpuCgroup};
        }
        // "/autogroup-64 nice 0"; empty for init's session (autogroup_default is the root group: nothing printed)
        String ag = autogroup.trim();
        if (autogroupEnabled.trim().equals("1") && ag.startsWith("/autogroup-")) {
            return new String[] {
                "session", "sched_autogroup: kernel.sched_autogroup_enabled = 1, /proc/self/autogroup " + ag
            };
        }
        return new String[] {
            "root",
            autogroupEnabled.isBlank()
                    ? "no sched_autogroup, root cpu cgroup"
                    : "kernel.sched_autogroup_enabled = " + autogroupEnabled.trim() + ", /proc/self/autogroup "
                            + (ag.isEmpty() ? "absent" : ag) + ", root cpu cgroup"
        };
    }

    /** @return the CPUs' busy share over {@link #BUSY_SAMPLE_MS} ms from /proc/stat's cpu line, null when unreadable */
    private static Double busyShare() {
        long[] a = cpuTimes();
        try {
            Thread.sleep(BUSY_SAMPLE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        long[] b = cpuTimes();
        if (a == null || b == null || b[0] + b[1] <= a[0] + a[1]) {
            return null;
        }
        return (double) (b[0] - a[0]) / (b[0] + b[1] - a[0] - a[1]);
    }

    /** @return {busy, idle} ticks from /proc/stat's first line, or null */
    private static long[] cpuTimes() {
        String[] f = text(Path.of("/proc/stat"), "").split("\n", 2)[0].trim().split("\\s+");
        if (f.length < 8 || !f[0].equals("cpu")) {
            return null;
        }
        try {
            long busy = Long.parseLong(f[1])
                    + Long.parseLong(f[2])
                    + Long.parseLong(f[3])
                    + Long.parseLong(f[6])
                    + Long.parseLong(f[7]);
            return new long[] {busy, Long.parseLong(f[4]) + Long.parseLong(f[5])};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * @param cpus online CPUs
     * @return the EEVDF base slice Linux sets at boot: 0.75 ms x (1 + ilog2(min(cpus, 8))), ns
     */
    public static long defaultBaseSliceNs(int cpus) {
        int factor = 1 + (31 - Integer.numberOfLeadingZeros(Math.max(1, Math.min(cpus, 8))));
        return 750_000L * factor;
    }

    /** @param online a CPU list such as "0-1" or "0,2-5" @return how many CPUs it names, or 0 */
    static int onlineCpus(String online) {
        int n = 0;
        for (String part : online.trim().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] ab = part.trim().split("-");
            n += ab.length == 1 ? 1 : Integer.parseInt(ab[1]) - Integer.parseInt(ab[0]) + 1;
        }
        return n;
    }

    /**
     * @param major a kernel version's major number
     * @param minor its minor number
     * @return whether this host's release is that version or later (false when the release does not start
     *     with major.minor)
     */
    public boolean kernelAtLeast(int major, int minor) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(release);
        if (!m.find()) {
            return false;
        }
        int a = Integer.parseInt(m.group(1));
        int b = Integer.parseInt(m.group(2));
        return a > major || (a == major && b >= minor);
    }

    /** @return the host's kernel release with only [A-Za-z0-9.-]: a name for its design era */
    public String eraName() {
        return "host-" + release.replaceAll("[^A-Za-z0-9.-]", "-");
    }

    private static String kernelConfig() {
        Path gz = Path.of("/proc/config.gz");
        if (Files.isReadable(gz)) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return ""; // an unreadable config leaves hz 0 and preempt "unknown", which calibration.json shows
            }
        }
        return text(Path.of("/boot/config-" + text(Path.of("/proc/sys/kernel/osrelease"), "")), "");
    }

    private static String text(Path p, String otherwise) {
        try {
            return Files.readString(p).trim();
        } catch (IOException | SecurityException e) {
            return otherwise; // absent or not permitted (debugfs without root): the caller has a fallback
        }
    }
}
