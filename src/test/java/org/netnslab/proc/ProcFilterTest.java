package org.netnslab.proc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Optional;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class ProcFilterTest extends JUnitSuite {
    private static ProcEvent ev(int what, int exitCode) {
        return new ProcEvent(what, 0, 1, 0, 100, 100, what == ProcEvents.FORK ? 1 : 0, exitCode, 17);
    }

    @Test
    public void eventValuesAreTheKernels() {
        assertEquals(0x1, ProcEvents.FORK);
        assertEquals(0x2, ProcEvents.EXEC);
        assertEquals(0x4, ProcEvents.UID);
        assertEquals(0x40, ProcEvents.GID);
        assertEquals(0x80, ProcEvents.SID);
        assertEquals(0x100, ProcEvents.PTRACE);
        assertEquals(0x200, ProcEvents.COMM);
        assertEquals(0x20000000, ProcEvents.NONZERO_EXIT);
        assertEquals(0x40000000, ProcEvents.COREDUMP);
        assertEquals(0x80000000, ProcEvents.EXIT);
        assertEquals(0xE00003C7, ProcEvents.ALL);
        assertEquals("FORK|EXIT", ProcEvents.names(ProcEvents.FORK | ProcEvents.EXIT));
    }

    @Test
    public void legacyFormMeansAllMaskIsAndedWithAllAndZeroMeansAllOtherLengthsAreIgnored() {
        assertEquals(
                Optional.of(new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.ALL)),
                ProcSubscription.parse(ProcSubscription.encode(ProcEvents.MCAST_LISTEN, null)));
        assertEquals(
                Optional.of(new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.EXIT)),
                ProcSubscription.parse(ProcSubscription.encode(ProcEvents.MCAST_LISTEN, ProcEvents.EXIT | 0x8)));
        assertEquals(
                Optional.of(new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.ALL)),
                ProcSubscription.parse(ProcSubscription.encode(ProcEvents.MCAST_LISTEN, 0)));
        assertEquals(Optional.empty(), ProcSubscription.parse(new byte[6]));
        assertEquals(Optional.empty(), ProcSubscription.parse(new byte[0]));
    }

    @Test
    public void eachFilterRuleInOrder() {
        ProcEvent fork = ev(ProcEvents.FORK, 0);
        ProcEvent cleanExit = ev(ProcEvents.EXIT, 0);
        ProcEvent badExit = ev(ProcEvents.EXIT, 1 << 8);
        ProcEvent killed = ev(ProcEvents.EXIT, 9); // SIGKILL: signals count as non-zero
        // 1. no state: everything
        assertTrue(ProcFilter.delivers(null, fork));
        // 2. IGNORE: nothing, whatever the mask
        assertFalse(ProcFilter.delivers(new ProcSubscription(ProcEvents.MCAST_IGNORE, ProcEvents.ALL), fork));
        // 3. ALL
        assertTrue(ProcFilter.delivers(new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.ALL), fork));
        // 4. NONZERO_EXIT: exactly the non-zero exits
        ProcSubscription nonzero = new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.NONZERO_EXIT);
        assertTrue(ProcFilter.delivers(nonzero, badExit));
        assertTrue(ProcFilter.delivers(nonzero, killed));
        assertFalse(ProcFilter.delivers(nonzero, cleanExit));
        assertFalse(ProcFilter.delivers(nonzero, fork));
        // 5. the mask
        ProcSubscription forkExit = new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.FORK | ProcEvents.EXIT);
        assertTrue(ProcFilter.delivers(forkExit, fork));
        assertTrue(ProcFilter.delivers(forkExit, cleanExit));
        assertFalse(ProcFilter.delivers(forkExit, ev(ProcEvents.EXEC, 0)));
    }
}
