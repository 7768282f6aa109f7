package org.netnslab.scenario;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import org.netnslab.design.Strategies;
import org.netnslab.settings.Setting;

/**
 * One model key's value checked as a scenario's {@code model} block would be ({@link Strategies#ROWS}), for a
 * tool that writes configuration, e.g. calibrate's fitted costs. Stateless.
 */
public final class ModelKeys {
    private ModelKeys() {}

    /**
     * @param key a key under {@code netns-lab.model}, e.g. {@code costs.netns.setup-net}
     * @param hocon its value as HOCON, e.g. {@code 416418ns}
     * @return what is wrong with the value (the same text a scenario's validation gives), or null when it is
     *     accepted or the key is not a design key
     */
    public static String problem(String key, String hocon) {
        for (Strategies.Row<?> row : Strategies.ROWS) {
            if (row.setting().key().equals(key)) {
                try {
                    row.setting()
                            .read(ConfigFactory.parseString(key + " = " + hocon)
                                    .withFallback(Setting.referenceModel()));
                    return null;
                } catch (IllegalArgumentException | ConfigException e) {
                    return e.getMessage();
                }
            }
        }
        return null;
    }
}
