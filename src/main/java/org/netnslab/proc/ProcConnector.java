package org.netnslab.proc;

import akka.Done;
import akka.NotUsed;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.SupervisorStrategy;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.stream.javadsl.Source;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.netnslab.fault.FaultSwitch;
import org.netnslab.fault.Faults;
import org.netnslab.fault.ModelFault;
import org.netnslab.machine.Clock;
import org.netnslab.netlink.NetlinkSettings;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.Skb;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.userns.Credentials;
import org.slf4j.event.Level;

/**
 * The proc connector (drivers/connector/cn_proc.c, v6.6 and before), owned by the initial netns:
 * listener sockets join the CN_IDX_PROC group, subscribe with LISTEN or IGNORE and an event mask, and
 * receive process events through a bounded receive queue exposed as an Akka Streams {@link Source}.
 *
 * <ul>
 *   <li>Access: joining from any netns but the initial one fails; a subscription from a caller
 *       outside the initial user namespace or the initial pid namespace is ignored, with no ack.</li>
 *   <li>{@code proc-connector.filter}: {@link Filter#PER_LISTENER} filters before delivery (the 2023
 *       design); {@link Filter#NONE} delivers every event to every listener, which discards what it does
 *       not want.</li>
 *   <li>{@code proc-connector.accounting}: see {@link ProcListenerTable}. Events are generated only
 *       while the listener count is at least 1.</li>
 *   <li>{@code msg->seq} is per CPU: events are numbered per generating CPU, ordered per CPU only.</li>
 *   <li>Each listener socket's receive queue follows af_netlink.c ({@link ReceiveQueue}): sized in
 *       bytes, each event costing {@link #EVENT_TRUESIZE}; an overrun drops, makes the socket congested
 *       until its reader empties it, and its next recvmsg returns {@link ProcReceived.Enobufs} ahead
 *       of queued events (unless NETLINK_NO_ENOBUFS).</li>
 * </ul>
 *
 * A failure stops the connector (the typed default); its sockets' streams then fail, after what was
 * queued, rather than hang.
 *
 * <p>Fault switch {@code faults.proc-connector} ({@link FaultSwitch#PROC_CONNECTOR}): every Nth
 * {@link Publish} or {@link PublishBurst} throws a {@link ModelFault} before the event is numbered;
 * that event (or burst) is lost. Supervision: <b>resume</b>. The kernel has no restart: proc_*_connector
 * is a function call from fork/exit, and an event it fails to send (cn_netlink_send_mult's -ENOMEM
 * in send_msg, drivers/connector/cn_proc.c) is lost while the listener table and proc_event_counts
 * stay. Resume keeps the sockets, their subscriptions and the listener count, and the per-CPU seq
 * (the next event takes the next number: the model throws before numbering, so there is no gap
 * either); a restart would zero seq and forget every subscriber (their streams would hang), STOP
 * would fail every listener. Join, Subscribe and Close are never eligible (a lost Close would leave a
 * socket counted forever).
 */
public final class ProcConnector extends AbstractBehavior<ProcConnector.Command> {

    /** The {@code proc-connector.filter} strategy. */
    public enum Filter {
        /** Filtered per listener in the broadcast (v6.6). */
        PER_LISTENER,
        /** Every listener gets every event and discards what it does not want. */
        NONE
    }

    /**
     * @param filter the connector's filter
     * @param accounting its listener accounting
     * @return whether a listener is sent only what its own subscription wants: filtered in the broadcast on per-socket
     *     state; under {@code GLOBAL_COUNT} the filter passes every event ({@link ProcListenerTable#delivers})
     */
    public static boolean sendsOnlyWanted(Filter filter, ProcListenerTable.Accounting accounting) {
        return filter == Filter.PER_LISTENER && accounting == ProcListenerTable.Accounting.PER_SOCKET;
    }

    /** The connector's protocol. */
    public sealed interface Command permits Join, Subscribe, Close, Publish, PublishBurst, GetStats {}

    /**
     * An event message's truesize, bytes: cn_netlink_send_mult() (drivers/connector/connector.c, v6.6)
     * allocates nlmsg_new(sizeof(struct cn_msg) 20 + sizeof(struct proc_event) 40), 76 bytes.
     */
    public static final int EVENT_TRUESIZE = Skb.truesize(Skb.nlmsgTotalSize(20 + 40));

    /**
     * bind() of a NETLINK_CONNECTOR socket to CN_IDX_PROC.
     *
     * @param netnsIsInitial whether the caller's netns is init_net (otherwise the bind fails)
     * @param options the socket's receive buffer and NETLINK_NO_ENOBUFS
     * @param replyTo gets {@link Joined}, or {@link JoinFailed} outside init_net
     */
    public record Join(boolean netnsIsInitial, SocketOptions options, ActorRef<JoinReply> replyTo) implements Command {
        /**
         * The message-count form (a model simplification, {@link SocketOptions#holding}).
         *
         * @param netnsIsInitial whether the caller's netns is init_net
         * @param queueCapacity about how many events the socket holds, at least 1
         * @param replyTo gets the answer
         */
        public Join(boolean netnsIsInitial, int queueCapacity, ActorRef<JoinReply> replyTo) {
            this(netnsIsInitial, SocketOptions.holding(queueCapacity), replyTo);
        }
    }

