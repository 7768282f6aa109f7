package org.netnslab.netns;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The lifecycle lock between netns creation and cleanup as its holders meet it: under
 * {@link LifecycleLock#NET_MUTEX} one holder at a time, the others waiting in arrival order; under
 * {@link LifecycleLock#RWSEM} every holder takes it for read at once. Not thread-safe: owned by the
 * supervisor actor.
 *
 * @param <H> a holder: a creation, or a cleanup batch
 */
final class LifecycleLockQueue<H> {
    private final LifecycleLock kind;
    private final ArrayDeque<H> waiters = new ArrayDeque<>();
    private boolean locked;

    LifecycleLockQueue(LifecycleLock kind) {
        this.kind = kind;
    }

    /**
     * mutex_lock(&net_mutex), or down_read(&pernet_ops_rwsem).
     *
     * @return whether {@code holder} holds the lock now; if not, it waits for an {@link #unlock}
     */
    boolean lock(H holder) {
        if (kind == LifecycleLock.RWSEM || !locked) {
            locked = kind == LifecycleLock.NET_MUTEX;
            return true;
        }
        waiters.add(holder);
        return false;
    }

    /**
     * A holder is done: mutex_unlock(&net_mutex) hands the lock to the first waiter; up_read has nobody to
     * hand it to.
     *
     * @return the waiter that holds the lock now, or null when none waited (or under rwsem)
     */
    H unlock() {
        if (kind != LifecycleLock.NET_MUTEX) {
            return null;
        }
        H next = waiters.poll();
        if (next == null) {
            locked = false;
        }
        return next;
    }

    /** @return the waiters, in arrival order, now removed */
    List<H> drain() {
        List<H> all = new ArrayList<>(waiters);
        waiters.clear();
        return all;
    }
}
