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
  public static ActorSystem<Void> start(Config base, ClusterConfig.HostPort bind, ClusterConfig.HostPort join,
      Prepared.Loader loader, String version, Consumer<String> say) {
    Config c = ClusterConfig.of(base, bind, join, "worker");
    return ActorSystem.create(Behaviors.setup(ctx -> {
      String address = ctx.getSystem().address().host().getOrElse(() -> bind.host()) + ":"
          + ctx.getSystem().address().port().getOrElse(() -> bind.port());
      ctx.spawn(Worker.create(loader, version, address, m -> say.accept("worker " + address + ": " + m),
          () -> ctx.getSystem().terminate()), "worker");
      return Behaviors.empty();
    }), ClusterConfig.SYSTEM, c);
  }

  /**
   * Runs worker nodes one after the other, one per coordinator, until the thread is interrupted.
   *
   * @see #start
   * @throws InterruptedException when interrupted
   */
  public static void runForever(Config base, ClusterConfig.HostPort bind, ClusterConfig.HostPort join,
      Prepared.Loader loader, String version, Consumer<String> say) throws InterruptedException {
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
