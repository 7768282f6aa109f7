package org.netnslab.calibrate;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The prediction set's scale ladder: the sizes of each kind of contended load, from small up to the largest this host
 * holds within calibrate's time bound (each load at most about 10 s on 2 vCPUs), a step lowered where a host limit
 * ({@link HostLimits}) would not hold it. The sends per injector shrink as the injectors grow, so a TC1 load makes
 * about 100,000 sends at every N.
 */
final class Ladder {
    private Ladder() {}

    /** A kind of contended load, the size its ladder climbs and what one unit of it takes of the host. */
    enum Kind {
        /** TC1: N injectors, each in a user+net namespace of its own with one listener process. */
        TC1("tc1", "N", 2, 8, 1024, 1, 1),
        /** M injectors into one netns with one listener. */
        REORDER("reorder", "M", 1, 4, 64, 0, 1),
        /** parallel loops of unshare -n /bin/true; netns waiting for cleanup_net still count against the limits. */
        LOOPS("unshare-loops", "loops", 2, 4, 8192, 0, 10),
        /** processes forked, exec'd and exited one at a time under the three proc connector listeners. */
        LISTENERS("proc-listeners", "processes", 0, 8, 0, 0, 0),
        /** sleeping processes a /proc scan walks. */
        SCAN("proc-scan", "live processes", 1, 4, 256, 0, 0);

        /** The load's name, as in the probe lines and the generated scenarios. */
        final String load;
        /** What its size counts. */
        final String unit;
        /** Tasks a unit holds at once, and tasks the load holds whatever its size. */
        final long tasksEach;

        final long tasksFixed;
        /** Memory a unit holds at once (its processes, a netns), KiB: about twice what one took on a 6.18 VM. */
        final long memKbEach;
        /** User and net namespaces a unit holds at once. */
        final long userNsEach;

        final long netNsEach;

        Kind(
                String load,
                String unit,
                long tasksEach,
                long tasksFixed,
                long memKbEach,
                long userNsEach,
                long netNsEach) {
            this.load = load;
            this.unit = unit;
            this.tasksEach = tasksEach;
            this.tasksFixed = tasksFixed;
            this.memKbEach = memKbEach;
            this.userNsEach = userNsEach;
            this.netNsEach = netNsEach;
        }

        /** @return what a unit takes of the limit named, and what the load takes whatever its size: {each, fixed} */
        long[] need(String limit) {
            return switch (limit) {
                case "RLIMIT_NPROC", "pid_max", "threads-max" -> new long[] {tasksEach, tasksFixed};
                case "MemAvailable" -> new long[] {memKbEach, 0};
                case "RLIMIT_NOFILE" -> new long[] {0, MAX_FDS_PER_PROCESS};
                case "max_user_namespaces" -> new long[] {userNsEach, userNsEach > 0 ? 1 : 0};
                case "max_net_namespaces" -> new long[] {netNsEach, netNsEach > 0 ? 1 : 0};
                default -> throw new IllegalArgumentException("no such host limit: " + limit);
            };
        }
    }

    /** The most file descriptors any one probe process of a ladder load holds, whatever its size (pipes, a socket). */
    static final long MAX_FDS_PER_PROCESS = 64;

    /** The full ladder, each kind's sizes from small to large. */
    static final Map<Kind, List<Long>> FULL = sizes(
            List.of(10L, 100L, 1000L, 3000L),
            List.of(2L, 4L, 8L, 16L),
            List.of(8L, 40L, 100L),
            List.of(1000L, 4000L, 8000L, 20000L),
            List.of(2000L, 4000L, 8000L, 16000L));

    /** {@code --quick}'s ladder: a small and a larger size of each kind. */
    static final Map<Kind, List<Long>> QUICK =
            sizes(List.of(10L, 100L), List.of(2L, 4L), List.of(8L, 20L), List.of(300L, 1000L), List.of(500L, 2000L));

    /**
     * A step a host limit lowered.
     *
     * @param kind the load
     * @param requested the ladder's size
     * @param planned the size run instead; 0 when the step was left out (no size above the step below it fits)
     * @param limit the limit's name
     * @param limitValue its value
     */
    record Lowered(Kind kind, long requested, long planned, String limit, long limitValue) {
        /** @return a line saying so */
        String text() {
            return "host limit " + limit + " = " + limitValue + (planned == 0 ? " leaves out " : " lowers ") + kind.load
                    + " " + kind.unit + " = " + requested + (planned == 0 ? "" : " to " + planned);
        }
    }

    /**
     * The ladder to run on this host.
     *
     * @param sizes each kind's sizes, from small to large
     * @param lowered the steps a limit lowered or left out, in the ladder's order
     * @param limits the limits read
     * @param quick whether it is {@code --quick}'s
     */
    record Plan(Map<Kind, List<Long>> sizes, List<Lowered> lowered, HostLimits limits, boolean quick) {
        /** @return a kind's largest size run, 0 when a limit left out every step */
        long largest(Kind k) {
            List<Long> s = sizes.get(k);
            return s.isEmpty() ? 0 : s.get(s.size() - 1);
        }

