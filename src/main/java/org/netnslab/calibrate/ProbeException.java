package org.netnslab.calibrate;

/**
 * A probe could not run: what is missing on this host and what the user can do. The calibrate command prints
 * it as one line and exits 2.
 */
public final class ProbeException extends Exception {
    private static final long serialVersionUID = 1L;
    /** What is missing, e.g. "user namespaces", "a C compiler". */
    public final String missing;
    /** What the user can do about it. */
    public final String hint;

    /**
     * @param missing what is missing
     * @param message what failed
     * @param hint what to do
     */
    public ProbeException(String missing, String message, String hint) {
        super(message);
        this.missing = missing;
        this.hint = hint;
    }

    /** @return one line: missing, what failed, what to do */
    public String line() {
        return missing + " missing or refused: " + getMessage() + (hint == null || hint.isBlank() ? "" : "; " + hint);
    }
}
