package org.netnslab.machine;

/**
 * Work the host does outside the load and outside the kernel's netns code, growing with the netns alive
 * ({@code machine.host-background}): an agent or a monitor that looks at every netns (on our VM its init, PID 1,
 * runs a burst every second whose CPU grows with the user+net namespaces its processes sit in; see
 * docs/calibrate.md). It is the host's, not the kernel's, so no kernel function stands for it: it is measured by
 * {@code uevent_probe idle} (K processes asleep, each in its own user+net namespace, and the machine's busy time
 * over a window, less K = 0's) and fitted there.
 *
 * <p>The form, in the netns alive K: a task in the root task group that wakes every {@code period} and runs
 * {@code perNetns x K x (1 + K / doublingNetns)} of CPU for each second of the period ({@code doublingNetns} 0: no
 * growth beyond linear), so its CPU a second at K is that, and the CPU per netns doubles at K = doublingNetns.
 *
 * @param periodNanos how often the task wakes, ns, 1 ms..60 s
 * @param perNetnsNanos CPU a second for each netns alive, ns, 0..1 ms
 * @param doublingNetns the netns alive at which the CPU per netns has doubled, 0..10^9 (0: it does not grow)
 */
public record HostBackground(long periodNanos, long perNetnsNanos, long doublingNetns) {
    /** None: the host runs nothing beside the load (reference.conf's default). */
    public static final HostBackground NONE = new HostBackground(1_000_000_000L, 0, 0);

    /** The most {@code per-netns} may be, ns. */
    public static final long MAX_PER_NETNS_NANOS = 1_000_000L;

    /** The least and most {@code period} may be, ns. */
    public static final long MIN_PERIOD_NANOS = 1_000_000L;

    /** The most {@code period} may be, ns. */
    public static final long MAX_PERIOD_NANOS = 60_000_000_000L;

    /** The most {@code doubling-netns} may be. */
    public static final long MAX_DOUBLING = 1_000_000_000L;

    /** Checks the ranges. */
    public HostBackground {
        if (periodNanos < MIN_PERIOD_NANOS || periodNanos > MAX_PERIOD_NANOS) {
            throw new IllegalArgumentException(
                    "machine.host-background.period must be in 1ms..60s, got " + periodNanos + " ns");
        }
        if (perNetnsNanos < 0 || perNetnsNanos > MAX_PER_NETNS_NANOS) {
            throw new IllegalArgumentException(
                    "machine.host-background.per-netns must be in 0..1ms, got " + perNetnsNanos + " ns");
        }
        if (doublingNetns < 0 || doublingNetns > MAX_DOUBLING) {
            throw new IllegalArgumentException(
                    "machine.host-background.doubling-netns must be in 0..1000000000, got " + doublingNetns);
        }
    }

    /** @return whether the host runs nothing beside the load */
    public boolean none() {
        return perNetnsNanos == 0;
    }

    /**
     * @param netns the netns alive, &gt;= 0
     * @return the task's CPU in one period with that many netns alive, ns
     */
    public long nanosPerPeriod(long netns) {
        if (none() || netns <= 0) {
            return 0;
        }
        double perSecond =
                perNetnsNanos * (double) netns * (doublingNetns == 0 ? 1 : 1 + netns / (double) doublingNetns);
        return Math.round(perSecond * periodNanos / 1e9);
    }
}
