package org.netnslab.uevent;

/**
 * The kernel error numbers the uevent path can report, with their Linux values
 * (include/uapi/asm-generic/errno-base.h and errno.h).
 */
public enum Errno {
    /** Operation not permitted: injection without CAP_SYS_ADMIN over the target netns's owning user namespace. */
    EPERM(1),
    /** No such file or directory: kobject_uevent_env could not build DEVPATH. */
    ENOENT(2),
    /**
     * Try again: not a kernel answer of the uevent path but the model's, when a netns actor failed (fault
     * switch {@code faults.netns-actor}) while handling the request; nothing was sent, no SEQNUM taken,
     * and the sender may repeat it.
     */
    EAGAIN(11),
    /** Out of memory: a kernel-generated uevent exceeds 64 keys or 2048 bytes (add_uevent_var). */
    ENOMEM(12),
    /** Invalid argument: an empty injected message, or one that does not fit in UEVENT_BUFFER_SIZE. */
    EINVAL(22),
    /** No buffer space available: a listener's receive queue overflowed and messages were dropped. */
    ENOBUFS(105);

    /** The positive errno value as Linux defines it. */
    public final int value;

    Errno(int value) {
        this.value = value;
    }
}
