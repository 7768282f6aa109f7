package org.netnslab.workload;

import org.netnslab.settings.HoconChecker;

/**
 * Reads one {@code workload.type}'s block of a scenario: its keys, types and ranges, and the limits
 * its counts reach once scaled. The scenario package registers one per type; each lives beside the
 * workload it builds.
 */
public interface WorkloadParser {
    /** Most operations a scaled count may reach per netns or worker. */
    long MAX_SCALED = 1_000_000_000_000L;

    /** @return the {@code workload.type} it reads, e.g. {@code uevent-injection} */
    String type();

    /**
     * Reads {@code workload.*} (whose {@code type} is this parser's), recording every problem,
     * including a count that goes beyond what one run can hold once multiplied by {@code --scale}.
     *
     * @param c the scenario's checker
     * @param scale {@code --scale}; checked against the counts only when in (0, 1000]
     * @return the workload; meaningless when {@code c} recorded a problem
     */
    Workload parse(HoconChecker c, double scale);
}
