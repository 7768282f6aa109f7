package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueType;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netnslab.design.Strategies;
import org.netnslab.settings.HoconChecker;

/** The blocks of the strategy keys ({@code uevent}, {@code netns}, ...) a model must give as objects. Stateless. */
final class StrategyBlocks {
    private StrategyBlocks() {}

    /** Each block of the strategy keys, outer ones first, with the keys under it, in {@link Strategies#ROWS} order. */
    private static final Map<String, List<String>> BLOCKS = blocks();

    private static Map<String, List<String>> blocks() {
        Map<String, List<String>> blocks = new LinkedHashMap<>();
        for (Strategies.Row<?> row : Strategies.ROWS) {
            String key = row.key();
            for (int dot = key.indexOf('.'); dot > 0; dot = key.indexOf('.', dot + 1)) {
                blocks.computeIfAbsent(key.substring(0, dot), k -> new java.util.ArrayList<>())
                        .add(key);
            }
        }
        return blocks;
    }

    /**
     * Each block of the strategy keys ({@code uevent}, {@code netns}, ...) that the model gives as something other
     * than an object, said once with the keys it holds ({@code model.uevent = 5} would otherwise fail each of its
     * keys).
     *
     * @param c where the problem goes
     * @param model a model config (a design's keys over the scenario's and reference.conf's)
     * @param pathPrefix the problem's path prefix ("model." for the scenario's model block, else "")
     * @param where the problem's lead ("design NAME: "), or null to say nothing and only return them
     * @return the blocks at fault
     */
    static Set<String> notBlocks(HoconChecker c, Config model, String pathPrefix, String where) {
        Set<String> bad = new LinkedHashSet<>();
        BLOCKS.forEach((block, keys) -> {
            // null too: over reference.conf's model it hides the block's keys as a number would
            com.typesafe.config.ConfigValue v = value(model, block);
            if (bad.stream().noneMatch(b -> block.startsWith(b + "."))
                    && v != null
                    && v.valueType() != ConfigValueType.OBJECT) {
                bad.add(block);
                if (where == null) { // only asked which
                    return;
                }
                c.problemAt(
                        v.origin(),
                        pathPrefix + block,
                        where + "must be a block of keys (" + String.join(", ", keys) + "), got "
                                + v.valueType().name().toLowerCase(java.util.Locale.ROOT));
            }
        });
        return bad;
    }

    /** @return the value at {@code path}, a null one included; null when there is none */
    private static com.typesafe.config.ConfigValue value(Config model, String path) {
        com.typesafe.config.ConfigValue v = model.root();
        for (String key : com.typesafe.config.ConfigUtil.splitPath(path)) {
            if (!(v instanceof com.typesafe.config.ConfigObject o)) {
                return null;
            }
            v = o.get(key);
        }
        return v;
    }
}
