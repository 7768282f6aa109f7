package org.netnslab.cluster;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.ClusterEvent;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Subscribe;
import com.typesafe.config.Config;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.netnslab.run.RunObserver;

/**
 * {@code worker --join HOST:PORT}: a worker node. Each coordinator gets a fresh cluster actor system that joins it
 * ({@link ClusterConfig}) with one {@link Worker}. The system ends when the coordinator's node leaves the cluster or is
 * downed (and with {@code once}, as soon as its worker has ended): a system that stayed would be a cluster of its own,
 * which the next coordinator at the same address, a new cluster, never hears of. {@link #serve} then starts the next.
 */
public final class WorkerNode {
    /** How a worker node's service of a coordinator ended. */
    public enum Ending {
        /** no coordinator offered it a run */
        NONE,
        /** it took a coordinator's run, which has not ended yet */
        TAKEN,
        /** the coordinator's run is done */
        SERVED,
        /** it could not load the coordinator's run, or the coordinator refused its version or inputs */
        REFUSED,
        /** a design run failed on it, the coordinator went away before its run was done, or did not need it */
        FAILED
    }

    private final ActorSystem<ClusterEvent.MemberEvent> system;
    private final AtomicReference<Ending> ending;
    /** Set by {@link #stop}: what the worker says of a coordinator it loses by leaving is not said. */
    private final AtomicBoolean leaving;
    /** The node's worker, once its guardian has started it. */
    private final AtomicReference<ActorRef<Worker.Command>> worker;

    private WorkerNode(
            ActorSystem<ClusterEvent.MemberEvent> system,
            AtomicReference<Ending> ending,
            AtomicBoolean leaving,
            AtomicReference<ActorRef<Worker.Command>> worker) {
        this.system = system;
        this.ending = ending;
        this.leaving = leaving;
        this.worker = worker;
        onJoined(() -> joined.set(true));
    }

    /** Set once the node is a member of its coordinator's cluster. */
    private final AtomicBoolean joined = new AtomicBoolean();

    /**
     * Starts one worker node: a cluster actor system that joins {@code join} and runs one {@link Worker}.
     *
     * @param base the node's merged configuration
     * @param bind where to listen (port 0: any free port)
     * @param join the coordinator's address
     * @param loader loads a coordinator's run here
     * @param version this node's version
     * @param say prints a line about the worker
     * @param once end the node as soon as its worker has ended, not when the coordinator leaves
     * @param observer told of the progress of the design runs the worker runs
     * @return the node
     * @throws IllegalArgumentException when an address is refused ({@link ClusterConfig#of}) or the node cannot
     *     listen at {@code bind}
     */
    public static WorkerNode start(
            Config base,
            ClusterConfig.HostPort bind,
            ClusterConfig.HostPort join,
            RunLoader loader,
            String version,
            Consumer<String> say,
            boolean once,
            RunObserver observer) {
        Config c = ClusterConfig.of(base, bind, join, "worker");
        AtomicReference<Ending> ending = new AtomicReference<>(Ending.NONE);
        AtomicBoolean leaving = new AtomicBoolean();
        AtomicReference<ActorRef<Worker.Command>> worker = new AtomicReference<>();
        Behavior<ClusterEvent.MemberEvent> node = Behaviors.setup(ctx -> {
            ActorSystem<Void> system = ctx.getSystem(); // the worker's ending comes on its lane's thread
            String address = ctx.getSystem().address().host().getOrElse(() -> bind.host()) + ":"
                    + ctx.getSystem().address().port().getOrElse(() -> bind.port());
            Consumer<String> sayHere = m -> {
                if (!leaving.get()) {
                    say.accept("worker " + address + ": " + m);
                }
            };
            worker.set(ctx.spawn(
                    Worker.create(
                            loader,
                            version,
                            address,
                            sayHere,
                            e -> {
                                Ending was =
                                        ending.getAndUpdate(now -> now == Ending.NONE || now == Ending.TAKEN ? e : now);
                                if (once && e != Ending.TAKEN && (was == Ending.NONE || was == Ending.TAKEN)) {
                                    system.terminate();
                                }
                            },
                            observer),
                    "worker"));
            ctx.spawn(HandshakeReporter.printer(sayHere), "tls-failures");
            Cluster.get(ctx.getSystem())
                    .subscriptions()
                    .tell(Subscribe.create(ctx.getSelf(), ClusterEvent.MemberEvent.class));
            return Behaviors.receiveMessage(e -> {
                if (e.member().hasRole("coordinator") && gone(e)) {
                    ctx.getSystem().terminate(); // the next coordinator at this address is another cluster
                }
                return Behaviors.same();
            });
        });
        return new WorkerNode(ClusterConfig.create(node, c, bind, "--bind"), ending, leaving, worker);
    }

