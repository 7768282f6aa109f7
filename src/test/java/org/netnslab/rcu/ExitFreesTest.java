package org.netnslab.rcu;

import static org.junit.Assert.assertEquals;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.EngineFixture;
import org.netnslab.machine.Machine;
import org.netnslab.machine.MachineSettings;
import org.netnslab.machine.Scheduling;
import org.netnslab.machine.VirtualEngine;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@link ExitFrees} and the grace-period kthread of {@link RcuDomain}, on 2 simulated CPUs with no jitter and free
 * task switches, so that every figure is exact: exits' frees wait for a grace period, the grace-period kthread runs
 * at its start, at its force-quiescent-state scans (every second tick, 8 ms at HZ 250) and at its end, and each
 * CPU's ksoftirqd and kworker are woken once for all the exits of one grace period.
 */
public class ExitFreesTest extends JUnitSuite {
    private static final long GP = 10_000_000;
    private static final long EXPEDITED = 10_000_000;
    private static final long GP_KTHREAD = 3_000;
    private static final long CALLBACKS = 5_000;
    private static final long VFREE = 1_000;

    private ActorSystem<Runnable> system;
    /** Takes a synchronize_rcu's reply and notes when it came (engine time, ns; -1: not yet). */
    private ActorRef<akka.Done> doneTo;

    private long doneAt = -1;
    private EngineFixture fixture;
    private Machine machine;
    private VirtualEngine engine;

    @Before
    public void setUp() {
        // the guardian creates the design run's RCU domain as NamespaceSupervisor does (once the machine is configured:
        // its set-up runs when the engine first runs), then runs what it is sent, on the engine's thread as the model's
        // actors do
        fixture = new EngineFixture(
                "exit-frees",
                ctx -> {
                    ActorRef<RcuDomain.Command> rcu = ctx.spawn(
                            RcuDomain.create(
                                    Duration.ofNanos(GP), Duration.ofNanos(EXPEDITED), Duration.ofNanos(GP_KTHREAD)),
                            "rcu");
                    RcuDomain.register(Machine.get(ctx.getSystem()), rcu);
                    doneTo = ctx.spawn(
                            Behaviors.<akka.Done>receiveMessage(d -> {
                                doneAt = Machine.get(ctx.getSystem()).engine().now();
                                return Behaviors.same();
                            }),
                            "done");
                },
                new MachineSettings(
                        2, 0, 1, new Scheduling(Scheduling.Scheduler.FAIR, Scheduling.Preempt.NONE, 250, 0, 0)),
                0);
        system = fixture.system;
        machine = fixture.machine;
        engine = fixture.engine;
    }

    @After
    public void tearDown() throws Exception {
        fixture.terminate();
    }

    /** Runs the engine until simulated time {@code at} (ns from now). */
    private void runFor(long at) throws Exception {
        fixture.runFor(at);
    }

    /**
     * One exit starts a grace period; three more on CPU 0 and one on CPU 1 a millisecond later wait for the next (a
     * grace period in progress does not take callbacks queued after its start). Nothing of theirs runs before that
     * second grace period is over but the grace-period kthread (rcu_gp_init, rcu_gp_cleanup); then each CPU's ksoftirqd
     * runs its exits' callbacks and its kworker their stacks' vfree: one wake-up of each per CPU, whatever the exits.
     */
    @Test
    public void theExitsOfOneGracePeriodWakeEachCpusThreadsOnce() throws Exception {
        system.tell(() -> ExitFrees.of(machine).exited(0, CALLBACKS, VFREE));
        runFor(1_000_000);
        system.tell(() -> {
            for (int cpu : new int[] {0, 0, 0, 1}) {
                ExitFrees.of(machine).exited(cpu, CALLBACKS, VFREE);
            }
        });
        // the second grace period ends at 2 x (GP + the cleanup run): its callbacks have not run 1 ns before
        runFor(2 * (GP + GP_KTHREAD) - 1_000_000 - 1);
        assertEquals(
                "the first grace period's runs (rcu_gp_init, a force-quiescent-state scan at the second tick, 8 ms,"
                        + " rcu_gp_cleanup) and exit; the second's rcu_gp_init and its scan at 16 ms",
                5 * GP_KTHREAD + CALLBACKS,
                machine.cpuNanos(CpuTask.Kind.RCU));
        assertEquals(VFREE, machine.cpuNanos(CpuTask.Kind.KWORKER));
        assertEquals(
                "ksoftirqd/0 and kworker/0 for the first exit",
                2,
                ExitFrees.of(machine).wakeUps());
        runFor(1_000_000);
        assertEquals(6 * GP_KTHREAD + 5 * CALLBACKS, machine.cpuNanos(CpuTask.Kind.RCU));
        assertEquals(5 * VFREE, machine.cpuNanos(CpuTask.Kind.KWORKER));
        assertEquals(
                "then ksoftirqd/0, ksoftirqd/1, kworker/0 and kworker/1 once each",
                6,
                ExitFrees.of(machine).wakeUps());
    }

