package org.netnslab.netns;

/** A pernet op's init failed: setup_net undoes the ops already run and the creator gets the error. */
public final class PernetInitException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message what failed, naming the op */
    public PernetInitException(String message) {
        super(message);
    }
}
