package org.netnslab.settings;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a file is text a person can fix as text: UTF-8 with no NUL byte. A binary file, UTF-16 (NULs at every other
 * byte) or another encoding is said to be so, at the byte that shows it, before Typesafe Config reads it.
 */
public final class TextFiles {
    private TextFiles() {}

    /**
     * @param file a file about to be parsed as HOCON
     * @param key how the problem names what is at fault ({@code -} for a scenario, {@code --config})
     * @return a problem when the file is not UTF-8 text, else null
     * @throws IOException when it cannot be read
     */
    public static ConfigProblem notText(Path file, String key) throws IOException {
        String why = notTextBecause(Files.readAllBytes(file));
        return why == null
                ? null
                : new ConfigProblem(
                        file.toString(),
                        -1,
                        key,
                        "is not " + (why.contains(" is NUL") ? "a text file" : "UTF-8 text") + " (" + why
                                + "): a scenario" + " or configuration is a HOCON text file"
                                + (why.contains(" is NUL") ? "" : " in UTF-8"));
    }

    /**
     * @param bytes a file's content
     * @return why it is not UTF-8 text, e.g. {@code byte 7 is NUL} or {@code byte 0 is not UTF-8}; null when it is
     */
    public static String notTextBecause(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) { // NULs at every other byte from the start: UTF-16 (a BOM or not)
                boolean utf16 = i < 4 && bytes.length > i + 2 && bytes[i + 2] == 0;
                return "byte " + i + " is NUL" + (utf16 ? "; every other byte is, as in UTF-16: save it as UTF-8" : "");
            }
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CoderResult r = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(in, CharBuffer.allocate(bytes.length), true);
        return r.isError() ? "byte " + in.position() + " is not UTF-8" : null;
    }
}
