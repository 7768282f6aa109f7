package org.netnslab.proc;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * A subscription message a listener sends to the proc connector (cn_proc_mcast_ctl): the legacy
 * 4-byte operation (LISTEN or IGNORE, all events) or the 8-byte {@code struct proc_input}
 * {operation, event mask}. Immutable.
 *
 * @param operation {@link ProcEvents#MCAST_LISTEN} or {@link ProcEvents#MCAST_IGNORE}
 * @param mask the events wanted, already ANDed with ALL, 0 turned into ALL
 */
public record ProcSubscription(int operation, int mask) {

    /**
     * Parses a subscription as the kernel does: any length but 4 or 8 bytes is silently ignored (empty
     * result); the mask is ANDed with ALL and 0 means ALL; the legacy form means ALL.
     *
     * @param message the netlink payload, native (little-endian) order
     * @return the subscription, or empty when the kernel would ignore the message
     */
    public static Optional<ProcSubscription> parse(byte[] message) {
        if (message.length != 4 && message.length != 8) {
            return Optional.empty();
        }
        ByteBuffer b = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
        int op = b.getInt();
        int mask = message.length == 8 ? b.getInt() & ProcEvents.ALL : ProcEvents.ALL;
        return Optional.of(new ProcSubscription(op, mask == 0 ? ProcEvents.ALL : mask));
    }

    /**
     * Parses a subscription as the given kernel era does. Before v6.6 (cn_proc_mcast_ctl up to v6.5,
     * drivers/connector/cn_proc.c) only the 4-byte operation exists: {@code msg->len != sizeof(*mc_op)}
     * returns at once, so an 8-byte proc_input is silently ignored; from v6.6 see {@link #parse(byte[])}.
     *
     * @param message the netlink payload, native (little-endian) order
     * @param accounting {@link ProcListenerTable.Accounting#GLOBAL_COUNT} for the pre-v6.6 connector
     * @return the subscription, or empty when that kernel would ignore the message
     */
    public static Optional<ProcSubscription> parse(byte[] message, ProcListenerTable.Accounting accounting) {
        if (!takesMask(accounting) && message.length != 4) {
            return Optional.empty();
        }
        return parse(message);
    }

    /**
     * @param accounting the connector's era
     * @return whether it understands the 8-byte masked subscription: from v6.6 ({@code PER_SOCKET}); before, only the
     *     4-byte LISTEN or IGNORE, and a masked one is silently ignored
     */
    public static boolean takesMask(ProcListenerTable.Accounting accounting) {
        return accounting != ProcListenerTable.Accounting.GLOBAL_COUNT;
    }

    /**
     * @param operation LISTEN or IGNORE
     * @param mask the event mask, or null for the legacy 4-byte form
     * @return the wire form, little-endian
     */
    public static byte[] encode(int operation, Integer mask) {
        ByteBuffer b = ByteBuffer.allocate(mask == null ? 4 : 8).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(operation);
        if (mask != null) {
            b.putInt(mask);
        }
        return b.array();
    }
}
