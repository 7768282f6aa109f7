package org.netnslab.settings;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HOCON input that is wrong, said the way a person fixes it, on one line. Typesafe Config reports a missing
 * {@code '}'} as {@code expecting a close parentheses ')' here, not: end of file} at the file's last line;
 * this scans the file's (or a {@code --set} value's) brackets outside strings and comments and names the
 * one that is never closed, where it opened, or the closer that closes nothing. A missing or folder
 * {@code include required(...)} and a cycle of includes are located at their include; a file that is not
 * text is said to be so before it is read ({@link TextFiles}); a value is echoed on
 * one line, and a word too long to read is cut.
 */
public final class HoconSyntax {
    /** The longest word a message echoes whole ({@link #cut}), and how much of a longer one it keeps. */
    static final int LONGEST_WORD = 500;

    static final int KEPT_OF_WORD = 60;
    private static final Pattern LONG_WORD = Pattern.compile("\\S{" + (LONGEST_WORD + 1) + ",}");

    private HoconSyntax() {}

    /**
     * Typesafe Config finds a file's relative includes beside it only when the path names a folder: a bare
     * {@code x.conf} finds none, and its {@code include required("y.conf")} fails although y.conf is there.
     *
     * @param file a file about to be parsed as HOCON, as the user named it
     * @return the same file, as {@code ./x.conf} when it was named without a folder
     */
    public static Path withFolder(Path file) {
        return file.getParent() == null && !file.toString().isEmpty()
                ? Path.of(".").resolve(file)
                : file;
    }

    /**
     * A parse failure of {@code file} located and said without Typesafe Config's internals: a missing
     * {@code include required(...)} (reported by Typesafe Config at the missing file, with no line) is found in
     * {@code file} and given its line, as is an include of a folder or a cycle of includes.
     *
     * @param file the file parsed
     * @param e its parse failure
     * @param key how the problem names what is at fault when no include is found (e.g. {@code -}, {@code --config})
     * @return the problem, located at the include's line when the failure is an include of {@code file}
     */
    public static ConfigProblem parseProblem(Path file, ConfigException e, String key) {
        ConfigProblem include = HoconIncludes.problem(file, e, key);
        if (include != null) {
            return include;
        }
        String message = HoconIncludes.message(file, e);
        if (e instanceof ConfigException.Parse) {
            Path at = included(file, e);
            try {
                ConfigProblem binary =
                        at.equals(file) ? null : TextFiles.notText(at, key); // the file itself was checked
                if (binary != null) {
                    return binary;
                }
                Object[] brackets = bracketProblem(Files.readString(at), true);
                if (brackets != null) {
                    return new ConfigProblem(at.toString(), (Integer) brackets[0], key, (String) brackets[1]);
                }
            } catch (IOException | UncheckedIOException io) {
                e.addSuppressed(io); // HOCON's own message below
            }
            message = words(e); // the origin gives file and line once
            if (!at.equals(file)) {
                return ConfigProblem.at(e.origin(), key, message);
            }
        }
        return e.origin() != null
                        && e.origin().filename() != null
                        && file.toString().equals(e.origin().filename())
                ? ConfigProblem.at(
                        e.origin(),
                        key,
                        e instanceof ConfigException.Parse ? message : HoconChecker.bare(e)) // file and line once
                : new ConfigProblem(file.toString(), -1, key, message);
    }

    /** @return the file a parse failure is in: a file {@code file} includes (directly or not), or {@code file} */
    private static Path included(Path file, ConfigException e) {
        String at = e.origin() == null ? null : e.origin().filename();
        return at != null && !at.equals(file.toString()) && Files.isRegularFile(Path.of(at)) ? Path.of(at) : file;
    }

    /**
     * A {@code --set} value that does not parse: its bracket problem said as {@link #parseProblem} says a file's,
     * without lines (one argument), else Typesafe Config's message without its advice for files (a
     * {@code .properties} file is no help on a command line).
     *
     * @param value the text after {@code =}
     * @param e its parse failure
     * @return what is wrong with it
     */
    public static String setProblem(String value, ConfigException e) {
        Object[] brackets = e instanceof ConfigException.Parse ? bracketProblem(value, false) : null;
        return brackets != null ? (String) brackets[1] : words(e);
    }

    /** @return a parse failure in Typesafe Config's words without its advice; a quote left open said so */
    static String words(ConfigException e) {
        String m = HoconChecker.bare(e);
        if (m.contains("string quote was still open") || m.contains("unescaped newline in quoted strings")) {
            return "the '\"' is never closed: a '\"' is missing";
        }
        m = m.replaceFirst("(?s) \\(if you intended .*\\)$", "");
        if (m.startsWith("Expecting a value but got wrong token: end of file")) {
            return "the file ends where a value was expected: the last key has no value (write one, or \"\" for an"
                    + " empty string)";
        }
        if (m.startsWith("Expecting a value but got wrong token: '}'")) {
            return "a key has no value before the '}': write one (\"\" for an empty string)";
        }
        if (m.startsWith("Expecting end of input or a comma, got '='")
                || m.startsWith("Expecting close brace } or a comma, got '='")) {
            return m + " (a key on a line before may have no value: HOCON then takes this line's key as that value)";
        }
        return m;
    }

