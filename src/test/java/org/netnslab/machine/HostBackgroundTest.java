package org.netnslab.machine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code machine.host-background}: its form, its ranges, and the task that runs it on the fair machine: every period
 * it runs what the netns alive at that instant call for, apart from the model's own steps.
 */
public class HostBackgroundTest extends JUnitSuite {
    private static final long MS = 1_000_000;
    private static final long S = 1_000_000_000L;

    private static Scheduling fair() {
        return new Scheduling(
                Scheduling.Scheduler.FAIR,
                Scheduling.Preempt.NONE,
                250,
                0,
                0,
                Scheduling.TaskGroup.SESSION,
                ColdSwitch.NONE);
    }

    /** Linear up to the doubling count's effect: per-netns x K x (1 + K / doubling), a second's worth per period. */
    @Test
    public void theCpuAPeriodFollowsItsForm() {
        HostBackground hb = new HostBackground(S, 40_000, 1_000);
        assertEquals(0, hb.nanosPerPeriod(0));
        assertEquals(40_000 * 10 * 101 / 100, hb.nanosPerPeriod(10)); // 404 us
        assertEquals(80 * MS, hb.nanosPerPeriod(1_000)); // doubled at 1000
        assertEquals(480 * MS, hb.nanosPerPeriod(3_000)); // 120 ms x 4
        assertEquals(120 * MS, new HostBackground(S, 40_000, 0).nanosPerPeriod(3_000)); // linear
        assertEquals(24 * MS, new HostBackground(S / 5, 40_000, 0).nanosPerPeriod(3_000)); // a fifth each 200 ms
        assertEquals(0, HostBackground.NONE.nanosPerPeriod(1_000_000));
        assertTrue(HostBackground.NONE.none());
    }

    /** Each part out of range is refused with the key's name. */
    @Test
    public void outOfRangePartsAreRefusedByName() {
        assertEquals(
                "machine.host-background.period must be in 1ms..60s, got 999999 ns",
                org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> new HostBackground(999_999, 0, 0))
                        .getMessage());
        assertEquals(
                "machine.host-background.per-netns must be in 0..1ms, got -1 ns",
                org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> new HostBackground(S, -1, 0))
                        .getMessage());
        assertEquals(
                "machine.host-background.doubling-netns must be in 0..1000000000, got -3",
                org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> new HostBackground(S, 0, -3))
                        .getMessage());
    }

    /**
     * 1000 netns alive, 40 us a netns doubling at 1000: 80 ms at each wake-up (every second), 3000 from 3.5 s on: 480
     * ms. The run stops at the first event past 5.6 s, the 6 s wake-up, whose step has not run yet: 3 x 80 + 2 x 480
     * ms of the host's CPU and none of the model's steps. Stopped there, the 6 s step runs out and no other starts.
     */
    @Test
    public void theTaskRunsItsCpuEveryPeriodApartFromTheModel() throws Exception {
        ActorSystem<Object> sys = VirtualSystem.create(Behaviors.empty(), "hb", ConfigFactory.load());
        try {
            Machine m = Machine.get(sys);
            m.configure(new MachineSettings(2, 0, 1, fair(), new HostBackground(S, 40_000, 1_000)), 0);
            int[] netns = {1_000};
            long t0 = m.nanoTime();
            HostBackgroundTask task = HostBackgroundTask.start(m, () -> netns[0]);
            m.engine().schedule(3_500 * MS, () -> netns[0] = 3_000);
            m.engine().runUntil(() -> m.nanoTime() - t0 >= 5_600 * MS, t -> {}, 5 * S);
            assertEquals(6 * S, m.nanoTime() - t0);
            assertEquals(3 * 80 * MS + 2 * 480 * MS, m.cpuNanos(CpuTask.Kind.HOST));
            assertEquals(0, m.modelSteps());
            task.stop();
            m.engine().schedule(3 * S, () -> {});
            m.engine().runUntil(() -> m.nanoTime() - t0 >= 9 * S, t -> {}, 5 * S);
            assertEquals(3 * 80 * MS + 3 * 480 * MS, m.cpuNanos(CpuTask.Kind.HOST));
        } finally {
            sys.terminate();
        }
    }

    /**
     * A background calling for more than its CPU gives (2 ms of CPU every 1 ms on one CPU) owes more at every step's
     * end: steps of 2, 2, 4 and 8 ms from 1 ms on (a step's end comes before the wake-up of its instant; the fourth
     * runs from 9 to 17 ms). Stopped at 10 ms, the fourth runs out and the 2 ms owed since 9 ms is never run: past its
     * design run, the next run's machine would be handed its task.
     */
    @Test
    public void aStoppedTaskStartsNoStepForWhatItStillOwes() throws Exception {
        ActorSystem<Object> sys = VirtualSystem.create(Behaviors.empty(), "hb-owed", ConfigFactory.load());
        try {
            Machine m = Machine.get(sys);
            m.configure(new MachineSettings(1, 0, 1, fair(), new HostBackground(MS, MS, 0)), 0);
            long t0 = m.nanoTime();
            HostBackgroundTask task = HostBackgroundTask.start(m, () -> 2_000);
            m.engine().schedule(10 * MS, task::stop);
            m.engine().schedule(S, () -> {});
            m.engine().runUntil(() -> m.nanoTime() - t0 >= S, t -> {}, 5 * S);
            assertEquals((2 + 2 + 4 + 8) * MS, m.cpuNanos(CpuTask.Kind.HOST));
        } finally {
            sys.terminate();
        }
    }

    /** A fifo machine, or a fair one with no host background, runs no host task: 3 s pass with no host CPU. */
    @Test
    public void noTaskWithoutTheFairMachineOrAnyCost() throws Exception {
        ActorSystem<Object> sys = VirtualSystem.create(Behaviors.empty(), "hb0", ConfigFactory.load());
        try {
            Machine m = Machine.get(sys);
            for (MachineSettings ms : new MachineSettings[] {
                new MachineSettings(2, 0, 1, fair()),
                new MachineSettings(2, 0, 1, Scheduling.FIFO, new HostBackground(S, 40_000, 0))
            }) {
                m.configure(ms, 0);
                HostBackgroundTask.start(m, () -> 1_000);
                long t0 = m.nanoTime();
                m.engine().schedule(3 * S, () -> {});
                m.engine().runUntil(() -> m.nanoTime() - t0 >= 3 * S, t -> {}, 5 * S);
                assertEquals(3 * S, m.nanoTime() - t0);
                assertEquals(0, m.cpus().counters().busyNanos());
            }
        } finally {
            sys.terminate();
        }
    }
}
