package org.netnslab.uevent;

import org.netnslab.machine.Clock;

/**
 * One uevent as a listener receives it.
 *
 * @param wire the message bytes ({@code ACTION@DEVPATH} NUL, {@code KEY=VALUE} NUL ..., {@code SEQNUM=n} NUL);
 *     shared between listeners, do not modify
 * @param audience which netns may receive it (model bookkeeping for the isolation check)
 * @param sentNanos {@link Clock#nanoTime()} at the send, for delivery latency
 */
public record Uevent(byte[] wire, Audience audience, long sentNanos) implements Received {
    /** @return the SEQNUM read from the last key of {@link #wire()}, -1 when absent */
    public long seqnum() {
        return UeventMessage.seqnumOf(wire);
    }

    /** @return the decoded message; see {@link UeventMessage#decode(byte[])} for errors */
    public UeventMessage decode() {
        return UeventMessage.decode(wire);
    }

    /** @return the message as text (NULs shown as spaces) with its audience, for logs: the bytes' identity says nothing */
    @Override
    public String toString() {
        return "Uevent[wire=\""
                + new String(wire, java.nio.charset.StandardCharsets.UTF_8)
                        .replace('\0', ' ')
                        .trim() + "\", audience=" + audience + ", sentNanos=" + sentNanos + "]";
    }
}
