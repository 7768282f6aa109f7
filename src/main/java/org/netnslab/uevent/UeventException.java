package org.netnslab.uevent;

/**
 * A uevent operation the kernel would refuse, carrying the errno it would return.
 */
public final class UeventException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The kernel's error for this refusal. */
    public final Errno errno;

    /**
     * @param errno the error the kernel returns
     * @param message what was wrong, naming the limit or key at fault
     */
    public UeventException(Errno errno, String message) {
        super(errno + ": " + message);
        this.errno = errno;
    }
}
