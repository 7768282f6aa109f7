package org.netnslab.report;

/**
 * An output folder a run may not write to, found before the run starts: the message names the
 * folder, says why (a file no run wrote there, no manifest, cannot be written) and what to do.
 */
public final class OutputFolderException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message the folder, the reason and what to do */
    public OutputFolderException(String message) {
        super(message);
    }

    /**
     * @param message the folder, the reason and what to do
     * @param cause the file system's or the parser's exception
     */
    public OutputFolderException(String message, Throwable cause) {
        super(message, cause);
    }
}
