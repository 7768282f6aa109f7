package org.netnslab.netns;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.ChildFailed;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.machine.ModelDispatcher;

/**
 * The single cleanup worker: {@code cleanup_list} and cleanup_net() of net/core/net_namespace.c on
 * its single-threaded workqueue. At most one batch runs at a time; a batch is every netns on the list
 * when the worker takes it:
 *
 * <ol>
 *   <li>take the lifecycle lock (net_mutex, or pernet_ops_rwsem for read);</li>
 *   <li>run {@link OpsUndo} over the batch, a child actor per batch: pre_exit of every op for every
 *       netns, ONE synchronize_rcu, for each op in reverse registration order its exit for each netns
 *       one after the other (with {@code netns.exit-cost} after a netns's last exit) and then its
 *       exit_batch, free every netns's per-op data;</li>
 *   <li>release the lock when the batch's data is freed; the batch then takes ONE rcu_barrier;</li>
 *   <li>drop each netns's passive reference: net_free runs where it reaches 0.</li>
 * </ol>
 *
 * The worker knows the netns only by id and actor; their state stays theirs. A netns that stops
 * while on the list is dropped from it; one that stops or times out in its batch is left out by the
 * batch. A batch that fails (an op's exit_batch threw) fails the worker (the typed default), and with
 * it its supervisor's cleanups: the run fails visibly rather than leaking netns silently.
 */
public final class CleanupWorker extends AbstractBehavior<CleanupWorker.Command> {

  /** The worker's protocol. */
  public sealed interface Command permits Enqueue, LockGranted, BatchReport, MemberStopped {}

  /**
   * __put_net: a netns whose active count reached 0 joins cleanup_list.
   *
   * @param netnsId the netns id
   * @param actor the netns actor
   */
  public record Enqueue(long netnsId, ActorRef<NetNamespace.Command> actor) implements Command {}

  /** The supervisor granted the lifecycle lock for the batch. */
  public enum LockGranted implements Command { INSTANCE }

  private record BatchReport(OpsUndo.Report report) implements Command {}

  /** A netns on the list stopped before its batch: it failed. */
  private record MemberStopped(long netnsId) implements Command {}

  private final List<PernetOperations> ops;
  private final ActorRef<RcuDomain.Command> rcu;
  private final ActorRef<NamespaceSupervisor.Command> supervisor;
  private final LifecycleProbe probe;
  private final Duration exitCost;
  private final Duration exitCpu;
  private final IntFunction<Duration> batchTimeout;
  private final ActorRef<OpsUndo.Report> reports;
  private final Map<Long, ActorRef<NetNamespace.Command>> cleanupList = new LinkedHashMap<>();
  /** The batch taken off the list, from the lock request to its end; null when idle. */
  private List<OpsUndo.Member> batch;
  private long batches;

  /**
   * @param ops the registered pernet ops, in registration order
   * @param rcu the RCU domain
   * @param supervisor grants and takes back the lifecycle lock
   * @param probe told of each batch's size
   * @param exitCost simulated kernel work of the exits per netns (0: none)
   * @param batchTimeout each batch's {@link OpsUndo} timeout for its number of netns, by default
   *     {@link OpsUndo#defaultTimeout}: max(60 s, batch size x (exit-cost + 10 x grace period))
   * @return the worker's behaviour
   */
  public static Behavior<Command> create(List<PernetOperations> ops, ActorRef<RcuDomain.Command> rcu,
      ActorRef<NamespaceSupervisor.Command> supervisor, LifecycleProbe probe, Duration exitCost,
      IntFunction<Duration> batchTimeout) {
    return create(ops, rcu, supervisor, probe, exitCost, Duration.ZERO, batchTimeout);
  }

  /**
   * As the other factory, with the exits' CPU per netns ({@code costs.netns.exit-per-netns}), charged
   * on a simulated CPU in virtual execution only.
   *
   * @param exitCpu CPU of the exits per netns
   */
  public static Behavior<Command> create(List<PernetOperations> ops, ActorRef<RcuDomain.Command> rcu,
      ActorRef<NamespaceSupervisor.Command> supervisor, LifecycleProbe probe, Duration exitCost, Duration exitCpu,
      IntFunction<Duration> batchTimeout) {
    return Behaviors.setup(ctx -> new CleanupWorker(ctx, ops, rcu, supervisor, probe, exitCost, exitCpu,
        batchTimeout));
  }

  private CleanupWorker(ActorContext<Command> ctx, List<PernetOperations> ops, ActorRef<RcuDomain.Command> rcu,
      ActorRef<NamespaceSupervisor.Command> supervisor, LifecycleProbe probe, Duration exitCost, Duration exitCpu,
      IntFunction<Duration> batchTimeout) {
    super(ctx);
    this.exitCpu = exitCpu;
    this.ops = ops;
    this.rcu = rcu;
    this.supervisor = supervisor;
    this.probe = probe;
    this.exitCost = exitCost;
    this.batchTimeout = batchTimeout;
    this.reports = ctx.messageAdapter(OpsUndo.Report.class, BatchReport::new);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Enqueue.class, m -> {
          getContext().watchWith(m.actor(), new MemberStopped(m.netnsId()));
          cleanupList.put(m.netnsId(), m.actor());
          return startIfIdle();
        })
        .onMessageEquals(LockGranted.INSTANCE, this::runBatch)
        .onMessage(BatchReport.class, m -> m.report() instanceof OpsUndo.Finished f ? finished(f) : dataFreed())
        .onMessage(MemberStopped.class, m -> {
          cleanupList.remove(m.netnsId());
          return this;
        })
        .onSignal(ChildFailed.class, f -> {
          throw new IllegalStateException("cleanup batch failed", f.getCause());
        })
        .onSignal(Terminated.class, t -> this) // a batch that reported Finished
        .build();
  }

  /** cleanup_net's start: the whole list becomes the batch, and the batch waits for the lock. */
  private Behavior<Command> startIfIdle() {
    if (batch != null || cleanupList.isEmpty()) {
      return this;
    }
    batch = cleanupList.entrySet().stream().map(e -> new OpsUndo.Member(e.getKey(), e.getValue())).toList();
    cleanupList.clear();
    batch.forEach(m -> getContext().unwatch(m.actor())); // from now on its batch watches it
    probe.cleanupBatch(batch.size());
    supervisor.tell(new NamespaceSupervisor.AcquireCleanupLock(getContext().getSelf()));
    return this;
  }

  private Behavior<Command> runBatch() {
    ActorRef<OpsUndo.Command> run = ModelDispatcher.spawn(getContext(), OpsUndo.create(ops, batch, rcu, exitCost,
        exitCpu, probe, batchTimeout.apply(batch.size()), reports), "cleanup-batch-" + ++batches);
    getContext().watch(run);
    return this;
  }

  private Behavior<Command> dataFreed() {
    supervisor.tell(NamespaceSupervisor.ReleaseCleanupLock.INSTANCE);
    return this;
  }

  /** After the batch's rcu_barrier: net_drop_ns for each netns still there, then the next batch. */
  private Behavior<Command> finished(OpsUndo.Finished f) {
    f.remaining().forEach(m -> m.actor().tell(NetNamespace.DropPassive.INSTANCE));
    batch = null;
    return startIfIdle();
  }
}