    /** An exit after the first grace period ended waits for a second: its threads are woken again, after it. */
    @Test
    public void anExitAfterAGracePeriodWaitsForTheNext() throws Exception {
        system.tell(() -> ExitFrees.of(machine).exited(1, CALLBACKS, VFREE));
        runFor(GP + 1_000_000);
        assertEquals(2, ExitFrees.of(machine).wakeUps());
        system.tell(() -> ExitFrees.of(machine).exited(1, CALLBACKS, VFREE));
        runFor(GP - 1);
        assertEquals(
                "the first grace period's three runs, the second's rcu_gp_init at 11 ms and its scan at 16 ms",
                5 * GP_KTHREAD + CALLBACKS,
                machine.cpuNanos(CpuTask.Kind.RCU));
        runFor(1_000_000);
        assertEquals(6 * GP_KTHREAD + 2 * CALLBACKS, machine.cpuNanos(CpuTask.Kind.RCU));
        assertEquals(2 * VFREE, machine.cpuNanos(CpuTask.Kind.KWORKER));
        assertEquals(4, ExitFrees.of(machine).wakeUps());
    }

    /**
     * A synchronize_rcu at 1 ms: the grace period lasts until 11 ms, and the grace-period kthread, beside its runs at
     * the start and end, wakes for a force-quiescent-state scan as its one-jiffy swait timeout in rcu_gp_fqs_loop
     * expires: not at the next tick (4 ms) but at the one after (8 ms), as the timer wheel rounds up; the next would be
     * at 16 ms, after the end. The waiter is woken after rcu_gp_cleanup's run.
     */
    @Test
    public void theGracePeriodKthreadScansAtTheSecondTickOfItsTimeout() throws Exception {
        runFor(1_000_000);
        long t0 = engine.now();
        system.tell(() -> RcuDomain.of(machine).tell(new RcuDomain.Synchronize(false, doneTo)));
        runFor(7_000_000 - 1); // just before the tick of 8 ms
        assertEquals("rcu_gp_init at 1 ms, no scan at 4 ms", GP_KTHREAD, machine.cpuNanos(CpuTask.Kind.RCU));
        runFor(3_000_000);
        assertEquals("not before the grace period's 10 ms", -1, doneAt);
        runFor(1_000_000);
        assertEquals("the length and rcu_gp_cleanup's run", GP + GP_KTHREAD, doneAt - t0);
        assertEquals("init, a scan at 8 ms, cleanup", 3 * GP_KTHREAD, machine.cpuNanos(CpuTask.Kind.RCU));
    }

    /**
     * A reader holds the grace period of a synchronize_rcu at 1 ms to 32 ms less 1 us, past its 10 ms: the kthread
     * scans at 8, 16 and 24 ms (rcu_gp_fqs_loop runs until the grace period is over, readers included), runs
     * rcu_gp_cleanup after the unlock, and then nothing more: not the scan due at 32 ms, during that run, nor any in the
     * 100 ms after.
     */
    @Test
    public void scansGoOnWhileAReaderHoldsTheGracePeriodAndStopWithIt() throws Exception {
        runFor(1_000_000);
        long t0 = engine.now();
        system.tell(() -> {
            RcuDomain.of(machine).tell(new RcuDomain.ReadLock(7));
            RcuDomain.of(machine).tell(new RcuDomain.Synchronize(false, doneTo));
        });
        runFor(23_000_000 - 1); // t = 24 ms - 1 ns
        assertEquals("init, scans at 8 and 16 ms", 3 * GP_KTHREAD, machine.cpuNanos(CpuTask.Kind.RCU));
        runFor(8_000_000 - 1_000 + 1); // t = 32 ms - 1 us, the next scan due at the tick of 32 ms
        assertEquals("and at 24 ms", 4 * GP_KTHREAD, machine.cpuNanos(CpuTask.Kind.RCU));
        assertEquals(-1, doneAt);
        system.tell(() -> RcuDomain.of(machine).tell(new RcuDomain.ReadUnlock(7)));
        runFor(100_000_000);
        assertEquals("the unlock, then rcu_gp_cleanup's run", 31_000_000 - 1_000 + GP_KTHREAD, doneAt - t0);
        assertEquals(
                "init, three scans, cleanup (the one due at 32 ms, inside it, is not run); nothing after",
                5 * GP_KTHREAD,
                machine.cpuNanos(CpuTask.Kind.RCU));
    }

