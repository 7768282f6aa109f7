package org.netnslab.cluster;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import java.util.function.Consumer;

/**
 * {@code worker --join HOST:PORT}: a worker node. Each coordinator gets a fresh cluster actor system that
 * joins it ({@link ClusterConfig}) with one {@link Worker}; when that coordinator is gone the system ends and
 * the next one waits for the next coordinator at the same address, until the process is stopped.
 */
public final class WorkerNode {
    private WorkerNode() {}

    /**
     * Starts one worker node: a cluster actor system that joins {@code join} and runs one {@link Worker}; it
     * terminates once its coordinator is gone.
     *
     * @param base the node's merged configuration
     * @param bind where to listen (port 0: any free port)
     * @param join the coordinator's address
     * @param loader loads a coordinator's run here
     * @param version this node's version
     * @param say prints a line about the worker
     * @return the node's actor system
     * @throws IllegalArgumentException when an address is refused ({@link ClusterConfig#of})
     */
    public static ActorSystem<Void> start(
            Config base,
            ClusterConfig.HostPort bind,
            ClusterConfig.HostPort join,
            RunLoader loader,
            String version,
            Consumer<String> say) {
        Config c = ClusterConfig.of(base, bind, join, "worker");
        return ActorSystem.create(
                Behaviors.setup(ctx -> {
                    String address = ctx.getSystem().address().host().getOrElse(() -> bind.host()) + ":"
                            + ctx.getSystem().address().port().getOrElse(() -> bind.port());
                    ctx.spawn(
                            Worker.create(
                                    loader,
                                    version,
                                    address,
                                    m -> say.accept("worker " + address + ": " + m),
                                    () -> ctx.getSystem().terminate()),
                            "worker");
                    return Behaviors.empty();
                }),
                ClusterConfig.SYSTEM,
                c);
    }

    /**
     * Waits until the node is a member of its coordinator's cluster (its own member status Up, which the
     * coordinator, the cluster's leader, gives it once it has joined: Cluster.registerOnMemberUp), or the time is
     * out. Blocks the calling thread: the command line's, not a dispatcher's.
     *
     * @param node a node from {@link #start}
     * @param within how long to wait
     * @return true when it is Up in time; false when not, or when the node ended first
     * @throws InterruptedException when interrupted
     */
    public static boolean joinedWithin(ActorSystem<Void> node, java.time.Duration within) throws InterruptedException {
        java.util.concurrent.CompletableFuture<Boolean> up = new java.util.concurrent.CompletableFuture<>();
        akka.cluster.Cluster.get(akka.actor.typed.javadsl.Adapter.toClassic(node))
                .registerOnMemberUp(() -> up.complete(true));
        node.getWhenTerminated().thenRun(() -> up.complete(false));
        try {
            return up.get(within.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return false; // not taken in time: the caller gives up
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("waiting for the cluster: " + e.getCause(), e.getCause());
        }
    }

    /**
     * Runs worker nodes one after the other, one per coordinator, until the thread is interrupted.
     *
     * @see #start
     * @throws InterruptedException when interrupted
     */
    public static void runForever(
            Config base,
            ClusterConfig.HostPort bind,
            ClusterConfig.HostPort join,
            RunLoader loader,
            String version,
            Consumer<String> say)
            throws InterruptedException {
        while (!Thread.currentThread().isInterrupted()) {
            ActorSystem<Void> s = start(base, bind, join, loader, version, say);
            say.accept("worker " + s.address() + ": waiting for the coordinator at " + join);
            try {
                s.getWhenTerminated().toCompletableFuture().get();
            } catch (java.util.concurrent.ExecutionException e) {
                say.accept("worker node failed: " + e.getCause());
            }
        }
    }
}