    private static boolean gone(ClusterEvent.MemberEvent e) {
        return e instanceof ClusterEvent.MemberLeft
                || e instanceof ClusterEvent.MemberExited
                || e instanceof ClusterEvent.MemberDowned
                || e instanceof ClusterEvent.MemberRemoved;
    }

    /** @return the node's actor system */
    public ActorSystem<?> system() {
        return system;
    }

    /** @return how its service ended so far */
    public Ending ending() {
        return ending.get();
    }

    /**
     * Runs {@code then} once the node is a member of its coordinator's cluster (its own member status Up).
     *
     * @param then what to run, on one of Akka's threads
     */
    public void onJoined(Runnable then) {
        akka.cluster.Cluster.get(Adapter.toClassic(system)).registerOnMemberUp(then);
    }

    /**
     * Waits until the node is a member of its coordinator's cluster (its own member status Up, which the
     * coordinator, the cluster's leader, gives it once it has joined: Cluster.registerOnMemberUp), or the time is
     * out. Blocks the calling thread: the command line's, not a dispatcher's.
     *
     * @param within how long to wait
     * @return true when it is Up in time, or ended after a coordinator took or refused it; false when not, or when
     *     the node ended otherwise first
     * @throws InterruptedException when interrupted
     */
    public boolean joinedWithin(Duration within) throws InterruptedException {
        CompletableFuture<Boolean> up = new CompletableFuture<>();
        akka.cluster.Cluster.get(Adapter.toClassic(system)).registerOnMemberUp(() -> up.complete(true));
        // a node a coordinator took or refused may end before its member-up callback runs: that is a join too
        system.getWhenTerminated().thenRun(() -> up.complete(ending() != Ending.NONE));
        try {
            return up.get(within.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return false; // not taken in time: the caller gives up
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for the cluster: " + e.getCause(), e.getCause());
        }
    }

    /**
     * Waits for the node's actor system to end.
     *
     * @return how its service ended
     * @throws InterruptedException when interrupted
     */
    public Ending awaitEnd() throws InterruptedException {
        try {
            system.getWhenTerminated().toCompletableFuture().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the worker node failed: " + e.getCause(), e.getCause());
        }
        return ending();
    }

    /**
     * Serves the coordinators at {@code join}, one node after the other: until the thread is interrupted or, with
     * {@code once}, until a node has taken a coordinator's run and ended; or until {@code next} gives no node.
     *
     * @param first the first node, already started ({@link #start})
     * @param next starts the next node; null: serve no more
     * @param say prints a line
     * @param join the coordinator's address, for the lines
     * @return how the last node's service ended ({@link Ending#NONE} when {@code next} gave none)
     * @throws InterruptedException when interrupted
     */
    public static Ending serve(
            WorkerNode first,
            java.util.function.Supplier<WorkerNode> next,
            boolean once,
            Consumer<String> say,
            ClusterConfig.HostPort join)
            throws InterruptedException {
        WorkerNode node = first;
        while (true) {
            Ending e = node.awaitEnd();
            if (once && e != Ending.NONE) {
                if (e == Ending.TAKEN) { // its node ended before the worker could say why: say it here
                    say.accept("worker " + node.system.address() + ": its node ended while the coordinator's run at "
                            + join + " was in progress (the coordinator went, or the cluster removed this worker);"
                            + " --once ends here");
                }
                return e == Ending.TAKEN ? Ending.FAILED : e;
            }
            if (once && node.joined.get()) { // its coordinator ended, having run every design run without this one
                say.accept("worker " + node.system.address() + ": the coordinator at " + join
                        + " ended without a design run for this worker (it needed none); --once ends here");
                return Ending.FAILED;
            }
            node = next.get();
            if (node == null) {
                return Ending.NONE;
            }
            say.accept("worker " + node.system.address() + ": waiting for the next coordinator at " + join);
        }
    }

    /**
     * Stops the node: it leaves the cluster (Akka's coordinated shutdown) and its actor system ends.
     *
     * @param within how long to wait for it
     * @return whether it ended in time
     */
    public boolean stop(Duration within) {
        leaving.set(true);
        ActorRef<Worker.Command> w = worker.get();
        if (w != null) {
            w.tell(Worker.Leave.INSTANCE);
        }
        return ClusterConfig.terminate(system, within); // false: the coordinator downs what did not leave
    }
}
