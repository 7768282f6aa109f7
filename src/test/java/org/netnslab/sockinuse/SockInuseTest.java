package org.netnslab.sockinuse;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;
import org.netnslab.settings.Setting;
import org.scalatestplus.junit.JUnitSuite;

public class SockInuseTest extends JUnitSuite {

    @Test
    public void addTouchesOneSlotAndGetSumsAllOfThem() {
        AtomicInteger uaf = new AtomicInteger();
        SockInuse c = new SockInuse(4, uaf::incrementAndGet);
        assertTrue(c.add(0, 1));
        assertTrue(c.add(1, 1));
        assertTrue(c.add(6, 1)); // CPU 6 on a 4-slot counter is slot 2
        assertEquals(3, c.get());
        c.add(3, -2); // a socket opened on CPU 0 and closed on CPU 3: that slot goes negative
        assertEquals(1, c.get());
        assertEquals(0, uaf.get());
    }

    @Test
    public void everyAccessAfterFreeIsCountedAndChangesNothing() {
        AtomicInteger uaf = new AtomicInteger();
        SockInuse c = new SockInuse(2, uaf::incrementAndGet);
        c.add(0, 1);
        c.free();
        assertTrue(c.isFreed());
        assertFalse(c.add(1, -1));
        assertEquals(0, c.get());
        c.free(); // double free
        assertEquals(3, uaf.get());
    }

    @Test
    public void strategyNamesRoundTrip() {
        for (SockInuseFree f : SockInuseFree.values()) {
            assertEquals(
                    f, SockInuseSettings.FREE.read(ConfigFactory.parseString("sock-inuse.free = " + Setting.spell(f))));
        }
        assertEquals("net-free", Setting.spell(SockInuseFree.NET_FREE));
        assertEquals(
                "unknown sock-inuse.free 'later'; expected one of owner-exit, net-free, exit-barrier, exit-unsafe",
                org.junit.Assert.assertThrows(
                                IllegalArgumentException.class,
                                () -> SockInuseSettings.FREE.read(ConfigFactory.parseString("sock-inuse.free = later")))
                        .getMessage());
    }
}