    /** The answer to {@link Join}. */
    public sealed interface JoinReply permits Joined, JoinFailed {}

    /**
     * @param socket the socket's id
     * @param events the socket's receive side, one recvmsg per pull; materialize it once
     * @param queue the socket's receive queue, for its counters (sk_drops and the model's accounting)
     */
    public record Joined(long socket, Source<ProcReceived, NotUsed> events, ReceiveQueue<ProcReceived> queue)
            implements JoinReply {}

    /** @param reason why the bind failed */
    public record JoinFailed(String reason) implements JoinReply {}

    /**
     * A subscription message (cn_proc_mcast_ctl).
     *
     * @param socket the joined socket sending it
     * @param caller the sending task's credentials
     * @param callerInInitialPidNs whether the task is in the initial pid namespace
     * @param message the payload: 4 bytes (legacy) or 8 (proc_input); other lengths are ignored
     * @param replyTo gets Done when the subscription took effect; nothing when it was ignored. The
     *     kernel's own ack, a PROC_EVENT_NONE message, also reaches the socket if its filter lets it
     */
    public record Subscribe(
            long socket, Credentials caller, boolean callerInInitialPidNs, byte[] message, ActorRef<Done> replyTo)
            implements Command {}

    /** The socket is closed. */
    public record Close(long socket) implements Command {}

    /**
     * An event from the process table (proc_fork_connector, proc_exit_connector, ...). Its {@code cpu}
     * picks the per-CPU sequence counter; {@code seq} is assigned here.
     */
    public record Publish(ProcEvent event) implements Command {}

    /**
     * Several events from the process table at once, in order (a busy CPU's burst of forks and exits);
     * each is generated, numbered, filtered and delivered exactly as if published alone.
     */
    public record PublishBurst(java.util.List<ProcEvent> events) implements Command {}

    /** Asks for the connector's counters. */
    public record GetStats(ActorRef<Stats> replyTo) implements Command {}

    /**
     * @param generated events generated (only while a listener counted)
     * @param delivered events put on a listener queue (subscription acks are not events and not counted)
     * @param filtered events a listener did not get because of its state or mask
     * @param dropped events lost to overruns (full or congested sockets)
     * @param ignoredSubscriptions subscriptions ignored (wrong size or no access)
     * @param listenerCount the current listener count
     */
    public record Stats(
            long generated,
            long delivered,
            long filtered,
            long dropped,
            long ignoredSubscriptions,
            int listenerCount) {}

    private final Filter filter;
    private final NetlinkSettings sysctls;
    private final ProcListenerTable table;
    /** By socket id, which grows with each bind: walked newest first, as netlink's mc_list (hlist_add_head). */
    private final NavigableMap<Long, ReceiveQueue<ProcReceived>> sockets = new TreeMap<>();

    private final long[] seqPerCpu;
    private final Faults faults;
    private long nextSocket = 1;
    private long generated;
    private long delivered;
    private long filtered;
    private long dropped;
    private long ignored;

    /**
     * @param filter {@code proc-connector.filter}
     * @param accounting {@code proc-connector.accounting}
     * @param cpus CPUs with their own sequence counter, at least 1
     * @return the connector's behaviour
     */
    public static Behavior<Command> create(Filter filter, ProcListenerTable.Accounting accounting, int cpus) {
        return create(filter, accounting, cpus, NetlinkSettings.KERNEL);
    }

    /**
     * @param filter {@code proc-connector.filter}
     * @param accounting {@code proc-connector.accounting}
     * @param cpus CPUs with their own sequence counter, at least 1
     * @param sysctls init_net's net.core.rmem_default / rmem_max (the sockets' sizes) and the test-only fault
     * @return the connector's behaviour
     */
    public static Behavior<Command> create(
            Filter filter, ProcListenerTable.Accounting accounting, int cpus, NetlinkSettings sysctls) {
        return create(filter, accounting, cpus, sysctls, Faults.NONE);
    }

    /**
     * As the other factories, with fault switches ({@code faults.proc-connector}).
     *
     * @param faults the fault switches
     * @return the connector's behaviour
     */
    public static Behavior<Command> create(
            Filter filter, ProcListenerTable.Accounting accounting, int cpus, NetlinkSettings sysctls, Faults faults) {
        // the fault switch's ModelFault is resumed (class Javadoc); any other failure stops the connector
        return Behaviors.supervise(Behaviors.<Command>setup(
                        ctx -> new ProcConnector(ctx, filter, accounting, cpus, sysctls, faults)))
                .onFailure(ModelFault.class, SupervisorStrategy.resume().withLogLevel(Level.DEBUG));
    }

