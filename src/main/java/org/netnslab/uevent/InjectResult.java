package org.netnslab.uevent;

/**
 * The outcome of one injected uevent, as the sender learns it (the sendmsg return plus the
 * NLMSG_ERROR the kernel sends back on failure).
 */
public sealed interface InjectResult {
    /**
     * Broadcast on the netns's socket: the message is on every listener's queue (or counted as dropped).
     *
     * @param seqnum the SEQNUM it carried
     */
    record Sent(long seqnum) implements InjectResult {}

    /**
     * Refused.
     *
     * @param errno EPERM (no CAP_SYS_ADMIN over the netns's owning user namespace) or EINVAL (empty or
     *     too big)
     * @param burnedSeqnum the SEQNUM consumed by the refusal (EINVAL for size), -1 when none was
     */
    record Failed(Errno errno, long burnedSeqnum) implements InjectResult {}
}
