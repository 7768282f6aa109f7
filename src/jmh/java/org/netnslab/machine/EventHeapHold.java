package org.netnslab.machine;

/**
 * The engine's {@link EventHeap} (package-private) opened to the JMH benchmarks, which live in another package: a
 * heap of events with no-op tasks, filled and popped as the engine does it, one {@link VirtualEngine.Event} and one
 * insertion sequence per push. Times are ns of simulated time. Compiled only under the {@code jmh} profile.
 */
public final class EventHeapHold {
    private static final Runnable NOOP = () -> {};

    private final EventHeap heap = new EventHeap();
    private long sequence;

    /** @param time when the new event runs, ns */
    public void push(long time) {
        heap.add(new VirtualEngine.Event(time, sequence++, NOOP));
    }

    /**
     * @return the earliest event's time, ns, the event removed
     * @throws IllegalStateException when the heap is empty
     */
    public long popTime() {
        VirtualEngine.Event e = heap.poll();
        if (e == null) {
            throw new IllegalStateException("event heap: popped an empty heap");
        }
        return e.time;
    }
}
