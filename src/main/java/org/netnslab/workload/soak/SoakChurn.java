package org.netnslab.workload.soak;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.pattern.StatusReply;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.netnslab.machine.Clock;
import org.netnslab.netns.CreateResult;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetNamespace;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcEvents;
import org.netnslab.userns.UserNamespace;

/**
 * A churn task of the soak: in a loop until told to stop, an {@code unshare -n} process (a proc FORK
 * event) creates a netns owned at the next level of the user namespace chain, opens a socket there
 * and closes it, drops its reference (the netns goes through cleanup_net to net_free, awaited) and
 * exits (a proc EXIT event). When stopped, {@code done} completes with the netns it created and saw
 * freed, and the events it published.
 */
final class SoakChurn extends AbstractBehavior<SoakChurn.Command> {

    /** The task's protocol. */
    sealed interface Command permits Stop, Created, Opened, Answered {}

    /** Finish the current netns's cycle, then stop. */
    enum Stop implements Command {
        INSTANCE
    }

    private record Created(CreateResult result) implements Command {}

    private record Opened(long socket) implements Command {}

    /** The socket's close was issued, or (once released) the netns reached net_free: one Done adapter serves both. */
    private record Answered(Done done) implements Command {}

    /**
     * @param created netns created
     * @param freed netns released and seen at net_free
     * @param failed creations that failed
     * @param procEvents proc events published
     */
    record Tally(long created, long freed, long failed, long procEvents) {}

    private final ActorRef<NamespaceSupervisor.Command> supervisor;
    private final ActorRef<ProcConnector.Command> proc;
    private final List<UserNamespace> levels;
    private final CompletableFuture<Tally> done;
    private final long pidBase;
    private boolean stopping;
    private NetnsHandle current;
    private long cycle;
    private long created;
    private long freed;
    private long failed;
    private long procEvents;
    private final ActorRef<CreateResult> createdTo;
    private final ActorRef<Long> openedTo;
    private final ActorRef<Done> answeredTo;
    private final ActorRef<StatusReply<Done>> closedTo;
    private boolean released;

    static Behavior<Command> create(
            ActorRef<NamespaceSupervisor.Command> supervisor,
            ActorRef<ProcConnector.Command> proc,
            List<UserNamespace> levels,
            int index,
            CompletableFuture<Tally> done) {
        return Behaviors.setup(ctx -> new SoakChurn(ctx, supervisor, proc, levels, index, done).next());
    }

    private SoakChurn(
            ActorContext<Command> ctx,
            ActorRef<NamespaceSupervisor.Command> supervisor,
            ActorRef<ProcConnector.Command> proc,
            List<UserNamespace> levels,
            int index,
            CompletableFuture<Tally> done) {
        super(ctx);
        this.supervisor = supervisor;
        this.proc = proc;
        this.levels = levels;
        this.done = done;
        this.pidBase = 1_000_000L * (index + 1);
        this.cycle = index; // the tasks start at different levels
        this.createdTo = ctx.messageAdapter(CreateResult.class, Created::new);
        this.openedTo = ctx.messageAdapter(Long.class, Opened::new);
        this.answeredTo = ctx.messageAdapter(Done.class, Answered::new);
        this.closedTo = ctx.messageAdapter(NetNamespace.CLOSE_REPLY, r -> new Answered(r.getValue()));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessageEquals(Stop.INSTANCE, () -> {
                    stopping = true;
                    return this;
                })
                .onMessage(Created.class, m -> {
                    if (!(m.result() instanceof NetnsHandle h)) {
                        failed++;
                        return next();
                    }
                    created++;
                    current = h;
                    h.actor().tell(new NetNamespace.OpenSocket(openedTo));
                    return this;
                })
                .onMessage(Opened.class, m -> {
                    if (m.socket() < 0) {
                        throw new IllegalStateException(
                                "netns " + current.id() + " refused a socket while its creator held it");
                    }
                    current.actor().tell(new NetNamespace.CloseSocket(m.socket(), closedTo));
                    return this;
                })
                .onMessage(Answered.class, m -> {
                    if (!released) { // the socket is closed: the creator drops its reference
                        released = true;
                        supervisor.tell(new NamespaceSupervisor.ReleaseNetns(current.id(), answeredTo));
                        return this;
                    }
                    freed++; // net_free has run
                    released = false;
                    publish(ProcEvents.EXIT);
                    current = null;
                    return next();
                })
                .build();
    }

    private void publish(int what) {
        long pid = pidBase + cycle;
        proc.tell(
                new ProcConnector.Publish(new ProcEvent(what, 0, 0, Clock.nanoTime(), (int) pid, (int) pid, 1, 0, 0)));
        procEvents++;
    }

    /** The next cycle, or the end. */
    private Behavior<Command> next() {
        if (stopping) {
            done.complete(new Tally(created, freed, failed, procEvents));
            return Behaviors.stopped();
        }
        cycle++;
        publish(ProcEvents.FORK);
        UserNamespace owner = levels.get((int) (cycle % levels.size()));
        supervisor.tell(new NamespaceSupervisor.CreateNetns(owner, createdTo));
        return this;
    }
}