    /**
     * @param text a HOCON document
     * @param inFile whether it is a file's text (a problem then names lines) or one {@code --set} value
     * @return the first bracket problem: {@code {line, message}}, or null when every bracket is closed in order
     */
    static Object[] bracketProblem(String text, boolean inFile) {
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
                        "'" + c + "' where the '" + (char) o[0] + "' opened" + (inFile ? " at line " + o[1] : "")
                                + " needs a '" + closer((char) o[0]) + "'"
                    };
                }
            }
        }
        if (!open.isEmpty()) {
            int[] o = open.peek();
            return new Object[] {
                o[1],
                inFile
                        ? "the '" + (char) o[0] + "' opened here is never closed: a '" + closer((char) o[0])
                                + "' is missing (the file ends at line " + (text.endsWith("\n") ? line - 1 : line)
                                + ")"
                        : "the '" + (char) o[0] + "' is never closed: a '" + closer((char) o[0]) + "' is missing"
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
     * @param v a value a message echoes
     * @return it on one line in HOCON's concise JSON ({@code [1,2]}, {@code {"a":1}}, {@code "abc"}), no comments
     */
    public static String shown(ConfigValue v) {
        return v.render(ConfigRenderOptions.concise());
    }

    /**
     * @param v a value a message about a number echoes
     * @return {@link #shown}, and where it is a number written in quotes a word saying to drop them: HOCON reads a
     *     quoted number as text, and a scenario takes numbers bare (an environment variable's aside)
     */
    public static String shownAsNumber(ConfigValue v) {
        if (v.valueType() == com.typesafe.config.ConfigValueType.STRING // an environment variable's is no quote
                && !String.valueOf(v.origin().description()).contains("env variables")) {
            String text = ((String) v.unwrapped()).trim();
            if (text.matches("[-+]?\\d{19,}")
                    && !fitsLong(text)) { // HOCON reads such an integer as text, quoted or not
                return shown(v) + " (beyond a 64-bit integer)";
            }
            try {
                if (Double.isFinite(Double.parseDouble(text))) {
                    return shown(v) + " (a number in quotes is text: write it without them)";
                }
            } catch (NumberFormatException notANumber) {
                // any other text is echoed as it is
            }
        }
        return shown(v);
    }

    private static boolean fitsLong(String digits) {
        try {
            Long.parseLong(digits);
            return true;
        } catch (NumberFormatException e) { // beyond a long
            return false;
        }
    }

    /**
     * @param s text from a file or the command line, or null
     * @return it with every word (a run without white space) longer than {@value #LONGEST_WORD} characters cut to
     *     its first {@value #KEPT_OF_WORD} and its length, e.g. {@code aaaa... (100000 characters)}: a message
     *     names what is at fault without echoing a pasted megabyte
     */
    public static String cut(String s) {
        if (s == null || s.length() <= LONGEST_WORD) {
            return s;
        }
        Matcher m = LONG_WORD.matcher(s);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(
                    b,
                    Matcher.quoteReplacement(m.group().substring(0, KEPT_OF_WORD) + "... ("
                            + m.group().length() + " characters)"));
        }
        return m.appendTail(b).toString();
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

    /** Typesafe Config's class names in a message, as a value's text shows them. */
    private static final java.util.regex.Pattern VALUE_CLASS = java.util.regex.Pattern.compile(
            "(?:(?:Simple)?Config(List|Object|String|Int|Long|Double|Boolean)|(Quoted|Unquoted))\\((.*?)\\)"
                    + "(?=( and | are |,|$))");

    /**
     * @param message a Typesafe Config message
     * @return it with the library's class names as the value's kind ({@code SimpleConfigList(["a"])}: {@code the list
     *     ["a"]}), and a hint where two values written side by side could not be joined
     */
    static String plain(String message) {
        String m = VALUE_CLASS.matcher(message).replaceAll(r -> {
            String kind = r.group(2) != null // Quoted or Unquoted: a text token
                    ? "the text "
                    : "List".equals(r.group(1)) ? "the list " : "Object".equals(r.group(1)) ? "the object " : "";
            return java.util.regex.Matcher.quoteReplacement(kind + r.group(3));
        });
        if (m.startsWith("Cannot concatenate")) {
            m += " (values written side by side on one line are joined into one: end the key's value before the"
                    + " next, or write them as one list or one object)";
        }
        return m;
    }
}
