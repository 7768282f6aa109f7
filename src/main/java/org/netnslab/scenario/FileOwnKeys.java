package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValue;

/**
 * What a scenario file itself sets, before any {@code --set}: its {@code machine.cpus} (the count its seed figures are
 * judged at) and its baseline (the design its seed ratios are over). Read from one resolution of the file's keys.
 *
 * @param cpus its {@code machine.cpus}, or null when it has none or does not resolve (the run's own resolution then
 *     reports why)
 * @param baseline its {@code baseline}, else the first of its {@code designs}; null when it names none or a value is
 *     not text (the reader's to say)
 */
record FileOwnKeys(ConfigValue cpus, String baseline) {

    /**
     * @param file a scenario's keys, before the overrides
     * @return what the file itself sets
     */
    static FileOwnKeys of(Config file) {
        Config r;
        try {
            r = file.resolve();
        } catch (ConfigException e) { // the run's own resolution reports it
            return new FileOwnKeys(null, null);
        }
        return new FileOwnKeys(r.hasPath("machine.cpus") ? r.getValue("machine.cpus") : null, baseline(r));
    }

    private static String baseline(Config r) {
        try {
            if (r.hasPath("baseline")) {
                return r.getString("baseline");
            }
            java.util.List<String> designs = r.hasPath("designs") ? r.getStringList("designs") : java.util.List.of();
            return designs.isEmpty() ? null : designs.get(0);
        } catch (ConfigException e) { // a bad value is the reader's to say
            return null;
        }
    }
}
