package org.netnslab.metrics;

/**
 * Counters of how the fair machine shared its CPUs out among a uevent load's injectors, named as the calibrate probe's
 * fields they stand beside ({@code uevent_probe tc1}: {@code injector_preemptions}, {@code injector_ends_q4}).
 */
public final class SharingCounters {
    private SharingCounters() {}

    /** The injectors' preemptions over the counted phase (the probe: its injectors' ru_nivcsw, summed). */
    public static final String INJECTOR_PREEMPTIONS = "injector_preemptions";

    /** Injectors that finished in the last quarter of the span from the counted phase's start to the last one's end. */
    public static final String INJECTORS_ENDING_LAST_QUARTER = "injectors_ending_last_quarter";
}
