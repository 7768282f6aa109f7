package org.netnslab.uevent;

/**
 * Which netns a uevent may reach, by the v4.18+ rules (reference 1.3, 1.4). Carried beside the
 * message so listeners can count isolation violations; the kernel itself carries no such field.
 *
 * @param kind how the event was produced
 * @param netnsId the sender's or the device's netns id; unused for {@link Kind#UNTAGGED}
 */
public record Audience(Kind kind, long netnsId) {
    /** How a uevent was produced. */
    public enum Kind {
        /** Injected from userspace: only the sender's netns. */
        INJECTED,
        /** Kernel-generated for a network device: only the device's netns. */
        TAGGED,
        /** Kernel-generated, not tied to a netns: every netns owned by the initial user namespace. */
        UNTAGGED
    }

    /**
     * @param listenerNetnsId the netns of the receiving socket
     * @param listenerNetnsInitOwned whether that netns is owned by the initial user namespace
     * @return whether the kernel would deliver this event there
     */
    public boolean admits(long listenerNetnsId, boolean listenerNetnsInitOwned) {
        return kind == Kind.UNTAGGED ? listenerNetnsInitOwned : netnsId == listenerNetnsId;
    }
}
