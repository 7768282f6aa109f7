package org.netnslab.run;

/** The run itself failed (a stalled phase, a model request that timed out); the CLI exits with 1. */
public final class RunFailure extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message what failed, naming the design and phase */
    public RunFailure(String message) {
        super(message);
    }

    /**
     * @param message what failed
     * @param cause the underlying error
     */
    public RunFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
