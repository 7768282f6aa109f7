package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A model key (a scenario's {@code model} block, a {@code --set} of it, or a {@code --config} file's
 * {@code netns-lab.model}) that a design run sets itself does not reach that design: the design's own value wins.
 * Said on stderr, naming the designs and their values, so that a run is not read as the key's effect when it had
 * none.
 */
final class ShadowedModelKeys {
    private ShadowedModelKeys() {}

    /**
     * @param prefix how the keys are named, {@code model.} or {@code netns-lab.model.}
     * @param model the keys given
     * @param owns each design run's own keys, by name
     */
    static void warn(String prefix, Config model, Map<String, Config> owns) {
        for (Map.Entry<String, ConfigValue> e : model.entrySet()) {
            String key = e.getKey();
            List<String> shadowing = new ArrayList<>();
            owns.forEach((name, own) -> {
                if (own.hasPath(key)) {
                    shadowing.add(name + ": " + own.getValue(key).unwrapped());
                }
            });
            if (shadowing.isEmpty()) {
                continue;
            }
            boolean all = shadowing.size() == owns.size();
            System.err.println("netns-lab: warning: " + prefix + key
                    + (all ? " has no effect: every design run sets its own (" : " does not reach ")
                    + String.join(", ", shadowing)
                    + (all
                            ? "); a custom design (custom-designs) runs another value"
                            : shadowing.size() == 1 ? ", which sets its own" : ", which set their own"));
        }
    }

    /**
     * @param lab the merged {@code netns-lab} block the scenario runs under (reference.conf and any {@code --config})
     * @param scenarioModel the scenario's own {@code model} keys, which {@link #warn} names themselves
     * @return the keys of {@code lab}'s model set outside reference.conf (a configuration file's, a system
     *     property's), less those the scenario's model sets again
     */
    static Config configured(Config lab, Config scenarioModel) {
        Config out = ConfigFactory.empty();
        for (Map.Entry<String, ConfigValue> e : lab.getConfig("model").entrySet()) {
            String key = e.getKey();
            // set outside reference.conf, even to its value: a user who writes it expects it to reach the designs
            if (!scenarioModel.hasPath(key) && !fromReference(e.getValue())) {
                out = out.withValue(key, e.getValue());
            }
        }
        return out;
    }

    /** @return whether the value is reference.conf's own (a jar's or the classes folder's) */
    private static boolean fromReference(ConfigValue v) {
        String resource = v.origin().resource();
        String file = v.origin().filename();
        return "reference.conf".equals(resource) || file != null && file.endsWith("/reference.conf");
    }
}
