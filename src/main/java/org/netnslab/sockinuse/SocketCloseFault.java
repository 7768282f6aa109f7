package org.netnslab.sockinuse;

/**
 * {@code sock-inuse.fault}: TEST-ONLY breakage of a user socket's close path ({@code __sk_free} and
 * {@code __sk_destruct}, net/core/sock.c), so that tests can show the invariants that watch it fire.
 * No kernel design does any of this; scenarios must leave it at {@link #NONE}.
 */
public enum SocketCloseFault {
    /** The close path as the design has it. */
    NONE,
    /** The close never subtracts its 1 from sock_inuse: {@code sock_inuse_sum} counts the leftovers. */
    SKIP_SOCK_INUSE_DEC,
    /** The close never drops its netns reference (no put_net): the netns is never dismantled, {@code leaked}. */
    SKIP_PUT_NET;
}
