package org.netnslab.settings;

import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;

/** The numbers of a configuration, also those HOCON substituted from environment variables. Stateless. */
final class EnvNumbers {
    private EnvNumbers() {}

    /**
     * A number, also where it came from an environment variable ({@code ${N}}): HOCON substitutes every variable as a
     * string, so "50" from {@code N=50} would otherwise fail a number's check. A string written in a file stays a
     * string (a number is written bare there).
     *
     * @return the number (an Integer or Long when whole, else a Double), or null when the value is none
     */
    static Number numberOf(ConfigValue v) {
        if (v.valueType() == ConfigValueType.NUMBER) {
            return (Number) v.unwrapped();
        }
        if (v.valueType() != ConfigValueType.STRING
                || !String.valueOf(v.origin().description()).contains("env variables")) {
            return null;
        }
        String s = ((String) v.unwrapped()).trim();
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException notWhole) {
            try {
                double d = Double.parseDouble(s);
                return Double.isFinite(d) && !s.matches(".*[a-zA-Z].*") ? d : null;
            } catch (NumberFormatException notANumber) {
                return null;
            }
        }
    }
}
