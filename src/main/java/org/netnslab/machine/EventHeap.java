package org.netnslab.machine;

import java.util.Arrays;

/**
 * The engine's timed events, ordered by (time, insertion sequence): a 4-ary min-heap over an array. Keys are
 * compared inline, and a 4-ary heap halves the levels a binary heap climbs and walks a node's children in one
 * cache line of references, so it beats {@link java.util.PriorityQueue} with {@link Comparable} events at the
 * tens of millions of events a design run schedules. Sequences are unique, so the order is total and the same as
 * any other correct priority queue's: a run's figures do not depend on the heap. Not thread-safe: the engine
 * guards it.
 */
final class EventHeap {
    private VirtualEngine.Event[] heap = new VirtualEngine.Event[1024];
    private int size;

    /** @return whether no event is held */
    boolean isEmpty() {
        return size == 0;
    }

    /** @param e an event, kept until {@link #poll} returns it */
    void add(VirtualEngine.Event e) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            VirtualEngine.Event p = heap[parent];
            if (!before(e, p)) {
                break;
            }
            heap[i] = p;
            i = parent;
        }
        heap[i] = e;
    }

    /** @return the earliest event, removed, or null when none is held */
    VirtualEngine.Event poll() {
        if (size == 0) {
            return null;
        }
        VirtualEngine.Event first = heap[0];
        VirtualEngine.Event last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            siftDown(last);
        }
        return first;
    }

    /** Places {@code e} from the root down to where no child comes before it. */
    private void siftDown(VirtualEngine.Event e) {
        int i = 0;
        while (true) {
            int c = (i << 2) + 1;
            if (c >= size) {
                break;
            }
            int best = c;
            int end = Math.min(c + 4, size);
            for (int k = c + 1; k < end; k++) {
                if (before(heap[k], heap[best])) {
                    best = k;
                }
            }
            if (!before(heap[best], e)) {
                break;
            }
            heap[i] = heap[best];
            i = best;
        }
        heap[i] = e;
    }

    /** @return whether {@code a} runs before {@code b}: earlier time, or the same time and scheduled first */
    private static boolean before(VirtualEngine.Event a, VirtualEngine.Event b) {
        return a.time < b.time || (a.time == b.time && a.seq < b.seq);
    }
}