    /**
     * A grace period from 2 to 12 ms: its second scan would be due at the tick of 12 ms, the instant its length runs
     * out; the kernel's loop finds the grace period over first and breaks to rcu_gp_cleanup without scanning, so the
     * waiter is woken after the length and one run, not two.
     */
    @Test
    public void noScanWhereTheGracePeriodEndsAtItsTimeout() throws Exception {
        runFor(2_000_000);
        long t0 = engine.now();
        system.tell(() -> RcuDomain.of(machine).tell(new RcuDomain.Synchronize(false, doneTo)));
        runFor(20_000_000);
        assertEquals(GP + GP_KTHREAD, doneAt - t0);
        assertEquals("init, a scan at 8 ms, cleanup", 3 * GP_KTHREAD, machine.cpuNanos(CpuTask.Kind.RCU));
    }

    /** The kernel's default one jiffy between scans up to HZ 250 and 255 CPUs, more above (rcu_init_geometry). */
    @Test
    public void theScansAreAJiffyApartAsTheKernelsDefault() {
        assertEquals(1, GpKthread.fqsJiffies(250, 2));
        assertEquals(1, GpKthread.fqsJiffies(100, 255));
        assertEquals(2, GpKthread.fqsJiffies(251, 2));
        assertEquals(2, GpKthread.fqsJiffies(500, 2));
        assertEquals(3, GpKthread.fqsJiffies(501, 2));
        assertEquals(3, GpKthread.fqsJiffies(1000, 2));
        assertEquals(2, GpKthread.fqsJiffies(250, 256));
    }

    /**
     * An expedited grace period does not go through the grace-period kthread (synchronize_rcu_expedited has its own
     * sequence and workers): it ends after the expedited length, 10 ms, over two ticks, and the kthread has not run,
     * neither its init and cleanup nor a scan.
     */
    @Test
    public void anExpeditedGracePeriodRunsNoGracePeriodKthread() throws Exception {
        runFor(1); // the guardian's set-up has run: the domain and the reply's taker exist
        long t0 = engine.now();
        system.tell(() -> RcuDomain.of(machine).tell(new RcuDomain.Synchronize(true, doneTo)));
        runFor(EXPEDITED + 10_000_000);
        assertEquals("the expedited length", EXPEDITED, doneAt - t0);
        assertEquals(0, machine.cpuNanos(CpuTask.Kind.RCU));
    }

    /**
     * Both CPUs busy with a process each: an exit on CPU 1 has its callbacks run by ksoftirqd/1, on CPU 1, once the
     * grace period is over, not by whichever CPU yields first.
     */
    @Test
    public void eachCpusThreadRunsOnItsCpu() throws Exception {
        system.tell(() -> {
            for (int i = 0; i < 2; i++) {
                hog(machine.newTask("busy-" + i, CpuTask.Kind.OTHER));
            }
            ExitFrees.of(machine).exited(1, CALLBACKS, VFREE);
        });
        runFor(GP + 10_000_000);
        CpuTask k = ExitFrees.of(machine).softirqd(1);
        assertEquals(1, k.bound());
        assertEquals(CALLBACKS, k.kernelNanos());
        assertEquals(0, ExitFrees.of(machine).softirqd(0).kernelNanos());
    }

    private void hog(CpuTask t) {
        machine.compute(t, org.netnslab.machine.Step.USER, 50_000, () -> hog(t));
    }

    /** A CPU the machine does not have is refused, naming it. */
    @Test
    public void anExitOnACpuTheMachineLacksIsRefused() throws Exception {
        String[] refused = {null};
        system.tell(() -> {
            try {
                ExitFrees.of(machine).exited(2, CALLBACKS, VFREE);
            } catch (IllegalArgumentException e) {
                refused[0] = e.getMessage();
            }
        });
        runFor(1);
        assertEquals("exit on CPU 2 of 2, callbacks 5000 ns, vfree 1000 ns", refused[0]);
    }
}
