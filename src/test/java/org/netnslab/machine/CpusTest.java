package org.netnslab.machine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The choice of machine ({@link Scheduling#newCpus}) and the preemption points of each preemption model ({@link
 * Scheduling.Preempt#preemptsAt}), as docs/scheduler.md's table gives them.
 */
public class CpusTest extends JUnitSuite {
    private static final Scheduling FAIR =
            new Scheduling(Scheduling.Scheduler.FAIR, Scheduling.Preempt.NONE, 250, 0, 0);

    @Test
    public void theSchedulerKeyChoosesTheMachine() {
        VirtualEngine e = VirtualEngine.create();
        try {
            Cpus fifo = Scheduling.FIFO.newCpus(e, 3);
            assertTrue(fifo instanceof FifoCpus);
            assertFalse(fifo.fair());
            assertEquals(3, fifo.count());
            Cpus fair = FAIR.newCpus(e, 2);
            assertTrue(fair instanceof FairCpus);
            assertTrue(fair.fair());
            assertEquals(2, fair.count());
            assertEquals(FAIR, fair.scheduling());
        } finally {
            e.unregister();
        }
    }

    @Test
    public void aMachineRefusesAnotherSchedulersRulesOrNoCpus() {
        VirtualEngine e = VirtualEngine.create();
        try {
            IllegalArgumentException x = org.junit.Assert.assertThrows(
                    IllegalArgumentException.class, () -> new FairCpus(e, 2, Scheduling.FIFO));
            assertEquals("FairCpus schedules fair, got machine.scheduler = fifo", x.getMessage());
            x = org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> new FifoCpus(e, 2, FAIR));
            assertEquals("FifoCpus schedules fifo, got machine.scheduler = fair", x.getMessage());
            x = org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> FAIR.newCpus(e, 0));
            assertEquals("machine.cpus must be >= 1, got 0", x.getMessage());
        } finally {
            e.unregister();
        }
    }

    /** A user step's end and the return to user space always; inside a system call as the model enables. */
    @Test
    public void preemptionPointsFollowThePreemptionModel() {
        Step[] kernel = {Step.KERNEL, Step.COND_RESCHED, Step.MIGHT_SLEEP, Step.ATOMIC};
        boolean[][] expected = { // none, voluntary, full for each kernel step's end, before another kernel step
            {false, false, true}, {true, true, true}, {false, true, true}, {false, false, false}
        };
        for (Scheduling.Preempt p : Scheduling.Preempt.values()) {
            for (int k = 0; k < kernel.length; k++) {
                assertEquals(p + " after " + kernel[k], expected[k][p.ordinal()], p.preemptsAt(kernel[k], Step.KERNEL));
                assertTrue(p + " at the return to user space", p.preemptsAt(kernel[k], Step.USER));
            }
            assertTrue(p + " after a user step", p.preemptsAt(Step.USER, Step.ATOMIC));
        }
    }
}
