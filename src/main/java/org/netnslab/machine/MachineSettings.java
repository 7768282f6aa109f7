package org.netnslab.machine;

/**
 * The simulated machine of one design run in virtual execution (scenario key {@code machine}, defaults in
 * reference.conf {@code netns-lab.machine}).
 *
 * @param cpus simulated CPUs, 1..4096
 * @param jitter each simulated cost is multiplied by a factor drawn uniformly from [1 - jitter, 1 + jitter]
 *     (0..0.5): deterministic service times lock closed loops into lock-step patterns; a seeded jitter
 *     breaks them without changing means
 * @param randomSeed seeds the jitter (scenario key {@code random-seed}): same seed, same figures
 * @param scheduling how the CPUs schedule tasks ({@code machine.scheduler}, {@code preempt}, {@code hz},
 *     {@code base-slice}, {@code context-switch})
 * @param hostBackground the host's work beside the load ({@code machine.host-background}; fair, virtual only)
 */
public record MachineSettings(
        int cpus, double jitter, long randomSeed, Scheduling scheduling, HostBackground hostBackground) {
    /** Checks the ranges. */
    public MachineSettings {
        if (cpus < 1 || cpus > 4096) {
            throw new IllegalArgumentException("machine.cpus must be in 1..4096, got " + cpus);
        }
        if (!(jitter >= 0 && jitter <= 0.5)) {
            throw new IllegalArgumentException("machine.jitter must be in 0..0.5, got " + jitter);
        }
        if (scheduling == null) {
            throw new IllegalArgumentException("machine scheduling must be given");
        }
        if (hostBackground == null) {
            throw new IllegalArgumentException("machine host-background must be given");
        }
    }

    /**
     * No host background ({@link HostBackground#NONE}).
     *
     * @param cpus simulated CPUs
     * @param jitter the cost jitter
     * @param randomSeed the jitter's seed
     * @param scheduling how the CPUs schedule tasks
     */
    public MachineSettings(int cpus, double jitter, long randomSeed, Scheduling scheduling) {
        this(cpus, jitter, randomSeed, scheduling, HostBackground.NONE);
    }

    /**
     * A FIFO machine ({@link Scheduling#FIFO}).
     *
     * @param cpus simulated CPUs
     * @param jitter the cost jitter
     * @param randomSeed the jitter's seed
     */
    public MachineSettings(int cpus, double jitter, long randomSeed) {
        this(cpus, jitter, randomSeed, Scheduling.FIFO);
    }

    /** @return these settings with {@code n} CPUs */
    public MachineSettings withCpus(int n) {
        return new MachineSettings(n, jitter, randomSeed, scheduling, hostBackground);
    }
}
