package org.netnslab.netns;

import java.util.function.BooleanSupplier;

/**
 * What a pernet op's exit still has to do after it returns: nothing, wait for RCU first (the
 * synchronize_rcu + rcu_barrier of the seed's rejected patch), or retry until a resource can be let
 * go (a listener whose ENOBUFS is still undelivered). The netns actor carries it out without blocking.
 */
public sealed interface ExitAction {
    /** The exit is complete. */
    ExitAction DONE = new Done();

    /** The exit is complete. */
    record Done() implements ExitAction {}

    /**
     * Wait for a full grace period ({@code synchronize}) and then for every queued callback
     * ({@code barrier}), then run {@code then}.
     */
    record AfterRcu(boolean synchronize, boolean barrier, Runnable then) implements ExitAction {}

    /** Call {@code attempt} now and then every millisecond until it returns true. */
    record RetryUntil(BooleanSupplier attempt) implements ExitAction {}
}
