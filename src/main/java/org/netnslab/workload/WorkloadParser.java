package org.netnslab.workload;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.netnslab.settings.HoconChecker;

/**
 * Reads one {@code workload.type}'s block of a scenario: its keys, types and ranges, and the limits
 * its counts reach once scaled. The scenario package registers one per type; each lives beside the
 * workload it builds.
 */
public abstract class WorkloadParser {
    /** Most operations a scaled count may reach per netns or worker. */
    public static final long MAX_SCALED = 1_000_000_000_000L;

    /**
     * Most netns, workers or injectors one run may name: ids and indices are ints. No lower cap: the
     * up-front heap estimate ({@code scenario.HeapEstimate}) decides whether the population fits the JVM.
     */
    public static final int MAX_POPULATION = 1_000_000_000;

    private final String type;
    private final Set<String> keys;

    /**
     * @param type the {@code workload.type} it reads, e.g. {@code uevent-injection}
     * @param keys the keys its block may hold besides {@code type}
     */
    protected WorkloadParser(String type, String... keys) {
        this.type = type;
        Set<String> all = new HashSet<>(List.of(keys));
        all.add("type");
        this.keys = Set.copyOf(all);
    }

    /** @return the {@code workload.type} it reads, e.g. {@code uevent-injection} */
    public final String type() {
        return type;
    }

    /**
     * Reads {@code workload.*} (whose {@code type} is this parser's), recording every problem: a key
     * it does not know, then those of {@link #read}.
     *
     * @param c the scenario's checker
     * @param scale {@code --scale}; checked against the counts only when in (0, 1000]
     * @return the workload; meaningless when {@code c} recorded a problem
     */
    public final Workload parse(HoconChecker c, double scale) {
        c.unknownKeys(c.conf().getObject("workload"), keys, "workload.");
        return read(c, scale);
    }

    /**
     * Reads the type's own keys, including a count that goes beyond what one run can hold once
     * multiplied by {@code --scale} ({@link #capScaled}).
     *
     * @param c the scenario's checker
     * @param scale {@code --scale}
     * @return the workload; meaningless when {@code c} recorded a problem
     */
    protected abstract Workload read(HoconChecker c, double scale);

    /**
     * Records "times --scale S exceeds MAX" and {@code unit} at {@code key} when {@code scaled} is above
     * {@code max}. A {@code --scale} outside (0, 1000] is refused where it is read, and not checked here.
     *
     * @param c the scenario's checker
     * @param scale {@code --scale}
     * @param key the key of the count
     * @param scaled the count once scaled
     * @param max the most it may reach
     * @param unit what the message says after {@code max}, e.g. {@code " iterations per worker"}
     */
    protected static void capScaled(HoconChecker c, double scale, String key, double scaled, long max, String unit) {
        capScaled(c, scale, key, "", "", scaled, max, unit);
    }

    /**
     * As {@link #capScaled(HoconChecker, double, String, double, long, String)}, the message opening with
     * {@code counted} and saying {@code added} after the scale.
     *
     * @param counted what the message says first, e.g. {@code "userns-owned + init-owned = 20 "}
     * @param added what {@code scaled} adds to the count times the scale, e.g. {@code ", plus
     *     workload.warmup-per-netns (5),"}; "" for nothing
     */
    protected static void capScaled(
            HoconChecker c,
            double scale,
            String key,
            String counted,
            String added,
            double scaled,
            long max,
            String unit) {
        if (scale > 0 && scale <= 1000 && scaled > max) {
            c.problem(
                    key,
                    counted + "times --scale " + org.netnslab.metrics.MinScale.text(scale) + added + " exceeds " + max
                            + unit);
        }
    }
}
