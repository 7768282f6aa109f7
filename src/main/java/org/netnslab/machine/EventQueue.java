package org.netnslab.machine;

/**
 * The engine's timed events in two {@link EventHeap}s by how far ahead they were scheduled: events due within
 * {@link #SOON_NANOS} (CPU and lock steps, wake-ups) in one, the rest (timers, RCU grace periods, the injectors'
 * staggered starts) in the other. {@link #poll} takes the earlier of the two heads by (time, insertion sequence),
 * so the order is the same total order one heap gives and a run's figures do not depend on the split. What the split
 * buys: a full TC1 run keeps about a thousand far events (each injector's start) pending while it runs millions of
 * near ones; in one heap every near event climbed and sank through those levels, here through a heap of a handful.
 * Not thread-safe: the engine guards it.
 */
final class EventQueue {
    /** Events scheduled less than this far ahead go to the near heap, ns (1 ms: below a 250 Hz tick). */
    static final long SOON_NANOS = 1_000_000;

    private final EventHeap soon = new EventHeap();
    private final EventHeap later = new EventHeap();

    /** @return whether no event is held */
    boolean isEmpty() {
        return soon.isEmpty() && later.isEmpty();
    }

    /**
     * @param e an event, kept until {@link #poll} returns it
     * @param delayNanos how far ahead of the clock it was scheduled, ns
     */
    void add(VirtualEngine.Event e, long delayNanos) {
        (delayNanos < SOON_NANOS ? soon : later).add(e);
    }

    /** @return the earliest event of both heaps, removed, or null when none is held */
    VirtualEngine.Event poll() {
        if (later.isEmpty()) {
            return soon.poll();
        }
        if (soon.isEmpty()) {
            return later.poll();
        }
        VirtualEngine.Event a = soon.peek();
        VirtualEngine.Event b = later.peek();
        boolean soonFirst = a.time < b.time || (a.time == b.time && a.seq < b.seq);
        return soonFirst ? soon.poll() : later.poll();
    }
}
