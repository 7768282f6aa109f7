package org.netnslab.fault;

import com.typesafe.config.Config;
import org.netnslab.settings.Setting;

/**
 * The fault switches ({@code netns-lab.model.faults}), each an every-Nth count: 0 is off (the
 * default); N makes every Nth eligible message of that kind throw a {@link ModelFault}, counted over
 * every actor of that kind under one supervisor. Test and soak use only: no design sets them, and a
 * custom design may not (a scenario's {@code model} block sets them for every design alike, so a
 * comparison stays fair). Immutable.
 *
 * @param netnsActor {@code faults.netns-actor}, 0..1,000,000,000
 * @param listener {@code faults.listener}, same range
 * @param cleanupWorker {@code faults.cleanup-worker}, same range
 * @param procConnector {@code faults.proc-connector}, same range
 */
public record FaultSettings(int netnsActor, int listener, int cleanupWorker, int procConnector) {
    /** Most messages between two faults. */
    public static final int MAX_EVERY = 1_000_000_000;
    /** {@code faults.netns-actor}. */
    public static final Setting<Integer> NETNS_ACTOR = Setting.integer(FaultSwitch.NETNS_ACTOR.key(), 0, MAX_EVERY);
    /** {@code faults.listener}. */
    public static final Setting<Integer> LISTENER = Setting.integer(FaultSwitch.LISTENER.key(), 0, MAX_EVERY);
    /** {@code faults.cleanup-worker}. */
    public static final Setting<Integer> CLEANUP_WORKER =
            Setting.integer(FaultSwitch.CLEANUP_WORKER.key(), 0, MAX_EVERY);
    /** {@code faults.proc-connector}. */
    public static final Setting<Integer> PROC_CONNECTOR =
            Setting.integer(FaultSwitch.PROC_CONNECTOR.key(), 0, MAX_EVERY);

    /** Every switch off. */
    public static final FaultSettings OFF = new FaultSettings(0, 0, 0, 0);

    /** Checks the ranges. */
    public FaultSettings {
        NETNS_ACTOR.check(netnsActor);
        LISTENER.check(listener);
        CLEANUP_WORKER.check(cleanupWorker);
        PROC_CONNECTOR.check(procConnector);
    }

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the settings
     * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
     * @throws IllegalArgumentException for a value out of range
     */
    public static FaultSettings fromConfig(Config model) {
        return new FaultSettings(
                NETNS_ACTOR.read(model), LISTENER.read(model), CLEANUP_WORKER.read(model), PROC_CONNECTOR.read(model));
    }

    /**
     * @param which a switch
     * @return its every-Nth count, 0 when off
     */
    public int every(FaultSwitch which) {
        return switch (which) {
            case NETNS_ACTOR -> netnsActor;
            case LISTENER -> listener;
            case CLEANUP_WORKER -> cleanupWorker;
            case PROC_CONNECTOR -> procConnector;
        };
    }

    /** @return whether any switch is on */
    public boolean any() {
        return netnsActor + listener + cleanupWorker + procConnector > 0;
    }
}
