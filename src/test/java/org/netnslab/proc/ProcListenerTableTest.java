package org.netnslab.proc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.netnslab.proc.ProcListenerTable.Accounting;
import org.scalatestplus.junit.JUnitSuite;

public class ProcListenerTableTest extends JUnitSuite {
    private static final ProcEvent FORK = new ProcEvent(ProcEvents.FORK, 0, 1, 0, 10, 10, 1, 0, 0);
    private static final ProcSubscription LISTEN = new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.ALL);
    private static final ProcSubscription IGNORE = new ProcSubscription(ProcEvents.MCAST_IGNORE, ProcEvents.ALL);

    /** Client A listens; client B sends IGNORE without ever listening. */
    private static ProcListenerTable ignoreFromAStranger(Accounting accounting) {
        ProcListenerTable t = new ProcListenerTable(accounting);
        t.join(1);
        t.join(2);
        t.subscribe(1, LISTEN);
        t.subscribe(2, IGNORE);
        return t;
    }

    @Test
    public void globalCountLetsAStrangersIgnoreSilenceAListener() {
        ProcListenerTable t = ignoreFromAStranger(Accounting.GLOBAL_COUNT);
        assertEquals(0, t.count());
        assertFalse("the bug: A still listens but no event is generated", t.delivers(1, FORK));
    }

    @Test
    public void perSocketCountsEachClientOnce() {
        ProcListenerTable t = ignoreFromAStranger(Accounting.PER_SOCKET);
        assertEquals(1, t.count());
        assertTrue(t.delivers(1, FORK));
        assertFalse(t.delivers(2, FORK));
    }

    /**
     * cn_proc_mcast_ctl (drivers/connector/cn_proc.c): before v6.6 every LISTEN is an atomic_inc; from
     * v6.6 only a socket's first LISTEN is. cn_release (drivers/connector/connector.c, v6.6) frees the
     * socket's state and lowers nothing, so in both eras a close without IGNORE leaves the count up.
     */
    @Test
    public void duplicateListenAndCloseWithoutIgnore() {
        ProcListenerTable old = new ProcListenerTable(Accounting.GLOBAL_COUNT);
        ProcListenerTable v66 = new ProcListenerTable(Accounting.PER_SOCKET);
        for (ProcListenerTable t : new ProcListenerTable[] {old, v66}) {
            t.join(1);
            t.subscribe(1, LISTEN);
            t.subscribe(1, LISTEN);
            t.close(1);
        }
        assertEquals("old: counted twice and never taken off: events generated for nobody", 2, old.count());
        assertTrue(old.generating());
        assertEquals("v6.6: counted once, and cn_release does not take it off", 1, v66.count());
        assertTrue(v66.generating());
    }

    /** cn_proc_mcast_ctl before v6.6: IGNORE is only atomic_dec; the socket keeps no state and stays in the group. */
    @Test
    public void beforeV66AnIgnoredSocketStillReceives() {
        ProcListenerTable t = new ProcListenerTable(Accounting.GLOBAL_COUNT);
        t.join(1);
        t.join(2);
        t.subscribe(1, LISTEN);
        t.subscribe(2, LISTEN);
        assertTrue("no per-socket state before v6.6", t.subscribe(2, IGNORE).isEmpty());
        assertEquals(1, t.count());
        assertTrue(t.delivers(1, FORK));
        assertTrue("still a member of CN_IDX_PROC: it gets every event", t.delivers(2, FORK));
    }

    @Test
    public void aSocketThatJoinedButNeverSentAnOperationGetsEverythingWhileOthersListen() {
        ProcListenerTable t = new ProcListenerTable(Accounting.PER_SOCKET);
        t.join(1);
        t.join(2);
        assertFalse("no LISTEN yet: nothing is generated", t.delivers(1, FORK));
        t.subscribe(2, new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.EXIT));
        assertTrue(t.delivers(1, FORK));
        assertFalse(t.delivers(2, FORK));
    }

    @Test
    public void beforeV66AMaskDoesNotNarrowWhatAListenerGets() {
        ProcListenerTable t = new ProcListenerTable(Accounting.GLOBAL_COUNT);
        t.join(1);
        t.subscribe(1, new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.EXIT));
        assertTrue(t.delivers(1, FORK));
    }
}
