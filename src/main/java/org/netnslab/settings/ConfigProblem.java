package org.netnslab.settings;

import com.typesafe.config.ConfigOrigin;

/**
 * One thing wrong with a scenario or its overrides.
 *
 * @param source the file (or {@code --set} argument) the value came from
 * @param line its line, or -1 when unknown (e.g. a missing key)
 * @param path the key path at fault, e.g. {@code workload.injections-per-netns}
 * @param message what is wrong and what is expected
 */
public record ConfigProblem(String source, int line, String path, String message) {
    /**
     * What a text nested deeper than Typesafe Config's recursive reader can follow is (its StackOverflowError,
     * caught where a file or value is parsed or resolved): thousands of open brackets.
     */
    public static final String TOO_DEEP =
            "nested too deep to read (thousands of '[' or '{' inside each other); a scenario nests a few levels";

    /**
     * Non-printable characters (bytes of a binary file, a terminal's escape codes) are escaped, never echoed; a
     * word too long to read is cut ({@link HoconSyntax#cut}).
     */
    public ConfigProblem {
        source = HoconSyntax.cut(HoconSyntax.printable(source));
        path = HoconSyntax.cut(HoconSyntax.printable(path));
        message = HoconSyntax.cut(HoconSyntax.printable(message));
    }

    /** @return a problem located at {@code origin} */
    public static ConfigProblem at(ConfigOrigin origin, String path, String message) {
        if (origin == null) {
            return new ConfigProblem("?", -1, path, message);
        }
        if (origin.filename() != null) {
            return new ConfigProblem(origin.filename(), origin.lineNumber(), path, message);
        }
        String d = origin.description();
        if (d.startsWith("merge of ")) {
            // An object merged from several sources (a file and --set values): HOCON lists each as "source: line",
            // joined by commas; name the sources, not HOCON's wording.
            d = String.join(
                    " and ",
                    java.util.Arrays.stream(d.substring("merge of ".length()).split(",(?=--set |[^,]*?: \\d+(,|$))"))
                            .map(x -> x.replaceFirst(": \\d+$", ""))
                            .distinct()
                            .toList());
        }
        // A --set value: its origin reads "--set a.b=1: 1"; the line within one argument says nothing.
        return new ConfigProblem(d.replaceFirst(": \\d+$", ""), -1, path, message);
    }

    @Override
    public String toString() {
        // "-" stands for the file as a whole (a syntax error, a file that cannot be read): no key to name
        return source + (line > 0 ? ":" + line : "") + ": " + (path.equals("-") || path.isEmpty() ? "" : path + ": ")
                + message;
    }
}
