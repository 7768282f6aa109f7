package org.netnslab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * What {@code --help}, {@code -V} and an unknown command print. picocli wraps help text with the JDK's line
 * {@link java.text.BreakIterator}, which breaks inside dotted names ({@code report.⏎html},
 * {@code machine.⏎cpus}); the help is rendered unwrapped and wrapped here at spaces only, each continuation
 * indented under its column. The version is the Maven project's ({@code version.properties}, filtered).
 */
final class HelpText {
    /** The terminal width the help is wrapped to (picocli's own default). */
    static final int WIDTH = 80;
    /** The width picocli renders at: wide enough that it never wraps a line itself. */
    static final int UNWRAPPED = 1000;

    /** The tool and its version, e.g. {@code netns-lab 0.1.0-SNAPSHOT}: what -V prints and the manifest names. */
    static final String VERSION = "netns-lab " + projectVersion();

    private HelpText() {}

    private static String projectVersion() {
        try (InputStream in = HelpText.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("org/netnslab/cli/version.properties is missing from the class path");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** picocli's version provider for every command. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {VERSION};
        }
    }

    /** An option or command row: the name column, two or more spaces, the description. */
    private static final Pattern ROW = Pattern.compile("^(\\s*\\S.*?\\s{2,})\\S");

    /**
     * @param text help rendered by picocli at {@link #UNWRAPPED} width
     * @param width the width to wrap to
     * @return the text with every longer line broken at spaces: a row's continuation indented under its
     *     description + 2 (as picocli does), a synopsis's under the command's name, other lines under their start
     */
    static String wrap(String text, int width) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (out.length() > 0) {
                out.append('\n');
            }
            if (line.length() <= width) {
                out.append(line);
                continue;
            }
            int indent;
            Matcher row = ROW.matcher(line);
            if (line.startsWith("Usage: ")) {
                int cmd = line.indexOf(" [");
                indent = cmd < 0 ? 7 : cmd + 1;
            } else if (row.find() && row.group(1).length() < width / 2) {
                indent = row.group(1).length() + 2;
            } else {
                indent = line.length() - line.stripLeading().length();
            }
            out.append(String.join("\n", breakAtSpaces(line, width, indent)));
        }
        return out.toString();
    }

    private static List<String> breakAtSpaces(String line, int width, int indent) {
        List<String> lines = new ArrayList<>();
        String rest = line;
        String pad = "";
        while ((pad + rest).length() > width) {
            String l = pad + rest;
            int cut = l.lastIndexOf(' ', width);
            if (cut <= pad.length()) { // one word longer than the line: leave it whole
                cut = l.indexOf(' ', width);
                if (cut < 0) {
                    break;
                }
            }
            lines.add(l.substring(0, cut).stripTrailing());
            rest = l.substring(cut).strip();
            pad = " ".repeat(indent);
        }
        lines.add(pad + rest);
        return lines;
    }

    /**
     * @param cmd a command
     * @return its usage, wrapped at spaces to {@link #WIDTH}
     */
    static String usage(CommandLine cmd) {
        return wrap(cmd.getUsageMessage(), WIDTH);
    }

    /**
     * What an unknown command gets: the commands there are, and one of them only when the word is a close
     * misspelling of it (at most two edits, or a prefix).
     *
     * @param word what was typed where a command goes
     * @param commands the commands there are
     * @return the line to print
     */
    static String unknownCommand(String word, List<String> commands) {
        String near = null;
        int best = Integer.MAX_VALUE;
        for (String c : commands) {
            int d = c.startsWith(word) && word.length() >= 2
                    ? 0
                    : org.netnslab.settings.NearestKey.editDistance(word.toLowerCase(java.util.Locale.ROOT), c);
            if (d < best && d <= Math.min(2, c.length() / 2)) {
                best = d;
                near = c;
            }
        }
        return "netns-lab: unknown command '" + word + "'" + (near != null ? "; did you mean '" + near + "'?" : ".")
                + " The commands are " + String.join(", ", commands) + " (netns-lab --help).";
    }
}
