package org.netnslab.calibrate;

/**
 * How much of the machine other work took while the probes ran ({@link BusyMeter}): a share of every CPU's time over
 * the probe runs, and the busiest run's. Figures measured then are noisy: other work preempts the probes and takes
 * the caches.
 *
 * @param share other work's share of the CPUs' time over all the probe runs, 0..1
 * @param seconds how long the probe runs took together, s
 * @param busiest the busiest probe run of at least {@link #MIN_RUN_S} s, e.g. "prediction set: uevent_probe tc1 10
 *     500", or "" when none ran that long
 * @param busiestShare other work's share of the CPUs' time during it, 0..1
 */
public record ProbesBusy(double share, double seconds, String busiest, double busiestShare) {
    /** Other work above this share over all the probe runs is a busy machine (as at the start: {@link HostFacts}). */
    static final double SHARE = HostFacts.BUSY_SHARE;
    /** Other work above this share during one probe run of {@link #MIN_RUN_S} s or more is a busy machine too. */
    static final double RUN_SHARE = 0.5;
    /** The largest share a recording may hold: older recordings could exceed 1 (see {@link #problem}). */
    static final double MAX_SHARE_READ = 1000;

    /** The shortest probe run whose share counts alone, s: /proc/stat counts 10 ms ticks. */
    static final double MIN_RUN_S = 1.0;

    /** @return whether other work was heavy enough over the probes, or during one of them, to make figures noisy */
    public boolean busy() {
        return share > SHARE || busiestShare > RUN_SHARE;
    }

    /** @return e.g. "other work took 31% of the CPUs over 42 s of probe runs, 64% during prediction set: ..." */
    public String text() {
        return String.format(
                        java.util.Locale.ROOT,
                        "other work took %.0f%% of the CPUs over %.0f s of probe runs",
                        100 * share,
                        seconds)
                + (busiest.isEmpty()
                        ? ""
                        : String.format(java.util.Locale.ROOT, ", %.0f%% during %s", 100 * busiestShare, busiest));
    }

    /**
     * @return what is wrong with a recording's figures (the field by its JSON path), or null
     */
    String problem() {
        // a recording made before BusyMeter counted exited kernel threads apart may hold a share above 1 (up to the
        // CPUs): it only words the headline, so it is read as written
        if (!(share >= 0 && share <= MAX_SHARE_READ)) {
            return "host.busyDuringProbes.share must be a number in 0..1 (up to " + (int) MAX_SHARE_READ
                    + " in older recordings), got " + share;
        }
        if (!(busiestShare >= 0 && busiestShare <= MAX_SHARE_READ)) {
            return "host.busyDuringProbes.busiestShare must be a number in 0..1 (up to " + (int) MAX_SHARE_READ
                    + " in older recordings), got " + busiestShare;
        }
        if (!(seconds >= 0 && seconds < 1e6)) {
            return "host.busyDuringProbes.seconds must be a number in 0..1,000,000, got " + seconds;
        }
        return busiest == null ? "host.busyDuringProbes.busiest must be text (\"\" for none)" : null;
    }
}
