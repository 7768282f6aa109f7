package org.netnslab.workload.injection;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.machine.Clock;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Mutex;
import org.netnslab.machine.Step;
import org.netnslab.machine.VirtualEngine;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netlink.NlTable;
import org.netnslab.rcu.ExitFrees;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.UeventCosts;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.uevent.UeventSocket;
import org.netnslab.userns.Credentials;

/**
 * A closed-loop uevent injector: a task looping on sendmsg into one or more netns, each injection
 * waiting for its acknowledgement before the next (the seed's injector processes). It times each
 * counted transaction, send to acknowledgement, in ns, into the run's striped recorder, and keeps its
 * own counts, handed over when its phase is done.
 *
 * <p>Virtual execution: the injector is the injecting task on the simulated machine and runs the send itself, as
 * the kernel runs uevent_net_rcv_skb in the sender's context ({@link UeventRoute.VirtualPath}). Each send runs
 * send-outside on a CPU, takes the route's lock (uevent_sock_mutex, the netns's own, or none), bumps the SEQNUM,
 * runs the inside part on a CPU and broadcasts at its end, still holding the lock; the ack unlocks (hand-off to the
 * next waiter), then {@code return} runs on a CPU and the transaction ends. Between the bump and the broadcast
 * another task may bump the same counter unless it waits for the same lock, so two senders into one netns under two
 * locks (the posted 2018 patch) or none (v6.9) can deliver out of order. Live execution charges nothing and sends
 * through the route's actors.
 *
 * <p>Under the fair scheduler ({@code machine.scheduler = fair}) the injector is a task ({@link CpuTask},
 * kind injector): before each send it runs {@code costs.uevent.injector-user} in user space; the send's
 * steps are kernel steps of its system call (send-outside ends at mutex_lock()'s might_sleep() when the
 * route has a lock); and each receiving listener's recvmsg and handling run on that listener's own task.
 * A transaction is timed as a process times itself: from just before the sendmsg (after the user part)
 * to just after it returns to user space, so a preemption at the return is in it and the wait for a CPU
 * before the call is not (the boundary the calibrate probes use). After its counted sends the process exits
 * ({@code costs.uevent.injector-exit}, a kernel step on its task) while the other injectors still send; its socket's
 * release then waits in netlink_table_grab while a broadcast walks, and every broadcast counts itself in
 * nl_table_users for its inside part ({@link NlTable}, {@code costs.uevent.table-waiter}). The task is a process set
 * up before the run starts it: its first step is a wake-up with a whole slice, not a fork's half.
 *
 * <p>Longer than ~300 lines: the send's virtual steps (fifo and fair, locked and lockless, the wake-ups and the
 * exit) are one state machine over one send's fields, read best together; the listeners' receives are
 * {@link ListenerReceives}. In virtual execution a send's answer and its return are engine runs of their own, where a
 * tell to this actor's idle mailbox would run, without the mailbox.
 */
public final class Injector extends AbstractBehavior<Injector.Command> {

    /** The injector's protocol. */
    public sealed interface Command permits Start, Acked, Stop {}

    /** Starts a phase: the warm-up or the counted injections. */
    public record Start(Phase phase) implements Command {}

    /** Stops the injector. */
    public enum Stop implements Command {
        INSTANCE
    }

    private record Acked(InjectResult result) implements Command {}

    /** Phases of an injection run. */
    public enum Phase {
        WARMUP,
        COUNTED
    }

    /**
     * One netns this injector sends into.
     *
     * @param netnsIndex index of the netns in the run (for the per-netns sent counts)
     * @param route the netns's injection route
     * @param credentials the task's credentials towards that netns
     * @param permitted whether the kernel lets these credentials send there: CAP_SYS_ADMIN over the
     *     netns's owning user namespace (uevent_net_rcv_skb), decided by the run's plan, not by the
     *     route, so a route that checks wrongly is caught; true for kernel-generated events
     * @param warmup warm-up injections
     * @param counted counted injections
     */
    public record Target(
            int netnsIndex, UeventRoute route, Credentials credentials, boolean permitted, long warmup, long counted) {}

    /** What the injector reports when a phase is done; called on the injector's thread. */
    public interface PhaseListener {
        /** @param done the phase's totals */
        void phaseDone(PhaseTotals done);
    }

    private final Target[] targets;
    private final long[] remaining;
    private final byte[] payload;
    private final PhaseListener listener;
    private final LongAdder progress;
    private final int netnsCount;
    private final ActorRef<InjectResult> ackTo;
    private final VirtualEngine engine;
    private boolean stopped;
    private final Machine machine;
    /** Virtual execution under the fair scheduler: this injector's task; null otherwise. */
    private final CpuTask task;
    /** Virtual execution: the design run's netlink table lock (the injector lives within one design run); null live. */
    private final NlTable table;
    /** Virtual execution: the send in flight's path (null: live, or a route that costs nothing). */
    private UeventRoute.VirtualPath path;
    /** Virtual execution: the lock the send in flight holds, released at its ack. */
    private Mutex held;

