package org.netnslab.machine;

import java.util.Arrays;

/**
 * The engine's timed events, ordered by (time, insertion sequence): a 4-ary min-heap whose keys sit in arrays of
 * longs beside the events. A comparison reads two longs from one array rather than two objects, and a 4-ary heap
 * climbs half the levels of a binary one, so it beats {@link java.util.PriorityQueue} of {@link Comparable} events
 * at the tens of millions of events a design run schedules. Sequences are unique, so the order is total and the
 * same as any other correct priority queue's: a run's figures do not depend on the heap. Not thread-safe: the
 * engine guards it.
 */
final class EventHeap {
    private long[] times = new long[1024];
    private long[] seqs = new long[1024];
    private VirtualEngine.Event[] events = new VirtualEngine.Event[1024];
    private int size;

    /** @return whether no event is held */
    boolean isEmpty() {
        return size == 0;
    }

    /** @param e an event, kept until {@link #poll} returns it */
    void add(VirtualEngine.Event e) {
        if (size == events.length) {
            times = Arrays.copyOf(times, size * 2);
            seqs = Arrays.copyOf(seqs, size * 2);
            events = Arrays.copyOf(events, size * 2);
        }
        long t = e.time;
        long q = e.seq;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = times[parent];
            if (t > pt || (t == pt && q > seqs[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        put(i, e);
    }

    /** @return the earliest event, left in place, or null when none is held */
    VirtualEngine.Event peek() {
        return size == 0 ? null : events[0];
    }

    /** @return the earliest event, removed, or null when none is held */
    VirtualEngine.Event poll() {
        if (size == 0) {
            return null;
        }
        VirtualEngine.Event first = events[0];
        VirtualEngine.Event last = events[--size];
        events[size] = null;
        if (size > 0) {
            siftDown(last);
        }
        return first;
    }

    /** Places {@code e} from the root down to where no child comes before it. */
    private void siftDown(VirtualEngine.Event e) {
        long t = e.time;
        long q = e.seq;
        int i = 0;
        while (true) {
            int c = (i << 2) + 1;
            if (c >= size) {
                break;
            }
            int best = c;
            long bt = times[c];
            long bq = seqs[c];
            int end = Math.min(c + 4, size);
            for (int k = c + 1; k < end; k++) {
                long kt = times[k];
                if (kt < bt || (kt == bt && seqs[k] < bq)) {
                    best = k;
                    bt = kt;
                    bq = seqs[k];
                }
            }
            if (t < bt || (t == bt && q < bq)) {
                break;
            }
            move(best, i);
            i = best;
        }
        put(i, e);
    }

    private void move(int from, int to) {
        times[to] = times[from];
        seqs[to] = seqs[from];
        events[to] = events[from];
    }

    private void put(int i, VirtualEngine.Event e) {
        times[i] = e.time;
        seqs[i] = e.seq;
        events[i] = e;
    }
}