    private ProcConnector(
            ActorContext<Command> ctx,
            Filter filter,
            ProcListenerTable.Accounting accounting,
            int cpus,
            NetlinkSettings sysctls,
            Faults faults) {
        super(ctx);
        this.faults = faults;
        this.filter = filter;
        this.sysctls = sysctls;
        this.table = new ProcListenerTable(accounting);
        this.seqPerCpu = new long[Math.max(1, cpus)];
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Join.class, this::onJoin)
                .onMessage(Subscribe.class, this::onSubscribe)
                .onMessage(Close.class, m -> {
                    ReceiveQueue<ProcReceived> s = sockets.remove(m.socket());
                    if (s != null) {
                        table.close(m.socket());
                        s.close(); // its reader still gets a pending ENOBUFS and every queued event
                    }
                    return this;
                })
                .onMessage(Publish.class, m -> {
                    faultPoint(m);
                    return onPublish(m);
                })
                .onMessage(PublishBurst.class, m -> {
                    faultPoint(m);
                    for (ProcEvent e : m.events()) {
                        publish(e);
                    }
                    return this;
                })
                .onSignal(akka.actor.typed.PostStop.class, signal -> {
                    IllegalStateException gone = new IllegalStateException("the proc connector stopped");
                    sockets.values().forEach(q -> q.fail(gone));
                    return this;
                })
                .onMessage(GetStats.class, m -> {
                    m.replyTo().tell(new Stats(generated, delivered, filtered, dropped, ignored, table.count()));
                    return this;
                })
                .build();
    }

    /**
     * {@code faults.proc-connector}: every Nth published event or burst throws before it is numbered
     * (resume; see the class Javadoc).
     *
     * @throws ModelFault when the switch fires
     */
    private void faultPoint(Command m) {
        ModelFault fault = faults.next(
                FaultSwitch.PROC_CONNECTOR,
                () -> "the proc connector handling " + m.getClass().getSimpleName());
        if (fault != null) {
            throw fault;
        }
    }

    private Behavior<Command> onJoin(Join m) {
        if (!m.netnsIsInitial()) {
            m.replyTo().tell(new JoinFailed("the proc connector works only in init_net"));
            return this;
        }
        ReceiveQueue<ProcReceived> queue = new ReceiveQueue<>(m.options(), ProcReceived.Enobufs::new);
        queue.bind(sysctls);
        long id = nextSocket++;
        sockets.put(id, queue);
        table.join(id);
        m.replyTo().tell(new Joined(id, queue.source(), queue));
        return this;
    }

    private Behavior<Command> onSubscribe(Subscribe m) {
        Optional<ProcSubscription> s = ProcSubscription.parse(m.message(), table.accounting());
        boolean allowed = m.caller().userNs().isInitial() && m.callerInInitialPidNs();
        if (s.isEmpty() || !allowed || !sockets.containsKey(m.socket())) {
            ignored++; // the kernel ignores it silently: no ack
            return this;
        }
        table.subscribe(m.socket(), s.get());
        // The kernel's ack: a PROC_EVENT_NONE message on the socket, through the same filter as events
        // (so only a listener of everything gets it); the caller's Done is the model's own confirmation.
        ProcEvent ack = new ProcEvent(ProcEvents.NONE, 0, 0, Clock.nanoTime(), 0, 0, 0, 0, 0);
        if (filter == Filter.NONE || table.delivers(m.socket(), ack)) {
            // not an event: left out of Stats, so delivered + filtered + dropped = generated x sockets
            sockets.get(m.socket()).deliver(new ProcReceived.Event(ack), EVENT_TRUESIZE);
        }
        m.replyTo().tell(Done.getInstance());
        return this;
    }

    private Behavior<Command> onPublish(Publish m) {
        publish(m.event());
        return this;
    }

    /** One event generated, numbered, filtered and delivered (proc_*_connector, then send_msg). */
    private void publish(ProcEvent e) {
        if (!table.generating()) {
            return; // no listener counted: the kernel does not even build the event
        }
        generated++;
        int cpu = Math.floorMod(e.cpu(), seqPerCpu.length);
        ProcEvent numbered = new ProcEvent(
                e.what(),
                cpu,
                ++seqPerCpu[cpu],
                e.timestampNanos(),
                e.pid(),
                e.tgid(),
                e.parentPid(),
                e.exitCode(),
                e.exitSignal());
        // netlink_broadcast walks mc_list from its head, where netlink_update_subscriptions added the newest bind
        for (Map.Entry<Long, ReceiveQueue<ProcReceived>> entry :
                sockets.descendingMap().entrySet()) {
            if (filter == Filter.PER_LISTENER && !table.delivers(entry.getKey(), numbered)) {
                filtered++;
                continue;
            }
            offer(entry.getValue(), numbered);
        }
    }

    private void offer(ReceiveQueue<ProcReceived> s, ProcEvent event) {
        switch (s.deliver(new ProcReceived.Event(event), EVENT_TRUESIZE)) {
            case QUEUED -> delivered++;
            case DROPPED -> dropped++;
            case CLOSED -> {} // the reader closed its socket; Close will follow
        }
    }
}
