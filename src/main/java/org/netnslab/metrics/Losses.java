package org.netnslab.metrics;

import java.util.List;

/**
 * The counters of work a design run lost before it reached its figures: its measures are then over what was left, and
 * a comparison with a design that lost nothing compares unlike sets. The verdict names them.
 */
public final class Losses {
    private Losses() {}

    /** Counted uevent injections that failed other than by the capability rule (EAGAIN, EINVAL): not sent again. */
    public static final String INJECTIONS_FAILED = "injections_failed";

    /** Proc connector events a listener's full receive queue dropped (ENOBUFS): never received. */
    public static final String EVENTS_DROPPED = "events_dropped";

    /** Every loss counter, in the order the verdict names them. */
    public static final List<String> ALL = List.of(INJECTIONS_FAILED, EVENTS_DROPPED);
}
