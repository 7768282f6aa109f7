package org.netnslab.calibrate;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How busy other work kept the machine while the probes ran ({@link ProbesBusy}). Over each probe run: the CPUs' busy
 * time from /proc/stat's cpu line (user, nice, system), less calibrate's own (this JVM and the probes it reaped:
 * /proc/self/stat's utime, stime, cutime and cstime) and the kernel threads' (PF_KTHREAD in /proc/PID/stat: the
 * probes' own kernel work lands there, cleanup_net's kworker, ksoftirqd's RCU callbacks, rcu_preempt), over all the
 * CPUs' time. What remains is other processes'. All in USER_HZ ticks (10 ms): a short run is coarse, the sum over
 * the runs is not. Not thread-safe: one probe at a time.
 */
final class BusyMeter {
    /** PF_KTHREAD (include/linux/sched.h): the task is a kernel thread. */
    private static final long PF_KTHREAD = 0x00200000L;

    /**
     * The machine's and calibrate's CPU time at one moment, ticks.
     *
     * @param busy /proc/stat: user + nice + system, every CPU
     * @param total /proc/stat: user .. steal, every CPU
     * @param ours this JVM's utime + stime + cutime + cstime (its reaped probes)
     * @param kthreads each kernel thread's utime + stime, by PID
     */
    record Sample(long busy, long total, long ours, java.util.Map<Long, Long> kthreads) {
        /** Copies the map. */
        Sample {
            kthreads = java.util.Map.copyOf(kthreads);
        }
    }

    private long other;
    private long total;
    private double seconds;
    private String busiest = "";
    private double busiestShare;

    /** @return the machine now, or null when /proc cannot be read (no figure then) */
    static Sample sample() {
        try {
            String[] cpu = Files.readString(Path.of("/proc/stat"))
                    .split("\n", 2)[0]
                    .trim()
                    .split("\\s+");
            if (cpu.length < 9 || !cpu[0].equals("cpu")) {
                return null;
            }
            long total = 0;
            for (int i = 1; i <= 8; i++) {
                total += Long.parseLong(cpu[i]);
            }
            long[] self = times(Files.readString(Path.of("/proc/self/stat")));
            java.util.Map<Long, Long> kthreads = new java.util.HashMap<>();
            try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                for (Path p : procs) {
                    long[] t;
                    try {
                        t = times(Files.readString(p.resolve("stat")));
                    } catch (IOException | RuntimeException e) {
                        continue; // the process ended between the listing and the read, or is not ours to read
                    }
                    if ((t[0] & PF_KTHREAD) != 0) {
                        kthreads.put(Long.parseLong(p.getFileName().toString()), t[1] + t[2]);
                    }
                }
            }
            return new Sample(
                    Long.parseLong(cpu[1]) + Long.parseLong(cpu[2]) + Long.parseLong(cpu[3]),
                    total,
                    self[1] + self[2] + self[3] + self[4],
                    kthreads);
        } catch (IOException | RuntimeException e) {
            return null; // not Linux, or /proc not mounted: the calibration says nothing of the machine's load
        }
    }

    /**
     * @param stat a /proc/PID/stat line: "PID (COMM) STATE PPID ..."
     * @return {flags, utime, stime, cutime, cstime}, ticks
     */
    static long[] times(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        return new long[] {
            Long.parseLong(f[6]),
            Long.parseLong(f[11]),
            Long.parseLong(f[12]),
            Long.parseLong(f[13]),
            Long.parseLong(f[14])
        };
    }

    /**
     * @param before the machine before the run
     * @param after after it, its probe reaped
     * @return other work's ticks in between, and all the CPUs' ticks: {other, total}
     */
    static long[] other(Sample before, Sample after) {
        long busy = after.busy() - before.busy();
        long ours = after.ours() - before.ours();
        // per kernel thread: one that exited in between (netns teardown's kworkers do) takes its whole time out of a
        // plain sum, which made other work exceed the CPUs; its time in the window is lost to "other" instead
        long kthreads = 0;
        for (java.util.Map.Entry<Long, Long> k : after.kthreads().entrySet()) {
            kthreads += Math.max(0, k.getValue() - before.kthreads().getOrDefault(k.getKey(), 0L));
        }
        return new long[] {Math.max(0, busy - ours - kthreads), Math.max(0, after.total() - before.total())};
    }

    /**
     * Adds one probe run.
     *
     * @param label what ran, e.g. "fit set: sched_probe ctxsw 20000"
     * @param before {@link #sample} before it started, or null
     * @param after after it ended and was reaped, or null
     * @param runSeconds how long it ran, s
     */
    void add(String label, Sample before, Sample after, double runSeconds) {
        if (before == null || after == null) {
            return;
        }
        long[] o = other(before, after);
        other += o[0];
        total += o[1];
        seconds += runSeconds;
        double share = o[1] > 0 ? (double) o[0] / o[1] : 0;
        if (runSeconds >= ProbesBusy.MIN_RUN_S && share > busiestShare) {
            busiest = label;
            busiestShare = share;
        }
    }

    /** @return what the runs added so far show, or null when none could be measured */
    ProbesBusy result() {
        return total == 0 ? null : new ProbesBusy((double) other / total, seconds, busiest, busiestShare);
    }
}
