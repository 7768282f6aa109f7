package org.netnslab.netlink;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Cpus;
import org.netnslab.machine.FifoCpus;
import org.netnslab.machine.Step;
import org.netnslab.machine.VirtualEngine;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@link NlTable}: netlink_table_grab against broadcasts, and what nl_table_wait's wake-ups walk. The steps it asks
 * for are recorded, and the test decides when each runs (when its task gets a CPU), so every count is exact.
 */
public class NlTableTest extends JUnitSuite {
    private static final long PER = 50;

    private record Asked(CpuTask task, Step step, long nanos, Runnable then) {}

    private final List<Asked> asked = new ArrayList<>();
    private VirtualEngine engine;
    private Cpus cpus;
    private NlTable table;

    @Before
    public void setUp() {
        engine = VirtualEngine.create();
        cpus = new FifoCpus(engine, 2);
        table = new NlTable((task, step, nanos, then) -> asked.add(new Asked(task, step, nanos, then)));
    }

    @After
    public void tearDown() {
        engine.unregister();
    }

    /** The step asked for last, which must be {@code task}'s; removed from the record. */
    private Asked last(CpuTask task) {
        Asked a = asked.remove(asked.size() - 1);
        assertEquals(task, a.task());
        return a;
    }

    /** A release with no broadcast walking takes the table at once: no sleep, no step, nothing walked. */
    @Test
    public void aReleaseWithNoBroadcastWalkingGoesOnAtOnce() {
        boolean[] granted = {false};
        table.grab(cpus.newTask("exiting", CpuTask.Kind.INJECTOR), PER, () -> granted[0] = true);
        assertTrue(granted[0]);
        assertEquals(0, table.waiting());
        assertEquals(0, table.sleeps());
        assertTrue(asked.isEmpty());
        table.lock();
        assertEquals("nobody waits: the broadcast pays nothing", 0, table.unlock(PER));
    }

    /**
     * Two releases while a broadcast walks: both sleep in the queue. Each broadcast that ends with no other in flight
     * walks the woken waiters that have not run and wakes the first sleeping one; one that ends while another walks
     * calls no wake-up. A woken waiter that runs while a broadcast walks sleeps again in its place; once it finds
     * none, it is done and its own wake-up (netlink_table_ungrab) walks the rest, as a step on its task.
     */
    @Test
    public void wakeUpsWalkTheWokenWaitersAndWakeTheFirstSleepingOne() {
        CpuTask g1 = cpus.newTask("exiting-1", CpuTask.Kind.INJECTOR);
        CpuTask g2 = cpus.newTask("exiting-2", CpuTask.Kind.INJECTOR);
        boolean[] granted = {false, false};
        table.lock();
        table.grab(g1, PER, () -> granted[0] = true);
        table.grab(g2, PER, () -> granted[1] = true);
        assertEquals(2, table.waiting());
        assertEquals(2, table.sleeps());
        assertTrue(asked.isEmpty());

        table.lock(); // a second broadcast starts: the first one's end wakes nobody
        assertEquals(0, table.unlock(PER));
        assertTrue(asked.isEmpty());
        assertEquals("g1 is the first sleeping waiter", PER, table.unlock(PER));
        Asked g1Runs = last(g1);
        assertEquals(0, g1Runs.nanos());

        table.lock();
        assertEquals("passes g1 (woken, not run yet), wakes g2", 2 * PER, table.unlock(PER));
        Asked g2Runs = last(g2);
        table.lock();
        assertEquals("both woken: walks both, wakes none", 2 * PER, table.unlock(PER));
        assertTrue(asked.isEmpty());

        table.lock(); // g1 gets its CPU while a broadcast walks: it sleeps again, in its place
        g1Runs.then().run();
        assertEquals(3, table.sleeps());
        assertFalse(granted[0]);
        assertEquals("wakes g1 again", PER, table.unlock(PER));
        g1Runs = last(g1);
        g1Runs.then().run(); // now no broadcast walks: g1 takes the table; its ungrab walks g2 (woken), wakes none
        assertEquals(1, table.waiting());
        Asked g1Ungrab = last(g1);
        assertEquals(Step.KERNEL, g1Ungrab.step());
        assertEquals(PER, g1Ungrab.nanos());
        assertFalse("granted after its ungrab's step", granted[0]);
        g1Ungrab.then().run();
        assertTrue(granted[0]);

        g2Runs.then().run(); // g2 runs with nothing walking: done, and its ungrab walks an empty queue
        assertTrue(granted[1]);
        assertTrue(asked.isEmpty());
        assertEquals(0, table.waiting());
        assertEquals(1 + 2 + 2 + 1 + 1, table.passed());
        assertEquals(2, table.grabs());
    }

    /** An unlock without its lock is a model defect, said at once. */
    @Test
    public void anUnlockWithoutALockIsRefused() {
        IllegalStateException e = org.junit.Assert.assertThrows(IllegalStateException.class, () -> table.unlock(PER));
        assertTrue(e.getMessage(), e.getMessage().contains("netlink_unlock_table without netlink_lock_table"));
    }
}
