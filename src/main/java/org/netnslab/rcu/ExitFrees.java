package org.netnslab.rcu;

import akka.actor.typed.ActorRef;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Step;

/**
 * What a process exit leaves to kernel threads: the frees it defers through RCU and the stack free those defer
 * again. One per design run and machine (virtual execution, fair scheduler).
 *
 * <p>The kernel (v6.18): an exiting task's frees go through call_rcu (kernel/exit.c release_task ->
 * put_task_struct_rcu_user, whose delayed_put_task_struct frees the task_struct; kernel/fork.c
 * thread_stack_delayed_free, whose thread_stack_free_rcu frees its stack; net/netlink/af_netlink.c
 * netlink_release, whose deferred_put_nlk_sk frees the socket; ...). A grace period later (the design run's
 * {@link RcuDomain}, shared with the netns lifecycle) the callbacks run in RCU_SOFTIRQ on the CPU that queued them
 * (kernel/rcu/tree.c rcu_core -> rcu_do_batch); with thousands of callbacks per grace period that work is deferred
 * to the CPU's ksoftirqd, a kernel thread. A stack the per-CPU cache of two (try_release_thread_stack_to_cache) does
 * not take is vfree()d from that softirq, which cannot sleep, so vfree defers it (mm/vmalloc.c vfree ->
 * vfree_atomic -> schedule_work) to delayed_vfree_work on the CPU's kworker, another kernel thread.
 *
 * <p>The model: each CPU has a ksoftirqd task ({@link CpuTask.Kind#RCU}) and a kworker task ({@link
 * CpuTask.Kind#KWORKER}); an exit on CPU c adds, once its callback's grace period is over, its callbacks' CPU to c's
 * ksoftirqd and then its stack's vfree to c's kworker. Two simplifications, both inside the per-exit averages the
 * costs are fitted as: the stack's callback is queued on the CPU the task last ran on (finish_task_switch ->
 * put_task_stack), but the task_struct's by whoever drops its last rcu_users reference (that final switch, or
 * the parent's wait4 -> release_task, on the parent's CPU; kernel/fork.c sets rcu_users to 2); and a stack the
 * per-CPU cache takes (free_thread_stack tries it first) needs neither a callback nor a vfree. A kernel thread that
 * is woken runs what is queued then, and takes what was queued meanwhile in further steps without sleeping, so the
 * exits of one grace period cost each thread one wake-up per CPU. Kernel threads are in the root task group: under {@code machine.task-group = session}
 * their wake-ups preempt the load's tasks, which is how the host's injectors in TC1 N=1000 come to wait behind
 * hundreds of others in the middle of their sends (docs/calibrate.md). Both threads are bound to CPU c ({@link
 * org.netnslab.machine.Cpus#newTask(String, CpuTask.Kind, boolean, int)}), as the kernel's are: each CPU's threads
 * preempt that CPU's task, where threads free to run anywhere would all run on the first CPU to yield.
 *
 * <p>Threading: the engine's driver thread only; the callbacks run inside the {@link RcuDomain} actor, on it too.
 */
public final class ExitFrees {
    private static final String NAME = "exit-frees";

    private final Machine machine;
    private final ActorRef<RcuDomain.Command> rcu;
    private final Worker[] softirqd;
    private final Worker[] kworker;
    /** Times one of its kernel threads was woken (began running work after none). */
    private long wakeUps;

    /**
     * One kernel thread's queue of work: ns waiting, with the ns it hands on to {@code next} once that has run (the
     * callbacks' stack vfree), and whether it is awake.
     */
    private final class Worker {
        private final CpuTask task;
        private final Worker next;
        private long queued;
        private long handOn;
        private boolean busy;

        Worker(CpuTask task, Worker next) {
            this.task = task;
            this.next = next;
        }

        /** Queues work (nanos &gt; 0); an idle thread is woken, and runs it once the instant's other work is queued. */
        void add(long nanos, long thenNanos) {
            if (nanos <= 0) {
                throw new IllegalArgumentException(task + ": work of " + nanos + " ns queued");
            }
            queued += nanos;
            handOn += thenNanos;
            if (!busy) { // one grace period's callbacks are invoked together: one wake-up takes them all
                busy = true;
                wakeUps++;
                machine.engine().execute(this::run);
            }
        }

        private void run() {
            long n = queued;
            long on = handOn;
            queued = 0;
            handOn = 0;
            if (n == 0) {
                busy = false; // nothing came meanwhile: it sleeps
                return;
            }
            machine.compute(task, Step.KERNEL, n, () -> {
                if (on > 0) {
                    next.add(on, 0);
                }
                run();
            });
        }
    }

    private ExitFrees(Machine machine) {
        this.machine = machine;
        this.rcu = RcuDomain.of(machine);
        int cpus = machine.cpus().count();
        this.softirqd = new Worker[cpus];
        this.kworker = new Worker[cpus];
        for (int c = 0; c < cpus; c++) {
            kworker[c] = new Worker(machine.newTask("kworker/" + c + ":events", CpuTask.Kind.KWORKER, false, c), null);
            softirqd[c] = new Worker(machine.newTask("ksoftirqd/" + c, CpuTask.Kind.RCU, false, c), kworker[c]);
        }
    }

    /**
     * @param machine a machine in virtual execution, under the fair scheduler
     * @return its current design run's exit frees
     * @throws IllegalStateException in live execution, under fifo (no tasks), or when the design run has no {@link
     *     RcuDomain}
     */
    public static ExitFrees of(Machine machine) {
        if (!machine.fair()) {
            throw new IllegalStateException(
                    "an exit's frees run on kernel threads: virtual execution under the fair" + " scheduler only");
        }
        return machine.kernelObject(NAME, ExitFrees.class, () -> new ExitFrees(machine));
    }

    /** @return CPU {@code c}'s ksoftirqd task (tests) */
    CpuTask softirqd(int c) {
        return softirqd[c].task;
    }

    /** @return times work was queued to one of its kernel threads (ksoftirqd/N, kworker/N) while it had none */
    public long wakeUps() {
        return wakeUps;
    }

    /**
     * A process exited on CPU {@code cpu}: its frees' callbacks wait for a grace period, then cost {@code callbacks}
     * ns on that CPU's ksoftirqd, and its stack's vfree then {@code vfree} ns on that CPU's kworker.
     *
     * @param cpu the CPU it exited on, 0..cpus-1
     * @param callbacks ns ({@code costs.uevent.injector-exit-callbacks})
     * @param vfree ns ({@code costs.uevent.injector-exit-vfree})
     * @throws IllegalArgumentException for a CPU out of range or a negative cost
     */
    public void exited(int cpu, long callbacks, long vfree) {
        if (cpu < 0 || cpu >= softirqd.length || callbacks < 0 || vfree < 0) {
            throw new IllegalArgumentException("exit on CPU " + cpu + " of " + softirqd.length + ", callbacks "
                    + callbacks + " ns, vfree " + vfree + " ns");
        }
        if (callbacks == 0 && vfree == 0) {
            return;
        }
        rcu.tell(new RcuDomain.CallRcu(() -> {
            if (callbacks > 0) {
                softirqd[cpu].add(callbacks, vfree);
            } else {
                kworker[cpu].add(vfree, 0);
            }
        }));
    }
}
