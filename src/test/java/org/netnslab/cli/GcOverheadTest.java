package org.netnslab.cli;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** The collection overhead limit: a whole window, nearly all of it in collection, the heap full throughout. */
public class GcOverheadTest extends JUnitSuite {
    private static final long S = 1_000_000_000L;

    /** Samples every 250 ms for {@code seconds}, collecting {@code gcShare} of the time, the heap full or not. */
    private static GcOverhead feed(double seconds, double gcShare, boolean full) {
        GcOverhead o = new GcOverhead();
        for (long t = 0; t <= seconds * S; t += S / 4) {
            o.sample(1_000 * S + t, Math.round(t * gcShare / 1e6), full);
        }
        return o;
    }

    @Test
    public void aWholeWindowCollectingWithTheHeapFullIsExhaustion() {
        assertTrue(feed(20, 0.97, true).exhausted());
        assertTrue(feed(25, 1.0, true).exhausted());
    }

    @Test
    public void lessThanAWindowLessCollectionOrRoomInTheHeapIsNot() {
        assertFalse("not a whole window yet", feed(19.5, 1.0, true).exhausted());
        assertFalse(
                "the run still gets a twentieth of the time",
                feed(25, 0.9, true).exhausted());
        assertFalse("the heap has room", feed(25, 1.0, false).exhausted());
        GcOverhead o = feed(25, 1.0, true);
        o.sample(1_026 * S, 26_000, false); // room again, just now
        assertFalse(o.exhausted());
    }
}