    private Phase phase;
    private int cursor;
    private int current;
    private long sentNanos;
    /** ns of listener wake-ups the current lockless send still owes, charged with its return step. */
    private long wakeOwed;

    private final StripedRecorder transactions;
    private long[] sent;
    private long permissionViolations;
    private long failed;
    private long refused;
    /** The task's CPU (ns) and preemptions when the phase started (fair). */
    private long cpuAtStart, preemptionsAtStart;

    /**
     * @param targets the netns it sends into, round-robin
     * @param payload the message it sends, without SEQNUM
     * @param netnsCount netns in the run (size of the per-netns counts)
     * @param listener told when a phase is done
     * @param progress incremented once per transaction, in both phases
     * @param transactions records each counted transaction's latency, ns
     * @return the injector's behaviour
     */
    public static Behavior<Command> create(
            List<Target> targets,
            byte[] payload,
            int netnsCount,
            PhaseListener listener,
            LongAdder progress,
            StripedRecorder transactions) {
        return Behaviors.setup(
                ctx -> new Injector(ctx, targets, payload, netnsCount, listener, progress, transactions));
    }

    private Injector(
            ActorContext<Command> ctx,
            List<Target> targets,
            byte[] payload,
            int netnsCount,
            PhaseListener listener,
            LongAdder progress,
            StripedRecorder transactions) {
        super(ctx);
        this.transactions = transactions;
        this.targets = targets.toArray(new Target[0]);
        this.remaining = new long[this.targets.length];
        this.payload = payload;
        this.netnsCount = netnsCount;
        this.listener = listener;
        this.progress = progress;
        this.ackTo = ctx.messageAdapter(InjectResult.class, Acked::new);
        this.machine = Machine.get(ctx.getSystem());
        this.engine = machine.engine();
        // set up before the run starts it (the probes' injectors wait at a gate): its first step is a wake-up, not a
        // fork
        this.task = machine.fair() ? machine.newTask(ctx.getSelf().path().name(), CpuTask.Kind.INJECTOR, false) : null;
        this.table = machine.isVirtual() ? NlTable.of(machine) : null;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Start.class, this::onStart)
                .onMessage(Acked.class, m -> onReturned(m.result())) // a route's actors answered (no virtual path)
                .onMessageEquals(Stop.INSTANCE, () -> {
                    stopped = true;
                    return Behaviors.stopped();
                })
                .build();
    }

    private Behavior<Command> onStart(Start m) {
        phase = m.phase();
        for (int i = 0; i < targets.length; i++) {
            remaining[i] = phase == Phase.WARMUP ? targets[i].warmup() : targets[i].counted();
        }
        sent = new long[netnsCount];
        permissionViolations = 0;
        failed = 0;
        refused = 0;
        cpuAtStart = task == null ? 0 : task.cpuNanos();
        preemptionsAtStart = task == null ? 0 : task.preemptions();
        sendNext();
        return this;
    }

    private void sendNext() {
        for (int i = 0; i < targets.length; i++) {
            int t = (cursor + i) % targets.length;
            if (remaining[t] > 0) {
                cursor = (t + 1) % targets.length;
                current = t;
                Target target = targets[t];
                sentNanos = Clock.nanoTime();
                path = machine.isVirtual() ? target.route().virtualPath() : null;
                if (path == null) {
                    target.route().inject(target.credentials(), payload, sentNanos, ackTo);
                } else if (task != null) { // user space first; the system call starts at its end
                    UeventRoute.VirtualPath p = path;
                    machine.compute(task, Step.USER, p.costs().injectorUser(), () -> {
                        sentNanos = Clock.nanoTime();
                        sendVirtual(target, p);
                    });
                } else {
                    sendVirtual(target, path);
                }
                return;
            }
        }
        long cpu = task == null ? 0 : task.cpuNanos() - cpuAtStart;
        long preempted = task == null ? 0 : task.preemptions() - preemptionsAtStart;
        listener.phaseDone(new PhaseTotals(phase, sent, permissionViolations, failed, refused, cpu, preempted));
        long exit = path == null ? 0 : path.costs().injectorExit();
        // a device task (kernel uevents, no credentials) is a kernel thread: it does not exit
        if (phase == Phase.COUNTED
                && task != null
                && exit > 0
                && targets.length > 0
                && targets[0].credentials() != null) {
            // the process exits after its last send, on its CPU, while the others still send: CPU the machine spends,
            // not the injector's counted CPU (read above, as a probe's clock is before _exit)
            // do_exit: exit_mm, then exit_files drops the socket's file, whose __fput runs from exit_task_work:
            // netlink_release,
            // which waits in netlink_table_grab while a broadcast walks
            // the frees it defers through call_rcu then run on kernel threads (rcu.ExitFrees), queued where it exited
            UeventCosts c = path.costs();
            machine.compute(task, Step.KERNEL, exit, () -> {
                if (c.injectorExitCallbacks() > 0 || c.injectorExitVfree() > 0) {
                    ExitFrees.of(machine).exited(task.cpu(), c.injectorExitCallbacks(), c.injectorExitVfree());
                }
                table.grab(task, c.tableWaiter(), NOTHING);
            });
        }
    }

    /** The virtual send's steps up to the broadcast; the answer continues in {@link #acked}. */
    private void sendVirtual(Target target, UeventRoute.VirtualPath p) {
        UeventCosts c = p.costs();
        Mutex lock = p.lock().apply(machine);
        held = null; // set once the send takes the lock
        kernel(lock == null ? Step.KERNEL : Step.MIGHT_SLEEP, c.sendOutside(), () -> {
            // an injection: uevent_net_rcv_skb checks the sender before it takes the lock (no lock, no broadcast when
            // refused); a device task's kernel uevent (no credentials) is checked by nobody
            Errno refused = target.credentials() == null ? null : p.socket().refusal(target.credentials(), payload);
            if (refused != null) {
                answer(new InjectResult.Failed(refused, -1));
                return;
            }
            held = lock;
            if (lock == null) {
                seqnumWindow(target, p, false);
            } else {
                lock.lock(task, () -> seqnumWindow(target, p, true));
            }
        });
    }

    /**
     * From the SEQNUM bump to the broadcast, with the path's lock held (or none): the bump now, the inside part
     * on a CPU, the broadcast at its end. Another task may bump the same counter meanwhile unless it needs the same
     * lock; see {@link UeventRoute.VirtualPath}.
     */
    private void seqnumWindow(Target target, UeventRoute.VirtualPath p, boolean locked) {
        UeventCosts c = p.costs();
        UeventSocket socket = p.socket();
        UeventSocket.Step step = p.prepare().prepare(target.credentials(), payload, sentNanos);
        if (step instanceof UeventSocket.Refused r) { // a message too big burns its number: no copy, no broadcast
            answer(r.failed());
            return;
        }
        UeventSocket.Ready ready = (UeventSocket.Ready) step;
        table.lock(); // netlink_broadcast's walk of the mc_list counts in nl_table_users
        int bound = socket.mcList().bound();
        machine.walked(bound);
        kernel(Step.KERNEL, c.inside(bound, socket.listenerCount()), () -> {
            // the listeners' recvmsg and the wake-ups this send owes them; then netlink_unlock_table
            long wake = ListenerReceives.charge(machine, task, c, socket) * c.wakeListener()
                    + table.unlock(c.tableWaiter());
            Runnable broadcast = () -> answer(socket.send(ready));
            if (!locked) { // the skb is queued before sk_data_ready wakes the listener: the wake-up after the window
                wakeOwed = wake;
                broadcast.run();
            } else if (wake > 0) { // under the design's lock, as netlink_broadcast wakes them
                kernel(Step.KERNEL, wake, broadcast);
            } else {
                broadcast.run();
            }
        });
    }

    /** A kernel step of the send: on this injector's task (fair), or a one-off step (fifo). */
    private void kernel(Step kind, long nanos, Runnable then) {
        if (task != null) {
            machine.compute(task, kind, nanos, then);
        } else {
            machine.compute(nanos, then);
        }
    }

    private static final Runnable NOTHING = () -> {};

    /**
     * A virtual send's answer, handled as its own run on the engine at the current instant: where a tell to this
     * actor's idle mailbox would run it, without the mailbox (the injector has one send in flight, so its mailbox is
     * idle until the answer).
     */
    private void answer(InjectResult result) {
        onEngine(() -> acked(result));
    }

    private void acked(InjectResult result) {
        if (held != null) {
            held.unlock();
            held = null;
        }
        long wake = wakeOwed;
        wakeOwed = 0;
        kernel(Step.KERNEL, path.costs().sendReturn() + wake, () -> {
            if (task != null && !machine.cpus().continuesNow(task, Step.USER)) {
                // preempted at the return to user space: the call ends when the task runs again
                machine.compute(task, Step.USER, 0, () -> returned(result));
            } else {
                returned(result);
            }
        });
    }

    /** The system call's return to user space, as {@link #answer} an engine run of its own. */
    private void returned(InjectResult result) {
        onEngine(() -> onReturned(result));
    }

    /** Runs {@code step} as the engine's next run at this instant, unless the injector has stopped meanwhile. */
    private void onEngine(Runnable step) {
        engine.execute(() -> {
            if (!stopped) {
                step.run();
            }
        });
    }

    private Behavior<Command> onReturned(InjectResult result) {
        long now = Clock.nanoTime();
        remaining[current]--;
        boolean permitted = targets[current].permitted();
        if (result instanceof InjectResult.Sent) {
            sent[targets[current].netnsIndex()]++;
            if (!permitted) {
                permissionViolations++; // sent by a task the kernel refuses (EPERM, nothing delivered)
            }
            if (phase == Phase.COUNTED) {
                transactions.record(now - sentNanos);
            }
        } else if (((InjectResult.Failed) result).errno() == Errno.EPERM) {
            if (permitted) {
                permissionViolations++; // refused although the task holds CAP_SYS_ADMIN over the owner
            } else {
                refused++;
            }
        } else {
            failed++;
        }
        progress.increment();
        sendNext();
        return this;
    }
}
