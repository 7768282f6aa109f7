package org.netnslab.machine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class EventHeapTest extends JUnitSuite {
    private static final Comparator<VirtualEngine.Event> ORDER =
            Comparator.<VirtualEngine.Event>comparingLong(e -> e.time).thenComparingLong(e -> e.seq);

    /** Adds and polls interleaved, with many equal times: polled in (time, sequence) order, as a sorted set says. */
    @Test
    public void pollsInTimeThenSequenceOrderWhateverTheInterleaving() {
        SplittableRandom rnd = new SplittableRandom(42);
        EventHeap heap = new EventHeap();
        TreeSet<VirtualEngine.Event> reference = new TreeSet<>(ORDER);
        List<Long> polled = new ArrayList<>();
        long seq = 0;
        long now = 0;
        for (int i = 0; i < 20_000; i++) {
            if (reference.isEmpty() || rnd.nextInt(3) != 0) {
                VirtualEngine.Event e = new VirtualEngine.Event(now + rnd.nextInt(50), seq++, null);
                heap.add(e);
                reference.add(e);
            } else {
                VirtualEngine.Event e = heap.poll();
                assertTrue(e == reference.pollFirst());
                now = e.time;
                polled.add(e.seq);
            }
        }
        while (!reference.isEmpty()) {
            assertTrue(heap.poll() == reference.pollFirst());
        }
        assertTrue(heap.isEmpty());
        assertNull(heap.poll());
        assertTrue(polled.size() > 5_000);
    }

    /** Same time: first scheduled, first polled. */
    @Test
    public void equalTimesKeepTheirSchedulingOrder() {
        EventHeap heap = new EventHeap();
        for (int s = 0; s < 10; s++) {
            heap.add(new VirtualEngine.Event(7, 9 - s == 9 ? 0 : s, null));
        }
        List<Long> seqs = new ArrayList<>();
        for (VirtualEngine.Event e; (e = heap.poll()) != null; ) {
            seqs.add(e.seq);
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), seqs);
    }
}
