package org.netnslab;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AskPattern;
import akka.stream.javadsl.Source;
import com.typesafe.config.Config;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.netnslab.design.Design;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.machine.OnStop;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetNamespace;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcReceived;
import org.netnslab.proc.ProcSubscriber;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * The embedding API: start the model in your own Akka application ({@link #start}) and drive it through the
 * {@link Client} facade from code outside actors, or through the {@link NamespaceSupervisor} protocol;
 * {@link Instance#stop()} stops everything it started. Or spawn {@link #supervisor(Config)} as a child of one of
 * your actors and stop it as any child. The model's actors run on the dispatcher named by
 * {@code netns-lab.dispatcher} (default: a pool of its own, {@link ModelDispatcher}).
 */
public final class NetnsLab {
    private NetnsLab() {}

    /**
     * Starts a supervisor of {@link #design(Config)} as a system actor named {@code netns-lab-<n>}
     * ({@code n} unique in this JVM), on the model's dispatcher, so any number of instances may run in one
     * actor system.
     *
     * @param system the application's actor system
     * @param config the application's configuration (with netns-lab's reference.conf)
     * @param timeout longest wait of each {@link Client} request for its answer, above 0
     * @return the running instance: its supervisor, a client, and how to stop it
     * @throws IllegalArgumentException a timeout of 0 or below (every request would fail); a
     *     {@code netns-lab.dispatcher} other than the actor system's (the model runs on the system's); and see
     *     {@link #design(Config)}
     */
    public static Instance start(ActorSystem<?> system, Config config, Duration timeout) {
        return EmbeddedConfig.firstFreeName(name -> start(system, config, name, timeout));
    }

    /**
     * As {@link #start(ActorSystem, Config, Duration)}, with the supervisor's actor name chosen.
     *
     * @param system the application's actor system
     * @param config the application's configuration (with netns-lab's reference.conf)
     * @param name the system actor's name: unique among the system actors that are alive
     * @param timeout longest wait of each {@link Client} request for its answer, above 0
     * @return the running instance
     * @throws akka.actor.InvalidActorNameException when {@code name} is taken or not a valid actor name
     * @throws NullPointerException naming the argument that is null, before anything starts
     */
    public static Instance start(ActorSystem<?> system, Config config, String name, Duration timeout) {
        java.util.Objects.requireNonNull(system, "start: system is null");
        EmbeddedConfig.requireReference(config);
        EmbeddedConfig.requireTimeout(timeout, system.settings().config()); // before the supervisor starts
        EmbeddedConfig.checkDispatcher(system, config);
        CompletableFuture<Done> terminated = new CompletableFuture<>();
        Behavior<NamespaceSupervisor.Command> behavior = OnStop.wrap(
                NamespaceSupervisor.Command.class, supervisor(config), () -> terminated.complete(Done.getInstance()));
        ActorRef<NamespaceSupervisor.Command> ref = system.systemActorOf(behavior, name, ModelDispatcher.props(system));
        return new Instance(ref, new Client(system, ref, timeout, new StopGuard(name, terminated)), terminated);
    }

    /** One running model, started by {@link NetnsLab#start}. */
    public static final class Instance {
        private final ActorRef<NamespaceSupervisor.Command> supervisor;
        private final Client client;
        private final CompletableFuture<Done> terminated;
        private final java.util.concurrent.atomic.AtomicBoolean stopSent =
                new java.util.concurrent.atomic.AtomicBoolean();

        private Instance(
                ActorRef<NamespaceSupervisor.Command> supervisor, Client client, CompletableFuture<Done> terminated) {
            this.supervisor = supervisor;
            this.client = client;
            this.terminated = terminated;
        }

        /** @return the supervisor's actor name */
        public String name() {
            return supervisor.path().name();
        }

        /** @return the supervisor, for the {@link NamespaceSupervisor} protocol */
        public ActorRef<NamespaceSupervisor.Command> supervisor() {
            return supervisor;
        }

        /** @return the facade for code outside actors; fails every request at once after the stop */
        public Client client() {
            return client;
        }

        /**
         * Stops the supervisor and every actor it started ({@link NamespaceSupervisor.Stop}). Open uevent listener
         * streams, proc connector sockets and the client's pending requests fail with an exception naming the
         * stop ({@link IllegalStateException} for requests), and later requests at once. Idempotent.
         *
         * @return Done once the supervisor and every actor it started have terminated
         */
        public CompletionStage<Done> stop() {
            if (!terminated.isDone() && stopSent.compareAndSet(false, true)) { // a second Stop: dead letters
                supervisor.tell(NamespaceSupervisor.Stop.INSTANCE);
            }
            return terminated;
        }

        /** @return Done once the supervisor has terminated, by {@link #stop()} or otherwise */
        public CompletionStage<Done> whenTerminated() {
            return terminated;
        }
    }

    /**
     * The design named by {@code netns-lab.embedded.design}, its keys over {@code netns-lab.model}.
     *
     * @param config the application's configuration (with netns-lab's reference.conf)
     * @return the design
     * @throws com.typesafe.config.ConfigException for a missing or mistyped key
     * @throws IllegalArgumentException for an unknown design or strategy value, or a key under {@code netns-lab}
     *     that netns-lab does not have (a misspelt block)
     */
    public static Design design(Config config) {
        return EmbeddedConfig.design(config);
    }

    /**
     * The supervisor behaviour for {@link #design(Config)}: spawn it as a child of your own actor, with
     * {@link ModelDispatcher#props} so that it runs on the model's dispatcher as its descendants do, and stop it as
     * any child (or tell it {@link NamespaceSupervisor.Stop}). It creates and dismantles netns (copy_net_ns,
     * cleanup_net) with the standard pernet ops. {@link #start} does all this for you.
     *
     * @param config the application's configuration
     * @return the supervisor's behaviour
     * @throws IllegalArgumentException see {@link #design(Config)}
     */
    public static Behavior<NamespaceSupervisor.Command> supervisor(Config config) {
        return NamespaceSupervisor.create(design(config).model());
    }

    /**
     * A facade for a supervisor you spawned yourself. It does not see that supervisor stop: requests
     * pending then end by their timeout (an {@link Instance#client()} fails them at once).
     *
     * @param system the actor system the supervisor runs in
     * @param supervisor the supervisor
     * @param timeout longest wait for each answer, above 0
     * @return a facade for callers outside actors
     * @throws IllegalArgumentException a timeout of 0 or below: every request would fail
     * @throws NullPointerException naming the argument that is null
     */
    public static Client client(
            ActorSystem<?> system, ActorRef<NamespaceSupervisor.Command> supervisor, Duration timeout) {
        java.util.Objects.requireNonNull(system, "client: system is null");
        java.util.Objects.requireNonNull(supervisor, "client: supervisor is null");
        EmbeddedConfig.requireTimeout(timeout, system.settings().config());
        return new Client(
                system, supervisor, timeout, new StopGuard(supervisor.path().name(), new CompletableFuture<>()));
    }

    /**
     * Model operations as {@link CompletionStage}s, for code outside actors. Thread-safe. Every stage fails with
     * {@link java.util.concurrent.TimeoutException} when the model does not answer in time. A client of
     * {@link Instance#client()} also fails every pending stage with an {@link IllegalStateException} naming the
     * stop when its supervisor stops, and every later one at once; so does an operation on a freed netns, and one
     * on a netns of another instance with an {@link IllegalArgumentException}.
     *
     * <p>A stage completes on the thread that answers it, a thread of the model's dispatcher, and so do the
     * caller's non-async callbacks ({@code thenApply}, ...): keep them short, and use the {@code ...Async} forms
     * with an executor of your own for blocking work.
     */
    public static final class Client {
        private final ActorSystem<?> system;
        private final ActorRef<NamespaceSupervisor.Command> supervisor;
        private final Duration timeout;
        private final StopGuard guard;
        private final ProcConnectorLink procConnector;
        private final Releases releases = new Releases();

        private Client(
                ActorSystem<?> system,
                ActorRef<NamespaceSupervisor.Command> supervisor,
                Duration timeout,
                StopGuard guard) {
            this.system = system;
            this.supervisor = supervisor;
            this.timeout = timeout;
            this.guard = guard;
            this.procConnector = new ProcConnectorLink(() -> guard.guarded(() -> AskPattern.ask(
                    supervisor, NamespaceSupervisor.GetProcConnector::new, timeout, system.scheduler())));
        }

        /**
         * copy_net_ns with CLONE_NEWNET: a netns owned by {@code owner}, held by the caller (active count 1).
         *
         * @param owner the owning user namespace
         * @return the handle; fails with {@link IllegalStateException} naming the op when setup_net failed; a netns
         *     whose setup_net finishes after the timeout is released, not left held by no one
         * @throws NullPointerException for a null owner, before anything is asked
         */
        public CompletionStage<NetnsHandle> createNetns(UserNamespace owner) {
            java.util.Objects.requireNonNull(owner, "createNetns: owner is null (UserNamespace.INIT for init_net's)");
            return guard.guarded(() -> CreateCall.send(system, supervisor, owner, timeout, releases::created, h -> {
                releases.created(h);
                releaseNetns(h);
            }));
        }

        /**
         * Drops the caller's reference to netns {@code id} (put_net), once: a second release never takes a reference
         * a socket or listener holds (it fails while the first is pending, and completes at once after net_free, when
         * the id has no netns). Ids are per supervisor: prefer {@link #releaseNetns(NetnsHandle)}, which checks.
         *
         * @param id the netns's id ({@link NetnsHandle#id()}) in this client's supervisor
         * @return Done when the netns has reached net_free, which waits for every socket and uevent
         *     listener still open in it (each holds a reference) to be closed; at once for an id with no netns
         *     (freed already, or never created). Fails with {@link IllegalStateException} while an earlier
         *     release of the same netns through this client is pending or outlasted the timeout, and with a
         *     {@link java.util.concurrent.TimeoutException} saying that the release stands when net_free comes
         *     later than the timeout.
         */
        public CompletionStage<Done> releaseNetns(long id) {
            return releases.release(
                    id,
                    timeout,
                    () -> guard.guarded(() -> AskPattern.ask(
                            supervisor,
                            replyTo -> new NamespaceSupervisor.ReleaseNetns(id, replyTo),
                            timeout,
                            system.scheduler())));
        }

        /**
         * As {@link #releaseNetns(long)}, for a netns of this client's supervisor only.
         *
         * @param netns the netns, as {@link #createNetns} gave it
         * @return as {@link #releaseNetns(long)}; fails at once with {@link IllegalArgumentException} for a netns
         *     of another supervisor (whose id may name one of this one's)
         */
        public CompletionStage<Done> releaseNetns(NetnsHandle netns) {
            IllegalArgumentException foreign = releases.foreign(netns, supervisor, "releaseNetns");
            return foreign != null ? CompletableFuture.failedFuture(foreign) : releaseNetns(netns.id());
        }

        /**
         * A uevent listener socket factory for {@code netns}; see {@link NetnsHandle#uevents(SocketOptions)}.
         * Each listener holds the netns until its stream is cancelled or completes.
         *
         * @param netns the netns
         * @param options receive buffer (SO_RCVBUF / SO_RCVBUFFORCE, bytes) and NETLINK_NO_ENOBUFS;
         *     {@link SocketOptions#DEFAULT}: net.core.rmem_default, ENOBUFS reported
         * @return each materialization binds one listener; its value completes with the socket once bound
         * @throws NullPointerException naming the argument that is null, before anything is bound
         */
        public Source<Received, CompletionStage<ReceiveQueue<Received>>> uevents(
                NetnsHandle netns, SocketOptions options) {
            IllegalArgumentException foreign = releases.foreign(netns, supervisor, "uevents"); // options: the handle
            return foreign != null ? Releases.refused(foreign) : netns.uevents(options);
        }

        /**
         * The message-count form, a model simplification; see {@link NetnsHandle#uevents(int)}.
         *
         * @param netns the netns
         * @param queueCapacity about how many messages the listener holds before it overruns
         * @return each materialization binds one listener; its value completes once bound
         * @throws NullPointerException for a null netns
         */
        public Source<Received, CompletionStage<Done>> uevents(NetnsHandle netns, int queueCapacity) {
            IllegalArgumentException foreign = releases.foreign(netns, supervisor, "uevents");
            return foreign != null ? Releases.refused(foreign) : netns.uevents(queueCapacity);
        }

        /**
         * Injects one uevent into {@code netns} (uevent_net_rcv_skb) by the design's route
         * ({@link NetnsHandle#injectRoute()}), as a task's sendmsg would run: through the global owner
         * (uevent_sock_mutex), the netns actor (its per-netns lock), or, under {@code lockless} (v6.9), on the
         * caller's own thread with no lock, so that callers into one netns may reach listeners out of SEQNUM order.
         *
         * @param netns the netns
         * @param sender the injecting task's credentials (needs CAP_SYS_ADMIN over the netns's owner)
         * @param payload {@code ACTION@DEVPATH} NUL {@code KEY=VALUE} NUL ..., without SEQNUM
         * @return Sent with its SEQNUM once on every listener queue, or Failed (EPERM, EINVAL)
         * @throws NullPointerException naming the argument that is null, before anything reaches the netns's actor
         */
        public CompletionStage<InjectResult> inject(NetnsHandle netns, Credentials sender, byte[] payload) {
            java.util.Objects.requireNonNull(sender, "inject: sender is null");
            java.util.Objects.requireNonNull(payload, "inject: payload is null");
            return own(netns, "inject", () -> InjectCall.send(system, timeout, netns, sender, payload));
        }

        /**
         * Subscribes to the proc connector as a task of init_net would: binds a CN_IDX_PROC socket with
         * {@code options} and sends LISTEN with {@code mask} (null: the legacy form, every event).
         *
         * @param caller the subscribing task's credentials; outside the initial user namespace the kernel
         *     ignores the subscription and this stage fails with a timeout
         * @param mask PROC_EVENT_* bits ({@link org.netnslab.proc.ProcEvents}), or null: all (only null before v6.6)
         * @param options the socket's receive buffer (bytes) and NETLINK_NO_ENOBUFS
         * @return the joined socket once the subscription is acknowledged: its events (one recvmsg per
         *     pull; {@link ProcReceived.Enobufs} after an overrun) and its queue; fails with a NullPointerException
         *     for a null caller or options, which reach no actor
         */
        public CompletionStage<ProcConnector.Joined> procEvents(
                Credentials caller, Integer mask, SocketOptions options) {
            return procConnector
                    .connector()
                    .thenCompose(pc -> guard.guarded(
                            ProcSubscriber.listen(pc, caller, mask, options, timeout, system.scheduler())));
        }

        /**
         * The message-count form, a model simplification ({@link SocketOptions#holding}).
         *
         * @param caller the subscribing task's credentials
         * @param mask PROC_EVENT_* bits wanted, or null
         * @param queueCapacity about how many events the socket holds before it overruns
         * @return the socket's receive side once the subscription is acknowledged
         */
        public CompletionStage<Source<ProcReceived, akka.NotUsed>> procEvents(
                Credentials caller, Integer mask, int queueCapacity) {
            return procEvents(caller, mask, SocketOptions.holding(queueCapacity))
                    .thenApply(ProcConnector.Joined::events);
        }

        /**
         * Reports a process event, as the kernel's process paths (proc_fork_connector,
         * proc_exit_connector, ...) do; it reaches subscribers by the design's filter. Never blocks: until
         * the supervisor has named its connector, events wait in the client, in order. Events from one
         * caller reach the connector in the order of the calls. Safe from any thread, actors included.
         *
         * @param event the event; its seq is assigned by the connector, and its cpu (the counter the seq comes from)
         *     taken modulo the connector's CPU count, as listeners then see it
         * @return Done once the event is handed to the connector; fails (and the event is dropped) when the
         *     connector lookup failed or timed out (the next call looks it up again), or after the stop
         * @throws NullPointerException for a null event, before anything is sent
         */
        public CompletionStage<Done> publishProcEvent(ProcEvent event) {
            if (guard.isStopped()) {
                return CompletableFuture.failedFuture(guard.notSent());
            }
            return procConnector.publish(event);
        }

        /**
         * Opens a socket in {@code netns} (sk_alloc): +1 on sock_inuse and a netns reference.
         *
         * @param netns the netns
         * @return the socket's id, or -1 when the netns is being dismantled
         */
        public CompletionStage<Long> openSocket(NetnsHandle netns) {
            return own(
                    netns,
                    "openSocket",
                    () -> AskPattern.ask(netns.actor(), NetNamespace.OpenSocket::new, timeout, system.scheduler()));
        }

        /**
         * Closes socket {@code socketId} of {@code netns} (sk_free; RCU-deferred for the configured share).
         *
         * @param netns the netns
         * @param socketId the socket, as {@link #openSocket} gave it
         * @return Done once the close is issued; fails with {@link akka.pattern.StatusReply.ErrorMessage} naming the
         *     socket when it is not open in {@code netns} (never opened there, or closed already)
         */
        public CompletionStage<Done> closeSocket(NetnsHandle netns, long socketId) {
            return own(
                    netns,
                    "closeSocket",
                    () -> AskPattern.askWithStatus(
                            netns.actor(),
                            replyTo -> new NetNamespace.CloseSocket(socketId, replyTo),
                            timeout,
                            system.scheduler()));
        }

        /** @return {@code stage} for a netns of this client's supervisor; else a failure naming the netns, at once */
        private <T> CompletionStage<T> own(NetnsHandle netns, String op, Supplier<CompletionStage<T>> stage) {
            IllegalArgumentException foreign = releases.foreign(netns, supervisor, op);
            return foreign != null ? CompletableFuture.failedFuture(foreign) : guard.guarded(netns, stage);
        }
    }
}
