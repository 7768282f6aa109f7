package org.netnslab.workload.churn;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.pattern.StatusReply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.machine.Clock;
import org.netnslab.machine.Machine;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netns.CreateResult;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetNamespace;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.userns.UserNamespace;

/**
 * One loop of the seed's {@code unshare -n /bin/true} script: each iteration creates a netns
 * (copy_net_ns, optionally in a new user namespace), the process holds it, opens and closes its
 * sockets, and exits, dropping its reference; the next iteration starts at once, without waiting for
 * the cleanup. The whole loop's wall time is recorded (ns) when it ends.
 *
 * <p>In virtual execution each iteration's process first spends {@code costs.netns.unshare-process}
 * on a simulated CPU, outside any lock (fork, execve of unshare and of /bin/true, exit: kernel/fork.c,
 * fs/exec.c, kernel/exit.c), before it asks for the netns.
 */
public final class ChurnWorker extends AbstractBehavior<ChurnWorker.Command> {

    /** The worker's protocol. */
    public sealed interface Command permits Start, Stop, Forked, Created, Opened, Closed {}

    /** Starts the loop. */
    public enum Start implements Command {
        INSTANCE
    }

    /** Stops the worker. */
    public enum Stop implements Command {
        INSTANCE
    }

    /** The iteration's process has spent its CPU outside the lock (virtual execution). */
    private enum Forked implements Command {
        INSTANCE
    }

    private record Created(CreateResult result) implements Command {}

    private record Opened(Long socketId) implements Command {}

    private record Closed(Done done) implements Command {}

    private final ActorRef<NamespaceSupervisor.Command> supervisor;
    private final NetnsChurnWorkload workload;
    private final long iterations;
    private final long usernsBase;
    private final StripedRecorder loopWall;
    private final LongAdder progress;
    private final LongAdder failures;
    private final Runnable done;
    private final long processCpuNanos;
    private final long processUserNanos;
    /** Fair scheduler: this loop's process as a task (unshare, then /bin/true, then the next); else null. */
    private final org.netnslab.machine.CpuTask task;

    private final ActorRef<CreateResult> created;
    private final ActorRef<Long> opened;
    private final ActorRef<StatusReply<Done>> closed;
    private final List<Long> sockets = new ArrayList<>();
    private long iteration;
    private long loopStart;
    private NetnsHandle netns;
    private int pending;

    /**
     * @param supervisor creates the netns
     * @param workload what each iteration does
     * @param iterations iterations of this loop (already scaled)
     * @param usernsBase first id for the user namespaces it creates (unique per worker)
     * @param loopWall records the loop's wall time, ns
     * @param progress incremented once per iteration
     * @param failures incremented per failed creation
     * @param processCpu {@code costs.netns.unshare-process}: CPU of each iteration's process outside the
     *     lock, charged in virtual execution only
     * @param processUser its user-space part ({@code costs.netns.unshare-process-user}): the fair scheduler
     *     runs it as a user step and the rest as kernel; the fifo machine charges {@code processCpu} as one step
     * @param done called once when the loop has ended
     * @return the worker's behaviour
     */
    public static Behavior<Command> create(
            ActorRef<NamespaceSupervisor.Command> supervisor,
            NetnsChurnWorkload workload,
            long iterations,
            long usernsBase,
            StripedRecorder loopWall,
            LongAdder progress,
            LongAdder failures,
            Duration processCpu,
            Duration processUser,
            Runnable done) {
        return Behaviors.setup(ctx -> {
            long cpu = Machine.get(ctx.getSystem()).isVirtual() ? processCpu.toNanos() : 0;
            long user = Math.min(cpu, processUser.toNanos());
            return new ChurnWorker(
                    ctx, supervisor, workload, iterations, usernsBase, loopWall, progress, failures, cpu, user, done);
        });
    }

