package org.netnslab.settings;

import com.typesafe.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A HOCON file's failed includes, said at the include's line: a missing {@code include required(...)} (reported by
 * Typesafe Config at the missing file, with no line), an included folder or file this user may not read, and a cycle
 * of includes. Used by {@link HoconSyntax#parseProblem}.
 */
final class HoconIncludes {
    private static final Pattern MISSING = Pattern.compile(
            "(?:resource not found on classpath|No such file or directory|not found)[^:]*:?\\s*(\\S+)?");
    /** Typesafe Config's message for includes nested 50 deep: a cycle. */
    private static final String CYCLE = "include statements nested more than";
    /** A line {@code include required(file("x.conf"))}: the kind (file, classpath, url or none), the target. */
    private static final Pattern REQUIRED =
            Pattern.compile("include\\s+required\\(\\s*(?:(file|classpath|url)\\(\\s*)?\"([^\"]*)\".*");
    /** Typesafe Config's message for an include it could open but not read: a folder, or a file not readable. */
    private static final Pattern UNREADABLE =
            Pattern.compile("java\\.io\\.FileNotFoundException: (.+?) \\((Is a directory|Permission denied)\\)");

    private static final String DENIED = "Permission denied";

    /** Any include of a file, required or not: its target. */
    private static final Pattern ANY_INCLUDE =
            Pattern.compile("include\\s+(?:required\\(\\s*)?(?:file\\(\\s*)?\"([^\"]*)\".*");

    /** The most files an include search reads: Typesafe Config stops includes 50 deep. */
    private static final int MAX_FILES = 50;

    private HoconIncludes() {}

    /**
     * @param file the file parsed
     * @param e its parse failure
     * @param key how the problem names what is at fault when no include is found
     * @return the problem of an include of {@code file} (directly or not), located at its line when it is
     *     {@code file}'s; null when the failure is no include's or names none of {@code file}'s lines
     */
    static ConfigProblem problem(Path file, ConfigException e, String key) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (message.contains(CYCLE)) {
            return includeCycle(file, message, key);
        }
        Matcher unreadable = UNREADABLE.matcher(message);
        if (unreadable.find()) { // an included folder, or a file this user may not read
            ConfigProblem at = atIncludeDeep(file, message, e, new java.util.HashSet<>());
            return at != null
                    ? at
                    : new ConfigProblem(
                            file.toString(), -1, "include", unreadable(unreadable.group(1), unreadable.group(2)));
        }
        return missing(file, e, message) ? atInclude(file, message, e) : null;
    }

    /**
     * @return {@code e}'s message, or for a missing include that {@link #problem} could not place (an include of a
     *     file this one includes) the sentence that says so
     */
    static String message(Path file, ConfigException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (!missing(file, e, message)) {
            return message;
        }
        // Typesafe Config names the missing one first
        return "included file " + message.replaceFirst(":.*", "") + " not found (an include required(...) of a"
                + " file this one includes needs it)";
    }

    private static boolean missing(Path file, ConfigException e, String message) {
        return MISSING.matcher(message).find()
                && (e.origin() == null || !file.toString().equals(e.origin().filename()));
    }

    /**
     * @return the problem at the line of {@code file} whose {@code include required(...)} names what {@code message}
     *     says is missing or unreadable; null when no such line is found
     */
    private static ConfigProblem atInclude(Path file, String message, ConfigException e) {
        try {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher include = REQUIRED.matcher(lines.get(i).trim());
                if (include.matches() && message.contains(include.group(2))) {
                    Matcher unreadable = UNREADABLE.matcher(message);
                    String why = unreadable.find() && unreadable.group(2).equals(DENIED)
                            ? unreadable(include.group(2), DENIED)
                            : missingInclude(file, include.group(2), include.group(1));
                    return new ConfigProblem(file.toString(), i + 1, "include", why);
                }
            }
        } catch (IOException io) {
            e.addSuppressed(io); // the file parsed a moment ago; the caller falls back to an unlocated message
        }
        return null;
    }

    /**
     * {@link #atInclude} in {@code file}, else in the files it includes, depth first, each once: Typesafe Config names
     * the folder or unreadable file, not the file whose include named it.
     */
    private static ConfigProblem atIncludeDeep(Path file, String message, ConfigException e, Set<Path> seen) {
        if (!seen.add(file.toAbsolutePath().normalize()) || seen.size() > MAX_FILES) {
            return null;
        }
        ConfigProblem at = atInclude(file, message, e);
        try {
            for (String line : at != null ? List.<String>of() : Files.readAllLines(file)) {
                Matcher include = ANY_INCLUDE.matcher(line.trim());
                Path next = include.matches()
                        ? file.toAbsolutePath().resolveSibling(include.group(1)).normalize()
                        : null;
                at = next != null && Files.isRegularFile(next) ? atIncludeDeep(next, message, e, seen) : null;
                if (at != null) {
                    return at;
                }
            }
        } catch (IOException io) {
            e.addSuppressed(io); // the caller falls back to an unlocated message
        }
        return at;
    }

    /** @return an included file's problem that is not its absence: a folder, or no permission to read it */
    private static String unreadable(String target, String why) {
        return DENIED.equals(why)
                ? "included file " + target + " cannot be read: permission denied"
                : "included " + target + " is a folder: include a HOCON file";
    }

    /**
     * @param kind {@code file}, {@code classpath}, {@code url} or {@code null} (a file, else a class path resource)
     * @return what is wrong with {@code include required(kind("target"))} in {@code file}: a folder, or not found
     */
    private static String missingInclude(Path file, String target, String kind) {
        if ("classpath".equals(kind) || "url".equals(kind)) {
            return "included " + target + " not found ("
                    + ("url".equals(kind) ? "no such URL" : "not on the class path")
                    + "; include required(...) needs it)";
        }
        Path at = Path.of(target).isAbsolute()
                ? Path.of(target)
                : file.toAbsolutePath().resolveSibling(target).normalize();
        if (Files.isDirectory(at)) {
            return "included " + target + " is a folder (" + at + "): include a HOCON file";
        }
        if (Files.isRegularFile(at) && !at.getFileName().toString().matches(".*\\.(conf|json|properties)")) {
            return "included file " + target + " exists, but an include looks only for " + target + ".conf, "
                    + target + ".json and " + target + ".properties when the name does not end in one of those:"
                    + " rename it, e.g. to " + at.getFileName().toString().replaceFirst("\\.[^.]*$", "") + ".conf";
        }
        return "included file " + target + " not found (no " + at + "; include required(...) needs it)";
    }

    /**
     * Typesafe Config reports a cycle of includes once it is 50 deep, listing the files open, innermost first: the
     * cycle is said once, from {@code file} when it is in it, at the include of {@code file} that leads into it.
     */
    private static ConfigProblem includeCycle(Path file, String message, String key) {
        List<String> opened = new java.util.ArrayList<>();
        Matcher m = Pattern.compile("Parseable\\w*\\(([^)]*)\\)").matcher(message);
        while (m.find()) {
            opened.add(Path.of(m.group(1)).getFileName().toString());
        }
        java.util.Collections.reverse(opened); // in the order they were included
        List<String> cycle = new java.util.ArrayList<>();
        for (String name : opened) {
            if (cycle.contains(name)) {
                break;
            }
            cycle.add(name);
        }
        if (cycle.isEmpty()) {
            return new ConfigProblem(file.toString(), -1, key, "a cycle of includes: a file includes itself");
        }
        int own = cycle.indexOf(file.getFileName().toString());
        java.util.Collections.rotate(cycle, -Math.max(own, 0));
        List<String> leadsIn = own >= 0 ? List.of(cycle.get(cycle.size() > 1 ? 1 : 0)) : List.copyOf(cycle);
        cycle.add(cycle.get(0));
        return new ConfigProblem(
                file.toString(),
                includeLine(file, leadsIn),
                "include",
                "a cycle of includes: " + String.join(" -> ", cycle)
                        + " (a file that includes itself, directly or through others); remove one of them");
    }

    /** @return the line of {@code file}'s first include that names one of {@code targets}, or -1 */
    private static int includeLine(Path file, List<String> targets) {
        try {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).trim();
                if (line.startsWith("include") && targets.stream().anyMatch(line::contains)) {
                    return i + 1;
                }
            }
        } catch (IOException io) {
            return -1; // the file parsed a moment ago; its line is a help, not a need
        }
        return -1;
    }
}
