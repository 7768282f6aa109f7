package org.netnslab.fault;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The fault switches of one supervisor at run time: counts each switch's eligible messages over
 * every actor of its kind and says when one must throw. Thread-safe and non-blocking (atomic
 * counters): netns actors and listener streams call it from their own threads.
 */
public final class Faults {
    private final FaultSettings settings;
    private final Consumer<FaultSwitch> onFault;
    private final Map<FaultSwitch, AtomicLong> seen = new EnumMap<>(FaultSwitch.class);
    private final Map<FaultSwitch, AtomicLong> fired = new EnumMap<>(FaultSwitch.class);

    /** Every switch off, nothing reported. */
    public static final Faults NONE = new Faults(FaultSettings.OFF, s -> {});

    /**
     * @param settings every switch's every-Nth count
     * @param onFault told (from the faulting thread, before the throw) of each fault; must not block
     */
    public Faults(FaultSettings settings, Consumer<FaultSwitch> onFault) {
        this.settings = settings;
        this.onFault = onFault;
        for (FaultSwitch s : FaultSwitch.values()) {
            seen.put(s, new AtomicLong());
            fired.put(s, new AtomicLong());
        }
    }

    /**
     * One eligible message of switch {@code which}'s kind: every Nth gets a fault.
     *
     * @param which the switch
     * @param where what is being handled, for the fault's message (built only when it fires)
     * @return the fault to throw, or null to handle the message normally
     */
    public ModelFault next(FaultSwitch which, Supplier<String> where) {
        int every = settings.every(which);
        if (every == 0 || seen.get(which).incrementAndGet() % every != 0) {
            return null;
        }
        fired.get(which).incrementAndGet();
        onFault.accept(which);
        return new ModelFault(which, where.get());
    }

    /**
     * @param which a switch
     * @return faults it has fired so far
     */
    public long fired(FaultSwitch which) {
        return fired.get(which).get();
    }

    /** @return the settings */
    public FaultSettings settings() {
        return settings;
    }
}
