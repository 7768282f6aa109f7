package org.netnslab.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The host limits that cap how large a contended load the probes can make ({@link Ladder}), read before the probes
 * run. Each is a count, {@link #UNLIMITED} where the host sets none or it cannot be read.
 *
 * @param nproc RLIMIT_NPROC (soft), tasks of this user; the kernel does not enforce it for root
 * @param pidMax /proc/sys/kernel/pid_max: pids at once, tasks (threads included)
 * @param threadsMax /proc/sys/kernel/threads-max: tasks at once
 * @param memAvailableKb /proc/meminfo MemAvailable, KiB
 * @param nofile RLIMIT_NOFILE (hard): the most file descriptors one probe process can raise its limit to
 * @param userNamespaces /proc/sys/user/max_user_namespaces
 * @param netNamespaces /proc/sys/user/max_net_namespaces
 * @param tasksInUse tasks on the host now (/proc/loadavg's fourth field), threads included
 * @param root whether calibrate runs as root (effective uid 0)
 */
public record HostLimits(
        long nproc,
        long pidMax,
        long threadsMax,
        long memAvailableKb,
        long nofile,
        long userNamespaces,
        long netNamespaces,
        long tasksInUse,
        boolean root) {
    /** A limit the host does not set, or that could not be read. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    /**
     * One limit and the room it leaves a probe.
     *
     * @param name the limit's name as the host spells it (e.g. {@code pid_max})
     * @param value its value, {@link #UNLIMITED} when none
     * @param room what a single probe run may take of it: three quarters of what other tasks leave (tasks), half of
     *     MemAvailable (KiB), three quarters of a namespace count, the whole descriptor limit
     */
    public record Limit(String name, long value, long room) {}

    /** @return every limit, with the room it leaves */
    public List<Limit> limits() {
        List<Limit> l = new ArrayList<>();
        l.add(new Limit("RLIMIT_NPROC", nproc, root ? UNLIMITED : taskRoom(nproc)));
        l.add(new Limit("pid_max", pidMax, taskRoom(pidMax)));
        l.add(new Limit("threads-max", threadsMax, taskRoom(threadsMax)));
        l.add(new Limit("MemAvailable", memAvailableKb, memAvailableKb == UNLIMITED ? UNLIMITED : memAvailableKb / 2));
        l.add(new Limit("RLIMIT_NOFILE", nofile, nofile));
        l.add(new Limit("max_user_namespaces", userNamespaces, quarterOff(userNamespaces)));
        l.add(new Limit("max_net_namespaces", netNamespaces, quarterOff(netNamespaces)));
        return List.copyOf(l);
    }

    /** @return the room a task limit leaves: three quarters of what the tasks in use leave free (0 at most) */
    private long taskRoom(long limit) {
        return limit == UNLIMITED ? UNLIMITED : quarterOff(Math.max(0, limit - tasksInUse));
    }

    private static long quarterOff(long v) {
        return v == UNLIMITED ? UNLIMITED : v - v / 4;
    }

    /**
     * @return this host's limits
     */
    public static HostLimits read() {
        String limits = text(Path.of("/proc/self/limits"));
        String loadavg = text(Path.of("/proc/loadavg"));
        String[] la = loadavg.trim().split("\\s+");
        long tasks = la.length >= 4 && la[3].contains("/") ? number(la[3].substring(la[3].indexOf('/') + 1)) : 0;
        return new HostLimits(
                rlimit(limits, "Max processes", 1),
                number(text(Path.of("/proc/sys/kernel/pid_max"))),
                number(text(Path.of("/proc/sys/kernel/threads-max"))),
                memAvailableKb(text(Path.of("/proc/meminfo"))),
                rlimit(limits, "Max open files", 2),
                number(text(Path.of("/proc/sys/user/max_user_namespaces"))),
                number(text(Path.of("/proc/sys/user/max_net_namespaces"))),
                tasks == UNLIMITED ? 0 : tasks,
                effectiveUid(text(Path.of("/proc/self/status"))) == 0);
    }

    /**
     * @param limits /proc/self/limits
     * @param name a line's name, e.g. "Max open files"
     * @param column 1 the soft limit, 2 the hard
     * @return its value, {@link #UNLIMITED} for "unlimited" or when absent
     */
    static long rlimit(String limits, String name, int column) {
        for (String line : limits.split("\n")) {
            if (line.startsWith(name + " ")) {
                String[] f = line.substring(name.length()).trim().split("\\s+");
                return f.length > column - 1 ? number(f[column - 1]) : UNLIMITED;
            }
        }
        return UNLIMITED;
    }

    /** @return MemAvailable from /proc/meminfo's text, KiB, or {@link #UNLIMITED} when absent */
    static long memAvailableKb(String meminfo) {
        for (String line : meminfo.split("\n")) {
            if (line.startsWith("MemAvailable:")) {
                return number(line.substring("MemAvailable:".length()).trim().split("\\s+")[0]);
            }
        }
        return UNLIMITED;
    }

    /** @return the effective uid from /proc/self/status's text ("Uid: real effective ..."), or -1 */
    static long effectiveUid(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("Uid:")) {
                String[] f = line.substring(4).trim().split("\\s+");
                return f.length > 1 ? number(f[1]) : -1;
            }
        }
        return -1;
    }

    /** @return a count's text as a number, {@link #UNLIMITED} for "unlimited" or what is not a whole number */
    private static long number(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return UNLIMITED; // "unlimited", or a limit the host does not show: no cap from it
        }
    }

    /** @return the file's text, read as a stream: procfs reports a size of 0, which a sized read takes at its word */
    private static String text(Path p) {
        try (java.io.InputStream in = Files.newInputStream(p)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException | SecurityException e) {
            return ""; // not readable here (not Linux, a restricted /proc): that limit caps nothing
        }
    }
}