    private ChurnWorker(
            ActorContext<Command> ctx,
            ActorRef<NamespaceSupervisor.Command> supervisor,
            NetnsChurnWorkload workload,
            long iterations,
            long usernsBase,
            StripedRecorder loopWall,
            LongAdder progress,
            LongAdder failures,
            long processCpuNanos,
            long processUserNanos,
            Runnable done) {
        super(ctx);
        this.processCpuNanos = processCpuNanos;
        this.processUserNanos = processUserNanos;
        Machine m = Machine.get(ctx.getSystem());
        this.task = m.fair() ? m.newTask(ctx.getSelf().path().name(), org.netnslab.machine.CpuTask.Kind.UNSHARE) : null;
        this.supervisor = supervisor;
        this.workload = workload;
        this.iterations = iterations;
        this.usernsBase = usernsBase;
        this.loopWall = loopWall;
        this.progress = progress;
        this.failures = failures;
        this.done = done;
        this.created = ctx.messageAdapter(CreateResult.class, Created::new);
        this.opened = ctx.messageAdapter(Long.class, Opened::new);
        this.closed = ctx.messageAdapter(NetNamespace.CLOSE_REPLY, r -> new Closed(r.getValue()));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessageEquals(Start.INSTANCE, () -> {
                    loopStart = Clock.nanoTime();
                    return nextIteration();
                })
                .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
                .onMessageEquals(Forked.INSTANCE, this::unshare)
                .onMessage(Created.class, this::onCreated)
                .onMessage(Opened.class, this::onOpened)
                .onMessage(Closed.class, m -> --pending == 0 ? exitProcess() : this)
                .build();
    }

    private Behavior<Command> nextIteration() {
        if (iteration == iterations) {
            loopWall.record(Clock.nanoTime() - loopStart);
            done.run();
            return this;
        }
        if (processCpuNanos > 0) {
            ActorRef<Command> self = getContext().getSelf();
            Machine m = Machine.get(getContext().getSystem());
            if (task == null) {
                m.compute(processCpuNanos, () -> self.tell(Forked.INSTANCE));
            } else { // fork + execve (kernel), ld.so and unshare's own code (user), then the unshare() call
                m.compute(
                        task,
                        org.netnslab.machine.Step.KERNEL,
                        processCpuNanos - processUserNanos,
                        () -> m.compute(
                                task,
                                org.netnslab.machine.Step.USER,
                                processUserNanos,
                                () -> self.tell(Forked.INSTANCE)));
            }
            return this;
        }
        return unshare();
    }

    /** unshare(CLONE_NEWNET [| CLONE_NEWUSER]): copy_net_ns through the supervisor. */
    private Behavior<Command> unshare() {
        UserNamespace owner = workload.newUserns()
                ? UserNamespace.INIT.createChild(usernsBase + iteration, 100_000 + usernsBase + iteration)
                : UserNamespace.INIT;
        supervisor.tell(new NamespaceSupervisor.CreateNetns(owner, created, task));
        return this;
    }

    private Behavior<Command> onCreated(Created m) {
        if (m.result() instanceof CreateResult.Failed) {
            failures.increment();
            iteration++;
            progress.increment();
            return nextIteration();
        }
        netns = (NetnsHandle) m.result();
        if (workload.sockets() == 0) {
            return exitProcess();
        }
        sockets.clear();
        pending = workload.sockets();
        for (int i = 0; i < workload.sockets(); i++) {
            netns.actor().tell(new NetNamespace.OpenSocket(opened));
        }
        return this;
    }

    private Behavior<Command> onOpened(Opened m) {
        sockets.add(m.socketId());
        if (--pending == 0) {
            pending = sockets.size();
            sockets.forEach(id -> netns.actor().tell(new NetNamespace.CloseSocket(id, closed)));
        }
        return this;
    }

    /** The process exits: its reference to the netns is dropped (put_net from exit_task_namespaces). */
    private Behavior<Command> exitProcess() {
        netns.actor().tell(NetNamespace.Put.CREATOR);
        netns = null;
        iteration++;
        progress.increment();
        return nextIteration();
    }
}
