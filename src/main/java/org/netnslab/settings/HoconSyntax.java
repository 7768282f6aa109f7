package org.netnslab.settings;

import com.typesafe.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A HOCON file that does not parse, said the way a person fixes it. Typesafe Config reports a missing
 * {@code '}'} as {@code expecting a close parentheses ')' here, not: end of file} at the file's last line;
 * this scans the file's brackets (outside strings and comments) and names the one that is never closed,
 * where it opened, or the closer that closes nothing. A missing {@code include required(...)} is located
 * at its include, and a file that is not text (a NUL byte, or bytes that are not UTF-8) is said to be so
 * before HOCON reads it.
 */
public final class HoconSyntax {
    private static final Pattern MISSING = Pattern.compile(
            "(?:resource not found on classpath|No such file or directory|not found)[^:]*:?\\s*(\\S+)?");

    private HoconSyntax() {}

    /**
     * @param file a file about to be parsed as HOCON
     * @param key how the problem names what is at fault ({@code -} for a scenario, {@code --config})
     * @return a problem when the file is not UTF-8 text, else null
     * @throws IOException when it cannot be read
     */
    public static ConfigProblem notText(Path file, String key) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                return new ConfigProblem(
                        file.toString(),
                        -1,
                        key,
                        "is not a text file (byte " + i + " is NUL): a scenario"
                                + " or configuration is a HOCON text file");
            }
        }
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return null;
        } catch (CharacterCodingException e) {
            return new ConfigProblem(
                    file.toString(),
                    -1,
                    key,
                    "is not UTF-8 text (" + e.getMessage() + "): a scenario"
                            + " or configuration is a HOCON text file in UTF-8");
        }
    }

    /**
     * A parse failure of {@code file} located: Typesafe Config reports a missing {@code include required(...)}
     * at the missing file, with no line; this finds the include in {@code file} and gives its line.
     *
     * @param file the file parsed
     * @param e its parse failure
     * @param key how the problem names what is at fault when no include is found (e.g. {@code -}, {@code --config})
     * @return the problem, located at the include's line when the failure is a missing include of {@code file}
     */
    public static ConfigProblem parseProblem(Path file, ConfigException e, String key) {
        String message = e.getMessage();
        Matcher m = MISSING.matcher(message == null ? "" : message);
        if (m.find()
                && (e.origin() == null || !file.toString().equals(e.origin().filename()))) {
            try {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).trim();
                    if (line.startsWith("include") && line.contains("required(")) {
                        String target =
                                line.replaceAll(".*required\\(\\s*(?:file|classpath|url)?\\(?\\s*\"([^\"]*)\".*", "$1");
                        if (message.contains(target)) {
                            return new ConfigProblem(
                                    file.toString(),
                                    i + 1,
                                    "include",
                                    "included file " + target + " not found (include required(...) needs it; " + message
                                            + ")");
                        }
                    }
                }
            } catch (IOException io) {
                e.addSuppressed(io); // the file parsed a moment ago; fall back to the unlocated message below
            }
        }
        if (e instanceof ConfigException.Parse) {
            try {
                Object[] brackets = bracketProblem(Files.readString(file));
                if (brackets != null) {
                    return new ConfigProblem(file.toString(), (Integer) brackets[0], key, (String) brackets[1]);
                }
            } catch (IOException | UncheckedIOException io) {
                e.addSuppressed(io); // HOCON's own message below
            }
            message = HoconChecker.bare(e); // the origin gives file and line once
        }
        return e.origin() != null
                        && e.origin().filename() != null
                        && file.toString().equals(e.origin().filename())
                ? ConfigProblem.at(e.origin(), key, message)
                : new ConfigProblem(file.toString(), -1, key, message);
    }

    /**
     * @param text a HOCON document
     * @return the first bracket problem: {@code {line, message}}, or null when every bracket is closed in order
     */
    static Object[] bracketProblem(String text) {
        Deque<int[]> open = new ArrayDeque<>(); // {char, line}
        int line = 1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
            } else if (c == '#' || (c == '/' && i + 1 < text.length() && text.charAt(i + 1) == '/')) {
                while (i + 1 < text.length() && text.charAt(i + 1) != '\n') {
                    i++;
                }
            } else if (c == '"') {
                if (text.startsWith("\"\"\"", i)) {
                    int end = text.indexOf("\"\"\"", i + 3);
                    end = end < 0 ? text.length() : end + 2;
                    line += (int) text.substring(i, end)
                            .chars()
                            .filter(x -> x == '\n')
                            .count();
                    i = end;
                } else {
                    i++;
                    while (i < text.length() && text.charAt(i) != '"' && text.charAt(i) != '\n') {
                        i += text.charAt(i) == '\\' ? 2 : 1;
                    }
                    if (i < text.length() && text.charAt(i) == '\n') {
                        line++;
                    }
                }
            } else if (c == '{' || c == '[' || c == '(') {
                open.push(new int[] {c, line});
            } else if (c == '}' || c == ']' || c == ')') {
                if (open.isEmpty()) {
                    return new Object[] {
                        line,
                        "'" + c + "' closes nothing: a '" + opener(c) + "' is missing before it, or this"
                                + " one is extra"
                    };
                }
                int[] o = open.pop();
                if (o[0] != opener(c)) {
                    return new Object[] {
                        line,
                        "'" + c + "' where the '" + (char) o[0] + "' opened at line " + o[1] + " needs a '"
                                + closer((char) o[0]) + "'"
                    };
                }
            }
        }
        if (!open.isEmpty()) {
            int[] o = open.peek();
            return new Object[] {
                o[1],
                "the '" + (char) o[0] + "' opened here is never closed: a '" + closer((char) o[0])
                        + "' is missing (the file ends at line " + (text.endsWith("\n") ? line - 1 : line) + ")"
            };
        }
        return null;
    }

    private static char opener(char closer) {
        return closer == '}' ? '{' : closer == ']' ? '[' : '(';
    }

    private static char closer(char opener) {
        return opener == '{' ? '}' : opener == '[' ? ']' : ')';
    }

    /**
     * @param s text from a file or the command line
     * @return it with every non-printable character escaped ({@code \x01}, {@code \u00ad}), so a message never
     *     writes control bytes to the terminal
     */
    public static String printable(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int type = Character.getType(c);
            boolean bad = c != '\n'
                    && (Character.isISOControl(c)
                            || c == '\uFFFD'
                            || type == Character.FORMAT
                            || type == Character.UNASSIGNED
                            || type == Character.PRIVATE_USE
                            || type == Character.SURROGATE);
            if (bad && b == null) {
                b = new StringBuilder(s.substring(0, i));
            }
            if (b != null) {
                if (bad) {
                    b.append(c < 0x100 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }
}
