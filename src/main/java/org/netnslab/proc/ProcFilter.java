package org.netnslab.proc;

/**
 * The per-listener filter of the 2023 series (cn_filter, drivers/connector/cn_proc.c), in the
 * kernel's order. A listener's state is null when its socket joined the group but never sent an
 * operation.
 */
public final class ProcFilter {
    private ProcFilter() {}

    /**
     * @param state the listener's subscription, or null when it never sent one
     * @param event the event
     * @return whether the event is delivered to that listener
     */
    public static boolean delivers(ProcSubscription state, ProcEvent event) {
        if (state == null) {
            return true; // 1. joined the group, never sent LISTEN: everything
        }
        if (state.operation() == ProcEvents.MCAST_IGNORE) {
            return false; // 2. IGNORE: nothing
        }
        if (state.mask() == ProcEvents.ALL) {
            return true; // 3. all events
        }
        if ((state.mask() & ProcEvents.NONZERO_EXIT) != 0 && event.isNonzeroExit()) {
            return true; // 4. a non-zero exit for a NONZERO_EXIT listener
        }
        return (state.mask() & event.what()) != 0; // 5. the mask
    }
}
