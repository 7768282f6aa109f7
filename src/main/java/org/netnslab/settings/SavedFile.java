package org.netnslab.settings;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A file netns-lab wrote and reads back (result.json, a {@code .hgrm}, calibration.json), read so that what is wrong
 * with it is said in words: only a regular file is read (a link is followed to one; a device or a pipe is refused
 * before a byte is read, as is a file larger than the reader takes), and a JSON file that does not parse is located
 * by line and column with Jackson's reason said for a person, its limits (a number of over 1000 digits, nesting over
 * 1000 deep, a string of over 20 million characters) included. A UTF-8 byte order mark at the start is skipped.
 */
public final class SavedFile {
    /** The largest saved file read: far above what a run writes, far below what exhausts a default heap. */
    public static final long MAX_BYTES = 64L << 20;

    private static final Pattern NON_NUMERIC = Pattern.compile("Non-standard token '([^']*)'");
    private static final Pattern UNRECOGNIZED = Pattern.compile("^Unrecognized token '([^']*)'");
    private static final Pattern UNEXPECTED = Pattern.compile("^Unexpected character \\(('[^']*')");
    private static final Pattern DUPLICATE = Pattern.compile("^Duplicate field '([^']*)'");
    private static final Pattern LIMIT = Pattern.compile(
            "\\((\\d+)\\) exceeds the maximum[^(]*\\((\\d+), from `StreamReadConstraints\\.getMax(\\w+)");
    private static final Map<String, String> LIMITS = Map.of(
            "NumberLength", "a number %d characters long",
            "NestingDepth", "arrays or objects nested %d deep",
            "StringLength", "a string %d characters long",
            "NameLength", "a key %d characters long",
            "DocumentLength", "%d characters",
            "TokenCount", "%d tokens");

    private SavedFile() {}

    /** What is wrong with a saved file, in words, without the file's name (the caller names it). */
    public static final class Problem extends IOException {
        private static final long serialVersionUID = 1L;
        private final boolean notText;

        Problem(String words, Throwable cause) {
            this(words, cause, false);
        }

        private Problem(String words, Throwable cause, boolean notText) {
            super(words, cause);
            this.notText = notText;
        }

        /** @return whether the file's bytes are not UTF-8 text ({@link #utf8}): so not a file netns-lab wrote */
        public boolean notText() {
            return notText;
        }
    }

    /**
     * @param file a saved file
     * @return its bytes
     * @throws Problem {@code no such file}; not a regular file; larger than {@link #MAX_BYTES}; or unreadable, in words
     */
    public static byte[] read(Path file) throws Problem {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new Problem("no such file", e);
        } catch (IOException e) {
            throw new Problem("cannot read it (" + reason(e) + ")", e);
        }
        if (a.isDirectory()) {
            throw new Problem("is a folder, not a file", null);
        }
        if (!a.isRegularFile()) {
            throw new Problem("not a regular file (a device, pipe or socket), so not one netns-lab wrote", null);
        }
        if (a.size() > MAX_BYTES) {
            throw new Problem(tooLarge(a.size()), null);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) { // it grew since
                throw new Problem(tooLarge(bytes.length), null);
            }
            return bytes;
        } catch (Problem e) {
            throw e;
        } catch (IOException e) {
            throw new Problem("cannot read it (" + reason(e) + ")", e);
        }
    }

    private static String tooLarge(long bytes) {
        return bytes + " bytes, larger than the " + (MAX_BYTES >> 20) + " MiB this reader takes, so not a file a"
                + " netns-lab run wrote";
    }

    /**
     * The mapper for a JSON file netns-lab writes and reads back (result.json, result-extra.json, calibration.json):
     * written indented; read as one value with each key once, so a second value after it or a key given twice is said
     * ({@link #json}), not read past or taken last.
     *
     * @return a new mapper so configured
     */
    public static ObjectMapper mapper() {
        return new ObjectMapper()
                .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    /**
     * @param mapper the mapper to parse with (its features, e.g. trailing tokens refused, apply)
     * @param text a file's text, a byte order mark at its start skipped
     * @return its root, or null when it is empty
     * @throws Problem {@code not valid JSON (line L, column C): } and why, in words
     */
    public static JsonNode json(ObjectMapper mapper, String text) throws Problem {
        String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
        JsonParser p = null;
        try {
            p = mapper.createParser(t);
            return mapper.readTree(p);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation() != null ? e.getLocation() : p == null ? null : p.currentLocation();
            throw new Problem(
                    "not valid JSON"
                            + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")")
                            + ": " + words(e),
                    e);
        } catch (IOException e) {
            throw new Problem("cannot read it (" + reason(e) + ")", e);
        } finally {
            closeQuietly(p);
        }
    }

    private static void closeQuietly(JsonParser p) {
        if (p != null) {
            try {
                p.close();
            } catch (IOException e) {
                // a parser over a string holds nothing to release
            }
        }
    }

    /** @return Jackson's reason for a person: what was found, not which Java setting allows it */
    private static String words(JsonProcessingException e) {
        String what = (e.getOriginalMessage() == null ? e.toString() : e.getOriginalMessage())
                .replaceAll("\\[Source: [^;\\]]*; ", "["); // Jackson's redacted-source note says nothing to a reader
        Matcher limit = LIMIT.matcher(what);
        if (e instanceof StreamConstraintsException && limit.find() && LIMITS.containsKey(limit.group(3))) {
            return String.format(LIMITS.get(limit.group(3)), Long.parseLong(limit.group(1))) + ", more than the "
                    + limit.group(2) + " this reader takes (no netns-lab run writes one)";
        }
        Matcher nonNumeric = NON_NUMERIC.matcher(what);
        if (nonNumeric.find()) {
            return nonNumeric.group(1) + " is not a JSON number (JSON has no NaN or Infinity: netns-lab writes a"
                    + " figure it does not have as null)";
        }
        Matcher token = UNRECOGNIZED.matcher(what);
        if (token.find()) {
            return "found '" + token.group(1) + "' where a JSON value belongs (a string in double quotes, a number,"
                    + " an array, an object, true, false or null)";
        }
        if (what.contains("'ALLOW_COMMENTS' not enabled")) {
            return "a comment, which JSON does not have";
        }
        Matcher unexpected = UNEXPECTED.matcher(what);
        if (unexpected.find()) {
            return "unexpected " + unexpected.group(1) + " (" + what.replaceFirst("^[^:]*: ", "") + ")";
        }
        Matcher duplicate = DUPLICATE.matcher(what);
        if (duplicate.find()) {
            return "the key \"" + duplicate.group(1) + "\" appears twice in one object (which one would count?)";
        }
        if (what.startsWith("Trailing token")) {
            return "more after the end of the JSON value (a file holds one value, here one object)";
        }
        return what.replaceAll("\\s*\\n at \\[Source.*", "");
    }

    /**
     * @param e a file system exception
     * @return its reason in words, without a Java class name: e.g. {@code Is a directory}, {@code permission denied}
     */
    public static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or folder";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : "an input or output error";
    }

    /**
     * @param bytes a saved file's bytes
     * @return them as UTF-8 text
     */
    public static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * @param bytes a saved file's bytes, which must be UTF-8 text
     * @return them as text
     * @throws Problem {@code is not a text file (byte N is NUL)} or {@code (byte N is not UTF-8)}
     */
    public static String utf8(byte[] bytes) throws Problem {
        String binary = TextFiles.notTextBecause(bytes);
        if (binary != null) {
            throw new Problem("is not a text file (" + binary + ")", null, true);
        }
        return text(bytes);
    }
}
