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
 */
public record MinScale(double scale, String reason, String execution) {
    /**
     * Checks the scale and the mode.
     *
     * @throws IllegalArgumentException when the scale is not &gt; 0 or the mode is neither live nor virtual
     */
    public MinScale {
        if (!(scale > 0)) {
            throw new IllegalArgumentException("min-scale must be > 0, got " + scale);
        }
        if (execution != null && !execution.equals("live") && !execution.equals("virtual")) {
            throw new IllegalArgumentException("min-scale execution must be live or virtual, got " + execution);
        }
    }

    /**
     * A minimum for both execution modes.
     *
     * @param scale the smallest {@code --scale}, &gt; 0
     * @param reason why a smaller scale cannot tell
     */
    public MinScale(double scale, String reason) {
        this(scale, reason, null);
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
     * @param v a scale, finite
     * @return it as written in a scenario or on the command line: 0.03, 1, 1000000000 (not 1.0E9)
     */
    public static String text(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
