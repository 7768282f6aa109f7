package org.netnslab.netns;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class NetnsIdMapTest extends JUnitSuite {

    @Test
    public void putGetRemoveAndGrowth() {
        NetnsIdMap<String> m = new NetnsIdMap<>();
        for (long id = 1; id <= 100_000; id++) {
            assertNull(m.put(id, "n" + id));
        }
        assertEquals(100_000, m.size());
        assertEquals("n77777", m.get(77_777));
        assertEquals("n1", m.put(1, "again"));
        assertEquals("again", m.get(1));
        assertNull(m.get(0));
        assertNull(m.get(100_001));
        for (long id = 2; id <= 100_000; id += 2) {
            assertEquals("n" + id, m.remove(id));
        }
        assertEquals(50_000, m.size());
        for (long id = 3; id <= 100_000; id += 2) {
            assertEquals("every odd id is still found after the backward shifts", "n" + id, m.get(id));
            assertNull(m.get(id - 1));
        }
        assertNull(m.remove(2));
    }

    @Test
    public void agreesWithAHashMapOverRandomOperations() {
        NetnsIdMap<Long> m = new NetnsIdMap<>();
        Map<Long, Long> ref = new HashMap<>();
        Random r = new Random(12);
        for (int i = 0; i < 200_000; i++) {
            long id = 1 + r.nextInt(5_000);
            if (r.nextBoolean()) {
                assertEquals(ref.put(id, (long) i), m.put(id, (long) i));
            } else {
                assertEquals(ref.remove(id), m.remove(id));
            }
            assertEquals(ref.size(), m.size());
        }
        Map<Long, Long> seen = new HashMap<>();
        m.forEach(seen::put);
        assertEquals(ref, seen);
    }

    @Test(expected = IllegalArgumentException.class)
    public void idsArePositive() {
        new NetnsIdMap<String>().put(0, "x");
    }
}
