package org.netnslab.netlink;

/**
 * {@code netlink.fault}: a deliberately broken receive path, for tests only, so that the
 * {@code lost_without_enobufs} invariant can be shown to fire. Never a design.
 */
public enum NetlinkFault {
    /** The kernel's netlink_overrun(). */
    NONE,
    /** An overrun drops the message but neither sets sk_err nor marks the socket congested. */
    DROP_WITHOUT_ERROR
}