        /** @return a kind's smallest size run, 0 when a limit left out every step */
        long smallest(Kind k) {
            List<Long> s = sizes.get(k);
            return s.isEmpty() ? 0 : s.get(0);
        }
    }

    /**
     * @param quick {@code --quick}'s ladder
     * @param limits the host's limits
     * @return the ladder, each step above what a limit leaves room for lowered (to two significant digits), or left
     *     out where that is not above the step below it (or below 1)
     */
    static Plan plan(boolean quick, HostLimits limits) {
        Map<Kind, List<Long>> out = new EnumMap<>(Kind.class);
        List<Lowered> lowered = new ArrayList<>();
        for (Map.Entry<Kind, List<Long>> e : (quick ? QUICK : FULL).entrySet()) {
            Kind k = e.getKey();
            List<Long> run = new ArrayList<>();
            for (long size : e.getValue()) {
                long planned = size;
                HostLimits.Limit biting = null;
                for (HostLimits.Limit l : limits.limits()) {
                    long held = held(k, l);
                    if (held < planned) {
                        planned = held;
                        biting = l;
                    }
                }
                if (biting == null) {
                    run.add(size);
                    continue;
                }
                planned = twoDigits(planned);
                boolean kept = planned >= 1 && (run.isEmpty() || planned > run.get(run.size() - 1));
                lowered.add(new Lowered(k, size, kept ? planned : 0, biting.name(), biting.value()));
                if (kept) {
                    run.add(planned);
                }
            }
            out.put(k, List.copyOf(run));
        }
        return new Plan(java.util.Collections.unmodifiableMap(out), List.copyOf(lowered), limits, quick);
    }

    /** @return the largest size of kind {@code k} the limit leaves room for ({@link Long#MAX_VALUE}: no cap) */
    static long held(Kind k, HostLimits.Limit l) {
        if (l.room() == HostLimits.UNLIMITED) {
            return Long.MAX_VALUE;
        }
        long[] need = k.need(l.name());
        if (l.room() < need[1]) {
            return 0;
        }
        return need[0] == 0 ? Long.MAX_VALUE : (l.room() - need[1]) / need[0];
    }

    /** @return v rounded down to two significant digits (2345 to 2300), at least 0 */
    static long twoDigits(long v) {
        long scale = 1;
        while (v / scale >= 100) {
            scale *= 10;
        }
        return Math.max(0, v / scale * scale);
    }

    /**
     * @param n TC1's injectors
     * @param quick {@code --quick}'s smaller loads
     * @return its sends per injector: 100,000 sends in all (10,000 quick), at least 10 and at most 5000 (500) each
     */
    static long tc1Sends(long n, boolean quick) {
        return Math.max(10, Math.min(quick ? 500 : 5000, (quick ? 10_000 : 100_000) / n));
    }

    /**
     * @param m reorder's injectors into one netns
     * @param quick {@code --quick}'s smaller loads
     * @return its sends per injector: 20,000 sends in all (2000 quick)
     */
    static long reorderSends(long m, boolean quick) {
        return Math.max(1, (quick ? 2000 : 20_000) / m);
    }

    /** @return the iterations of each parallel unshare loop: 100 (10 quick) */
    static long loopIterations(boolean quick) {
        return quick ? 10 : 100;
    }

    /** The scans of each /proc scan size. */
    static final long SCANS = 5;

    /**
     * @param k a kind of load
     * @param size its size
     * @param quick {@code --quick}'s smaller loads
     * @return the probe and its arguments that run it
     */
    static List<String> probe(Kind k, long size, boolean quick) {
        String s = Long.toString(size);
        return switch (k) {
            case TC1 -> List.of("uevent_probe", "tc1", s, Long.toString(tc1Sends(size, quick)));
            case REORDER -> List.of("uevent_probe", "reorder", s, Long.toString(reorderSends(size, quick)));
            case LOOPS -> List.of("netns_probe", "parallel", s, Long.toString(loopIterations(quick)));
            case LISTENERS -> List.of("proc_probe", "listeners", s);
            case SCAN -> List.of("proc_probe", "scan", s, Long.toString(SCANS));
        };
    }

    private static Map<Kind, List<Long>> sizes(
            List<Long> tc1, List<Long> reorder, List<Long> loops, List<Long> listeners, List<Long> scan) {
        Map<Kind, List<Long>> m = new EnumMap<>(Kind.class);
        m.put(Kind.TC1, tc1);
        m.put(Kind.REORDER, reorder);
        m.put(Kind.LOOPS, loops);
        m.put(Kind.LISTENERS, listeners);
        m.put(Kind.SCAN, scan);
        return java.util.Collections.unmodifiableMap(m);
    }
}
