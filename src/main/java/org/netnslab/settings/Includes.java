package org.netnslab.settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scenario file's includes of files beside it, as its text spells them: {@code include "x.conf"},
 * {@code include file("x.conf")} and {@code include required(...)} of either.
 */
public final class Includes {
    /** One include of a file beside the including one: group 1 {@code required(} when required, group 2 the name. */
    private static final Pattern INCLUDE =
            Pattern.compile("(?m)^\\s*include\\s+(required\\(\\s*)?(?:file\\(\\s*)?\"([^\"/]+)\"");

    /**
     * Any include HOCON may skip: group 1 {@code required(} when required, group 2 {@code file}, {@code url} or
     * {@code classpath} when one is named, group 3 what it names.
     */
    private static final Pattern ANY_INCLUDE =
            Pattern.compile("(?m)^\\s*include\\s+(required\\(\\s*)?(?:(file|url|classpath)\\(\\s*)?\"([^\"]+)\"");

    private Includes() {}

    /**
     * @param text a scenario file's text
     * @return the names of the files beside it that it includes, each with {@code .conf} added when it has no extension
     *     of its own (as HOCON looks for it first)
     */
    public static List<String> named(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = INCLUDE.matcher(text);
        while (m.find()) {
            out.add(m.group(2).contains(".") ? m.group(2) : m.group(2) + ".conf");
        }
        return out;
    }

    /**
     * The plain includes of {@code file} that find no file: HOCON skips such an include without a word, and with it
     * every setting the author meant it to add ({@code include required(...)} makes it an error).
     *
     * @param file a scenario file that parsed
     * @param shown the file's name as the user gave it, for the warnings
     * @return one warning for each, naming the file, its line and the include
     */
    public static List<String> missing(Path file, String shown) {
        List<String> out = new ArrayList<>();
        missing(file, shown, new java.util.HashSet<>(), out);
        return out;
    }

    /** Adds {@code file}'s warnings, then those of the files it includes that exist (each file once). */
    private static void missing(Path file, String shown, java.util.Set<Path> seen, List<String> out) {
        if (!seen.add(file.toAbsolutePath().normalize())) {
            return; // a cycle of includes is the parse's to report
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException | java.io.UncheckedIOException e) {
            return; // it parsed a moment ago; what the parse read is what runs
        }
        Path folder = file.toAbsolutePath().getParent();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = ANY_INCLUDE.matcher(lines.get(i));
            if (!m.find()) {
                continue;
            }
            String kind = m.group(2);
            String name = m.group(3);
            boolean extension = name.substring(name.lastIndexOf('/') + 1).contains(".");
            List<String> names =
                    extension ? List.of(name) : List.of(name + ".conf", name + ".json", name + ".properties");
            Path found = null;
            boolean exists;
            if ("classpath".equals(kind)) {
                exists = onClasspath(names.stream()
                        .map(n -> n.startsWith("/") ? n.substring(1) : n)
                        .toList());
            } else if ("url".equals(kind)) {
                if (!name.startsWith("file:")) {
                    continue; // another scheme is fetched by HOCON, never by this check
                }
                try { // file:x (no slash) is relative to the working directory, as java.net.URL reads it
                    found = name.startsWith("file:/")
                            ? Path.of(java.net.URI.create(name))
                            : Path.of(name.substring("file:".length())).toAbsolutePath();
                } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
                    continue; // a URL HOCON reads its own way; the parse reports what it cannot
                }
                exists = Files.isRegularFile(found);
            } else {
                // HOCON reads file("x") as java.io.File does, from the working directory; a plain "x" beside the file
                Path base = "file".equals(kind) ? Path.of("").toAbsolutePath() : folder;
                found = names.stream()
                        .map(n -> Path.of(n).isAbsolute() ? Path.of(n) : base.resolve(n))
                        .filter(Files::isRegularFile)
                        .findFirst()
                        .orElse(null);
                exists = found != null;
                if (!exists
                        && kind == null) { // a plain include that misses beside the file falls back to the classpath
                    exists = onClasspath(names);
                }
            }
            if (exists && found != null && (kind == null || "file".equals(kind))) {
                missing(found, found.toString(), seen, out);
            } else if (!exists && m.group(1) == null) { // a missing required include fails the parse itself
                String written = lines.get(i).trim();
                out.add(shown + ":" + (i + 1) + ": " + written + " finds no "
                        + ("classpath".equals(kind) ? "resource" : "file")
                        + (extension ? "" : " (" + name + ".conf, .json or .properties)")
                        + ", so HOCON skips it and the settings it was to add; include required("
                        + (kind == null ? "\"" + name + "\"" : kind + "(\"" + name + "\")")
                        + ") makes that an error");
            }
        }
    }

    /** @return whether one of the resources {@code names} is on the classpath, where HOCON looks for them */
    private static boolean onClasspath(List<String> names) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return names.stream().anyMatch(n -> loader.getResource(n) != null);
    }
}
