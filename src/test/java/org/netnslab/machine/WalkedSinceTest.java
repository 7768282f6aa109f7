package org.netnslab.machine;

import static org.junit.Assert.assertEquals;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@link Machine#computeAfterWalks}: a step that waits behind its task's earlier step pays for the sockets the
 * broadcasts walked meanwhile, read when it starts; one that starts at once pays nothing more.
 */
public class WalkedSinceTest extends JUnitSuite {
    @Test
    public void aWaitingStepPaysForTheWalksWhileItWaited() throws Exception {
        ActorSystem<Object> sys = VirtualSystem.create(Behaviors.empty(), "walked", ConfigFactory.load());
        try {
            Machine m = Machine.get(sys);
            m.configure(
                    new MachineSettings(
                            1,
                            0,
                            1,
                            new Scheduling(
                                    Scheduling.Scheduler.FAIR,
                                    Scheduling.Preempt.NONE,
                                    250,
                                    0,
                                    0,
                                    Scheduling.TaskGroup.ROOT,
                                    ColdSwitch.NONE)),
                    0);
            CpuTask t = m.newTask("listener", CpuTask.Kind.LISTENER);
            long t0 = m.nanoTime();
            long[] ends = new long[3];
            m.computeAfterWalks(t, Step.KERNEL, 1_000, w -> 2 * w, () -> ends[0] = m.nanoTime()); // at once: 0 more
            m.compute(t, Step.KERNEL, 10_000, () -> {});
            m.computeAfterWalks(t, Step.KERNEL, 1_000, w -> 2 * w, () -> ends[1] = m.nanoTime());
            m.walked(300); // while the second waits behind the 10 us step: 600 ns more
            m.engine().runUntil(() -> ends[1] != 0, x -> {}, 5_000_000_000L);
            assertEquals(1_000, ends[0] - t0);
            assertEquals(1_000 + 10_000 + 1_000 + 600, ends[1] - t0);
            assertEquals(300, m.socketsWalked());
        } finally {
            sys.terminate();
        }
    }
}
