package org.netnslab.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValueType;
import java.util.Set;
import org.netnslab.metrics.MinScale;
import org.netnslab.settings.HoconChecker;

/**
 * A scenario's {@code min-scale} block: the smallest {@code --scale} at which its verdict can judge what the
 * scenario is for, and why ({@code min-scale { scale = 0.03, reason = "..." }}; docs/scenarios.md), for one execution mode only when
 * it names one ({@code execution = live}); a list of two such blocks gives each mode its own.
 */
final class MinScaleReader {
    private static final Set<String> KEYS = Set.of("scale", "reason", "execution");
    /** The largest --scale a run accepts, so the largest minimum a scenario may set. */
    private static final double MAX = 1000;

    private MinScaleReader() {}

    /**
     * @param c the scenario's checker
     * @return the block's minimum, or null when there is none or after a problem
     */
    static MinScale read(HoconChecker c) {
        if (!c.conf().hasPath("min-scale")) {
            return null;
        }
        if (c.conf().getValue("min-scale").valueType() == ConfigValueType.LIST) {
            return both(c, (ConfigList) c.conf().getValue("min-scale"));
        }
        ConfigObject block = c.object("min-scale");
        if (block == null) {
            return null;
        }
        return one(c, block, "min-scale.");
    }

    /** @return a list's two minimums, one per execution mode, or null after a problem */
    private static MinScale both(HoconChecker c, ConfigList list) {
        if (list.size() != 2 || list.stream().anyMatch(v -> v.valueType() != ConfigValueType.OBJECT)) {
            c.problem(
                    "min-scale",
                    "a list takes two blocks, one for each execution mode: [{ scale, reason, execution = live },"
                            + " { scale, reason, execution = virtual }]");
            return null;
        }
        MinScale first = one(c, (ConfigObject) list.get(0), "min-scale[0].");
        MinScale second = one(c, (ConfigObject) list.get(1), "min-scale[1].");
        if (first == null || second == null) {
            return null;
        }
        if (first.execution() == null
                || second.execution() == null
                || first.execution().equals(second.execution())) {
            c.problem("min-scale", "the two blocks must name the two execution modes: one live, one virtual");
            return null;
        }
        return new MinScale(first.scale(), first.reason(), first.execution(), second);
    }

    private static MinScale one(HoconChecker c, ConfigObject block, String at) {
        int before = c.problems().size();
        HoconChecker m = c.within(block, at); // a key missing is said at the block's line
        m.unknownKeys(block, KEYS, "");
        Double scale = m.positive("scale", "the smallest --scale the verdict can judge at");
        if (scale == null && !block.containsKey("scale")) {
            m.problem("scale", "missing required key (the smallest --scale the verdict can judge at)");
        } else if (scale != null && scale > MAX) {
            m.problem("scale", "must be at most " + (int) MAX + " (the largest --scale), got " + scale);
        }
        String reason = m.string("reason", null);
        if (reason != null && (reason.isBlank() || reason.contains("\n"))) {
            m.problem("reason", "must be one line saying why a smaller scale cannot tell");
        }
        String execution = block.containsKey("execution") ? m.string("execution", "") : null;
        if (execution != null && !execution.equals("live") && !execution.equals("virtual")) {
            m.problem("execution", "must be live or virtual (the one mode the minimum holds for), got " + execution);
        }
        return c.problems().size() == before ? new MinScale(scale, reason, execution) : null;
    }
}
