package org.netnslab.machine;

import static org.junit.Assert.assertEquals;

import org.junit.Assert;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** The scheduling keys' values as a scenario spells them, and the message a wrong one gets. */
public class SchedulingTest extends JUnitSuite {
    @Test
    public void eachKeyReadsItsValuesInAnyCase() {
        assertEquals(Scheduling.Scheduler.FIFO, Scheduling.Scheduler.parse("FiFo"));
        assertEquals(Scheduling.Preempt.VOLUNTARY, Scheduling.Preempt.parse("voluntary"));
        assertEquals(Scheduling.TaskGroup.SESSION, Scheduling.TaskGroup.parse("SESSION"));
    }

    @Test
    public void aWrongValueIsRefusedNamingTheKeyAndEveryAcceptedValue() {
        assertEquals(
                "machine.scheduler must be fair or fifo, got 'rr'",
                Assert.assertThrows(IllegalArgumentException.class, () -> Scheduling.Scheduler.parse("rr"))
                        .getMessage());
        assertEquals(
                "machine.preempt must be none, voluntary or full, got 'rt'",
                Assert.assertThrows(IllegalArgumentException.class, () -> Scheduling.Preempt.parse("rt"))
                        .getMessage());
        assertEquals(
                "machine.task-group must be root or session, got 'cgroup'",
                Assert.assertThrows(IllegalArgumentException.class, () -> Scheduling.TaskGroup.parse("cgroup"))
                        .getMessage());
    }
}
