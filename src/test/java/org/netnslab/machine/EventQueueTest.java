package org.netnslab.machine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class EventQueueTest extends JUnitSuite {
    private static final Comparator<VirtualEngine.Event> ORDER =
            Comparator.<VirtualEngine.Event>comparingLong(e -> e.time).thenComparingLong(e -> e.seq);

    /**
     * Near and far events interleaved, with far events falling due among near ones and equal times across the two
     * heaps: polled in (time, sequence) order, as one sorted set says.
     */
    @Test
    public void pollsBothHeapsInOneTimeThenSequenceOrder() {
        SplittableRandom rnd = new SplittableRandom(7);
        EventQueue queue = new EventQueue();
        TreeSet<VirtualEngine.Event> reference = new TreeSet<>(ORDER);
        long seq = 0;
        long now = 0;
        int far = 0;
        int polled = 0;
        for (int i = 0; i < 40_000; i++) {
            if (reference.isEmpty() || rnd.nextInt(3) != 0) {
                // delays on a grid of 0.5 ms: many events of either heap fall due at the same instant
                long delay = rnd.nextInt(5) * (EventQueue.SOON_NANOS / 2);
                far += delay >= EventQueue.SOON_NANOS ? 1 : 0;
                VirtualEngine.Event e = new VirtualEngine.Event(now + delay, seq++, null);
                queue.add(e, delay);
                reference.add(e);
            } else {
                VirtualEngine.Event e = queue.poll();
                assertSame(reference.pollFirst(), e);
                now = e.time;
                polled++;
            }
        }
        while (!reference.isEmpty()) {
            assertSame(reference.pollFirst(), queue.poll());
        }
        assertTrue(queue.isEmpty());
        assertNull(queue.poll());
        assertTrue("both heaps used: " + far + " far of " + seq, far > 10_000 && far < seq - 10_000);
        assertTrue(polled > 10_000);
    }

    /** A far event and a near one due at the same time: the one scheduled first comes first, from either heap. */
    @Test
    public void equalTimesAcrossTheHeapsKeepTheirSchedulingOrder() {
        EventQueue queue = new EventQueue();
        long t = 2 * EventQueue.SOON_NANOS;
        VirtualEngine.Event far = new VirtualEngine.Event(t, 0, null);
        VirtualEngine.Event near = new VirtualEngine.Event(t, 1, null);
        queue.add(far, t);
        queue.add(near, 10);
        assertSame(far, queue.poll());
        assertSame(near, queue.poll());
        VirtualEngine.Event near2 = new VirtualEngine.Event(t, 2, null);
        VirtualEngine.Event far2 = new VirtualEngine.Event(t, 3, null);
        queue.add(far2, t);
        queue.add(near2, 10);
        assertSame(near2, queue.poll());
        assertSame(far2, queue.poll());
        assertEquals(true, queue.isEmpty());
    }
}
