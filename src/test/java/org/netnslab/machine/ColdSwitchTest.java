package org.netnslab.machine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** {@code machine.cold-switch}: its form, its ranges, and what a ring of tasks on the fair machine pays for it. */
public class ColdSwitchTest extends JUnitSuite {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    /** 0 up to two switches since; base plus the evicted share beyond the tasks the cache holds. */
    @Test
    public void theExtraFollowsItsForm() {
        ColdSwitch c = new ColdSwitch(1_900, 6_600, 454);
        assertEquals(0, c.extraNanos(0));
        assertEquals(0, c.extraNanos(2));
        assertEquals(1_900, c.extraNanos(3)); // 454 tasks fit: no evicted share
        assertEquals(1_900, c.extraNanos(454));
        assertEquals(1_900 + Math.round(6_600 * (1 - 454 / 1000.0)), c.extraNanos(1000)); // 5,504
        assertEquals(1_900 + Math.round(6_600 * (1 - 454 / 3000.0)), c.extraNanos(3000)); // 7,501
        assertEquals(6_600, new ColdSwitch(0, 6_600, 0).extraNanos(3));
        assertEquals(0, ColdSwitch.NONE.extraNanos(1_000_000));
        assertTrue(ColdSwitch.NONE.none());
    }

    /** Each part out of range is refused with the key's name. */
    @Test
    public void outOfRangePartsAreRefusedByName() {
        assertEquals(
                "machine.cold-switch.base must be in 0..1ms, got -1 ns",
                org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> new ColdSwitch(-1, 0, 0))
                        .getMessage());
        assertEquals(
                "machine.cold-switch.evicted must be in 0..1ms, got 1000001 ns",
                org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> new ColdSwitch(0, 1_000_001, 0))
                        .getMessage());
        assertEquals(
                "machine.cold-switch.cached-tasks must be in 0..1000000000, got -5",
                org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> new ColdSwitch(0, 0, -5))
                        .getMessage());
    }

    /**
     * K tasks on one CPU pass a token round a ring (a step of 10 us each, then the next one's wake-up), as sched_probe's
     * ring: from the second lap on, every switch-in comes K switches after the task's last one, so each lap costs each
     * task its step plus the context switch plus extra(K), exactly.
     */
    @Test
    public void aRingOfKTasksPaysTheExtraAtKOnEverySwitchIn() throws Exception {
        ColdSwitch cold = new ColdSwitch(1_000, 4_000, 10);
        for (int k : new int[] {2, 3, 40}) {
            VirtualEngine e = VirtualEngine.create();
            try {
                Scheduling s = new Scheduling(
                        Scheduling.Scheduler.FAIR,
                        Scheduling.Preempt.NONE,
                        250,
                        0,
                        500,
                        Scheduling.TaskGroup.ROOT,
                        cold);
                FairCpus cpus = new FairCpus(e, 1, s);
                List<CpuTask> ring = new ArrayList<>();
                for (int i = 0; i < k; i++) {
                    ring.add(cpus.newTask("ring-" + i, CpuTask.Kind.OTHER, false));
                }
                long[] afterFirstLap = new long[k];
                int laps = 6;
                int[] hops = {0};
                Runnable[] pass = new Runnable[1];
                pass[0] = () -> {
                    int h = hops[0]++;
                    if (h == k) {
                        for (int i = 0; i < k; i++) {
                            afterFirstLap[i] = ring.get(i).kernelNanos();
                        }
                    }
                    if (h < laps * k) {
                        cpus.run(ring.get((h + 1) % k), Step.KERNEL, 10 * US, pass[0]);
                    }
                };
                cpus.run(ring.get(0), Step.KERNEL, 10 * US, pass[0]);
                FairSchedulerTest.runFor(e, 100 * MS);
                assertEquals("k=" + k, laps * k + 1, hops[0]);
                long perLap = 10 * US + 500 + cold.extraNanos(k);
                for (int i = 1; i < k; i++) { // task 0 ran the first step of lap 1 and the last hop's
                    assertEquals(
                            "k=" + k + " task " + i,
                            (laps - 1) * perLap,
                            ring.get(i).kernelNanos() - afterFirstLap[i]);
                }
            } finally {
                e.unregister();
            }
        }
    }
}
