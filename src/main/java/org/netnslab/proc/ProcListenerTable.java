package org.netnslab.proc;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The proc connector's listener bookkeeping (cn_proc_mcast_ctl and {@code proc_event_num_listeners},
 * drivers/connector/cn_proc.c) under one of the two {@code proc-connector.accounting} strategies:
 *
 * <ul>
 *   <li>{@link Accounting#PER_SOCKET} (v6.6): each socket has its own state ({@code sk_user_data},
 *       a {@code struct proc_input}); the global count goes up on a socket's first LISTEN and down on
 *       its IGNORE, each socket counted once. Closing the socket runs {@code cn_release}
 *       (drivers/connector/connector.c, v6.6), which frees that state but does not lower the count:
 *       a listener closed without IGNORE keeps events generated for nobody.</li>
 *   <li>{@link Accounting#GLOBAL_COUNT} (before v6.6, cn_proc_mcast_ctl up to v6.5): no per-socket
 *       state at all, only one counter that every LISTEN raises and every IGNORE lowers, whoever
 *       sends it. Membership of the CN_IDX_PROC multicast group alone decides delivery, so a socket
 *       that sent IGNORE stays in the group and keeps receiving every event while the count is at
 *       least 1. A duplicate LISTEN counts twice; an IGNORE from a socket that never listened, or a
 *       second IGNORE, takes another client's count away, and events stop for everyone while that
 *       client still listens; a socket closed without IGNORE is never taken off.</li>
 * </ul>
 *
 * Events are generated only while the count is at least 1. Not thread-safe: owned by the connector.
 */
public final class ProcListenerTable {

    /** The {@code proc-connector.accounting} strategy. */
    public enum Accounting {
        /** v6.6: per-socket state, each client counted once. */
        PER_SOCKET,
        /** Before v6.6: one global listener counter moved by any client's LISTEN and IGNORE. */
        GLOBAL_COUNT
    }

    private final Accounting accounting;
    private final Map<Long, Optional<ProcSubscription>> sockets = new HashMap<>();
    private int count;

    /** @param accounting the strategy */
    public ProcListenerTable(Accounting accounting) {
        this.accounting = accounting;
    }

    /** @return the accounting strategy */
    public Accounting accounting() {
        return accounting;
    }

    /** A socket binds the CN_IDX_PROC group: it has no state until it sends an operation. */
    public void join(long socket) {
        sockets.put(socket, Optional.empty());
    }

    /**
     * A subscription from {@code socket}.
     *
     * @return the socket's state afterwards; always empty under GLOBAL_COUNT (no per-socket state)
     * @throws IllegalStateException when the socket has not joined
     */
    public Optional<ProcSubscription> subscribe(long socket, ProcSubscription s) {
        Optional<ProcSubscription> before = sockets.get(socket);
        if (before == null) {
            throw new IllegalStateException("socket " + socket + " has not joined the proc connector group");
        }
        boolean wasListening = before.isPresent() && before.get().operation() == ProcEvents.MCAST_LISTEN;
        boolean listens = s.operation() == ProcEvents.MCAST_LISTEN;
        if (accounting == Accounting.GLOBAL_COUNT) {
            count += listens ? 1 : s.operation() == ProcEvents.MCAST_IGNORE ? -1 : 0;
        } else if (listens && !wasListening) {
            count++;
        } else if (!listens && wasListening) {
            count--;
        }
        if (accounting == Accounting.GLOBAL_COUNT) {
            return before; // no sk_user_data before v6.6: the socket's state never changes
        }
        // v6.6: IGNORE keeps no mask (event_type = PROC_EVENT_NONE).
        ProcSubscription state = listens ? s : new ProcSubscription(ProcEvents.MCAST_IGNORE, ProcEvents.NONE);
        sockets.put(socket, Optional.of(state));
        return Optional.of(state);
    }

    /**
     * The socket is closed: it leaves the multicast group. Under either accounting the listener count
     * is left as it is (v6.6 cn_release frees only the socket's state; before v6.6 there was no release
     * hook at all).
     */
    public void close(long socket) {
        sockets.remove(socket);
    }

    /** @return whether events are generated: the listener count is at least 1 */
    public boolean generating() {
        return count >= 1;
    }

    /** @return {@code proc_event_num_listeners} (may go negative under GLOBAL_COUNT) */
    public int count() {
        return count;
    }

    /**
     * @param socket a joined socket
     * @param event an event being broadcast
     * @return whether {@code socket} receives it: only while events are generated at all, then under
     *     PER_SOCKET by {@link ProcFilter} on the socket's state, under GLOBAL_COUNT for every group
     *     member (IGNORE included: before v6.6 cn_netlink_send reaches every socket bound to CN_IDX_PROC)
     */
    public boolean delivers(long socket, ProcEvent event) {
        Optional<ProcSubscription> state = sockets.get(socket);
        if (state == null || !generating()) {
            return false;
        }
        return accounting == Accounting.GLOBAL_COUNT || ProcFilter.delivers(state.orElse(null), event);
    }
}
