package org.netnslab.userns;

/** The capabilities the model checks (include/uapi/linux/capability.h), with their numbers. */
public enum Capability {
    /** CAP_NET_ADMIN (12). */
    CAP_NET_ADMIN(12),
    /** CAP_SYS_ADMIN (21): needed to inject uevents into a netns. */
    CAP_SYS_ADMIN(21);

    /** The kernel's capability number. */
    public final int number;

    Capability(int number) {
        this.number = number;
    }
}
