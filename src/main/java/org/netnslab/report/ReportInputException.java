package org.netnslab.report;

import java.nio.file.Path;

/**
 * A saved result that cannot be read back: its message names the file and says what is wrong with it,
 * e.g. {@code out/result.json: designs[0].measures["uevent.transaction"].count: missing}.
 */
public final class ReportInputException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The file at fault. */
    private final transient Path file;

    /**
     * @param file the file at fault
     * @param problem what is wrong with it
     */
    public ReportInputException(Path file, String problem) {
        super(file + ": " + problem);
        this.file = file;
    }

    /**
     * @param file the file at fault
     * @param problem what is wrong with it
     * @param cause the parser's or the file system's exception
     */
    public ReportInputException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
    }

    /** @return the file at fault */
    public Path file() {
        return file;
    }
}
