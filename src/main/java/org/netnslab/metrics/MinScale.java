package org.netnslab.metrics;

import java.util.Locale;

/**
 * The smallest {@code --scale} at which a scenario's verdict can judge what the scenario is for (its
 * {@code min-scale} block, docs/scenarios.md): below it a comparison with a seed figure neither agrees nor
 * disagrees, and "all held" is no all-clear; the verdict says so instead ({@link #tooSmall}).
 *
 * @param scale the smallest {@code --scale}, &gt; 0
 * @param reason why a smaller scale cannot tell, one phrase (shown in the verdict)
 * @param execution the one execution mode the minimum holds for ({@code live} or {@code virtual}), or null for
 *     both: a race that virtual time shows on every run needs many sends only when threads must interleave by
 *     chance
 * @param otherMode the other mode's own minimum, or null for none: a scenario may give one per mode
 */
public record MinScale(double scale, String reason, String execution, MinScale otherMode) {
    /**
     * Checks the scale and the modes.
     *
     * @throws IllegalArgumentException when the scale is not &gt; 0, the mode is neither live nor virtual, or the
     *     other mode's minimum is not for the other mode
     */
    public MinScale {
        if (!(scale > 0)) {
            throw new IllegalArgumentException("min-scale must be > 0, got " + scale);
        }
        if (execution != null && !execution.equals("live") && !execution.equals("virtual")) {
            throw new IllegalArgumentException("min-scale execution must be live or virtual, got " + execution);
        }
        if (otherMode != null
                && (execution == null
                        || otherMode.execution() == null
                        || otherMode.execution().equals(execution)
                        || otherMode.otherMode() != null)) {
            throw new IllegalArgumentException("a second min-scale must be for the other execution mode");
        }
    }

    /**
     * A minimum for one execution mode, or for both.
     *
     * @param scale the smallest {@code --scale}, &gt; 0
     * @param reason why a smaller scale cannot tell
     * @param execution {@code live}, {@code virtual}, or null for both
     */
    public MinScale(double scale, String reason, String execution) {
        this(scale, reason, execution, null);
    }

    /**
     * @param mode a run's execution mode, {@code live} or {@code virtual}
     * @return the minimum that holds for a run in that mode (this one or the other mode's), or null for none
     */
    public MinScale forMode(String mode) {
        if (appliesTo(mode)) {
            return otherMode == null ? this : new MinScale(scale, reason, execution);
        }
        return otherMode == null ? null : otherMode.forMode(mode);
    }

    /**
     * A minimum for both execution modes.
     *
     * @param scale the smallest {@code --scale}, &gt; 0
     * @param reason why a smaller scale cannot tell
     */
    public MinScale(double scale, String reason) {
        this(scale, reason, null, null);
    }

    /**
     * @param mode a run's execution mode, {@code live} or {@code virtual}
     * @return whether this minimum holds for a run in that mode
     */
    public boolean appliesTo(String mode) {
        return execution == null || execution.equals(mode);
    }

    /**
     * @param runScale a run's {@code --scale}
     * @return whether the run is below the minimum, too small to judge
     */
    public boolean excludes(double runScale) {
        return runScale < scale;
    }

    /** @return what the verdict says in place of a judgement, e.g. {@code too small a scale to compare: run at ...} */
    public String tooSmall() {
        return String.format(
                Locale.ROOT, "too small a scale to compare: run at --scale >= %s (%s)", text(scale), reason);
    }

    /**
     * @return what the invariants sentence says below the minimum, e.g. {@code too small a scale for an all-clear: run
     *     at ...}: the invariants were checked, but a hazard may not have had the load to show
     */
    public String noAllClear() {
        return String.format(
                Locale.ROOT, "too small a scale for an all-clear: run at --scale >= %s (%s)", text(scale), reason);
    }

    /**
     * @param v a scale, finite
     * @return it as written in a scenario or on the command line: 0.03, 1, 1000000000 (not 1.0E9)
     */
    public static String text(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
