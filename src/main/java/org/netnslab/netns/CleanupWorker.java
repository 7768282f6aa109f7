package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.rcu.RcuDomain;

/**
 * The single cleanup worker: {@code cleanup_list} and cleanup_net() of net/core/net_namespace.c on
 * its single-threaded workqueue. At most one batch runs at a time; a batch is every netns on the list
 * when the worker takes it:
 *
 * <ol>
 *   <li>take the lifecycle lock (net_mutex, or pernet_ops_rwsem for read);</li>
 *   <li>pre_exit of every op for every netns;</li>
 *   <li>ONE synchronize_rcu for the batch;</li>
 *   <li>for each op in reverse registration order: its exit for each netns, one after the other,
 *       then its exit_batch for the batch;</li>
 *   <li>free every netns's per-op data, and release the lock;</li>
 *   <li>ONE rcu_barrier for the batch;</li>
 *   <li>drop each netns's passive reference: net_free runs where it reaches 0.</li>
 * </ol>
 *
 * A failure stops the worker (the typed default) and with it its supervisor's cleanups: the run fails
 * visibly rather than leaking netns silently.
 */
public final class CleanupWorker extends AbstractBehavior<CleanupWorker.Command> {

  /** The worker's protocol. */
  public sealed interface Command permits Enqueue, LockGranted, NetnsDone, StepDone, ExitCostSpent, MemberStopped {}

  /** __put_net: a netns whose active count reached 0 joins cleanup_list. */
  public record Enqueue(Net net, ActorRef<NetNamespace.Command> actor) implements Command {}

  /** The supervisor granted the lifecycle lock for the batch. */
  public enum LockGranted implements Command { INSTANCE }

  /** A netns of the batch finished the step it was asked for. */
  public record NetnsDone(long netnsId) implements Command {}

  private enum StepDone implements Command { INSTANCE }

  /** A netns on the list or in the batch stopped; if it was not through net_free, it failed. */
  private record MemberStopped(long netnsId) implements Command {}

  private enum ExitCostSpent implements Command { INSTANCE }

  private final List<PernetOperations> ops;
  private final ActorRef<RcuDomain.Command> rcu;
  private final ActorRef<NamespaceSupervisor.Command> supervisor;
  private final LifecycleProbe probe;
  private final akka.actor.typed.javadsl.TimerScheduler<Command> timers;
  private final java.time.Duration exitCost;
  private final ActorRef<Done> stepDone;
  private List<Enqueue> cleanupList = new ArrayList<>();
  private List<Enqueue> batch;
  private int outstanding;
  private Runnable afterStep;
  private Runnable afterExitCost;
  private Runnable afterNetns;
  private final java.util.Set<Long> awaiting = new java.util.HashSet<>();
  private final java.util.Set<Long> stopped = new java.util.HashSet<>();
  /** Ids on cleanup_list or in the running batch, until their passive reference is dropped. */
  private final java.util.Set<Long> members = new java.util.HashSet<>();

  /**
   * @param ops the registered pernet ops, in registration order
   * @param rcu the RCU domain
   * @param supervisor grants and takes back the lifecycle lock
   * @param probe told of each batch's size
   * @param exitCost simulated kernel work of the exits per netns (0: none)
   * @return the worker's behaviour
   */
  public static Behavior<Command> create(List<PernetOperations> ops, ActorRef<RcuDomain.Command> rcu,
      ActorRef<NamespaceSupervisor.Command> supervisor, LifecycleProbe probe, java.time.Duration exitCost) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        new CleanupWorker(ctx, timers, ops, rcu, supervisor, probe, exitCost)));
  }

  private CleanupWorker(ActorContext<Command> ctx, akka.actor.typed.javadsl.TimerScheduler<Command> timers,
      List<PernetOperations> ops, ActorRef<RcuDomain.Command> rcu, ActorRef<NamespaceSupervisor.Command> supervisor,
      LifecycleProbe probe, java.time.Duration exitCost) {
    super(ctx);
    this.timers = timers;
    this.exitCost = exitCost;
    this.ops = ops;
    this.rcu = rcu;
    this.supervisor = supervisor;
    this.probe = probe;
    this.stepDone = ctx.messageAdapter(Done.class, d -> StepDone.INSTANCE);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Enqueue.class, m -> {
          getContext().watchWith(m.actor(), new MemberStopped(m.net().id()));
          members.add(m.net().id());
          cleanupList.add(m);
          startIfIdle();
          return this;
        })
        .onMessageEquals(LockGranted.INSTANCE, () -> {
          preExit();
          return this;
        })
        .onMessageEquals(ExitCostSpent.INSTANCE, () -> {
          Runnable next = afterExitCost;
          afterExitCost = null;
          next.run();
          return this;
        })
        .onMessage(NetnsDone.class, m -> {
          netnsAnswered(m.netnsId());
          return this;
        })
        .onMessage(MemberStopped.class, m -> {
          if (!members.contains(m.netnsId())) {
            return this; // stopped through net_free, after its batch
          }
          if (awaiting.contains(m.netnsId())) {
            // Failed before answering: the batch goes on without it rather than waiting forever.
            getContext().getLog().error("netns {} stopped during its cleanup; the batch goes on without it",
                m.netnsId());
          }
          stopped.add(m.netnsId());
          netnsAnswered(m.netnsId());
          return this;
        })
        .onMessageEquals(StepDone.INSTANCE, () -> {
          if (--outstanding == 0) {
            Runnable next = afterStep;
            afterStep = null;
            next.run();
          }
          return this;
        })
        .build();
  }

  private void startIfIdle() {
    if (batch != null || cleanupList.isEmpty()) {
      return;
    }
    batch = cleanupList;
    cleanupList = new ArrayList<>();
    probe.cleanupBatch(batch.size());
    supervisor.tell(new NamespaceSupervisor.AcquireCleanupLock(getContext().getSelf()));
  }

  /**
   * Sends {@code request} to every member of {@code members} still alive and runs {@code then} once
   * each has answered or stopped.
   */
  private void askNetns(List<Enqueue> members, java.util.function.Function<ActorRef<Command>, NetNamespace.Command> request,
      Runnable then) {
    awaiting.clear();
    members.stream().map(e -> e.net().id()).filter(id -> !stopped.contains(id)).forEach(awaiting::add);
    if (awaiting.isEmpty()) {
      then.run();
      return;
    }
    afterNetns = then;
    for (Enqueue e : members) {
      if (awaiting.contains(e.net().id())) {
        e.actor().tell(request.apply(getContext().getSelf()));
      }
    }
  }

  private void netnsAnswered(long id) {
    if (awaiting.remove(id) && awaiting.isEmpty()) {
      Runnable next = afterNetns;
      afterNetns = null;
      next.run();
    }
  }

  /** Waits for {@code count} Done replies to {@link #stepDone}, then runs {@code then}. */
  private void await(int count, Runnable then) {
    outstanding = count;
    afterStep = then;
  }

  private void preExit() {
    askNetns(batch, NetNamespace.PreExit::new, () -> {
      await(1, () -> exitOp(ops.size() - 1, 0));
      rcu.tell(new RcuDomain.Synchronize(false, stepDone));
    });
  }

  /**
   * The exit of op {@code op} for netns {@code i} of the batch, one netns after the other. After a
   * netns's last exit (op 0) the simulated kernel work of its exits ({@code netns.exit-cost}) is
   * spent, lock held, before the next netns.
   */
  private void exitOp(int op, int i) {
    if (op < 0) {
      freeData();
      return;
    }
    if (i == batch.size()) {
      ops.get(op).exitBatch(batch.stream().map(Enqueue::net).toList());
      exitOp(op - 1, 0);
      return;
    }
    askNetns(List.of(batch.get(i)), self -> new NetNamespace.Exit(op, self), () -> {
      if (op > 0) {
        exitOp(op, i + 1);
        return;
      }
      probe.netnsExited();
      if (exitCost.isZero()) {
        exitOp(op, i + 1);
      } else {
        afterExitCost = () -> exitOp(op, i + 1);
        timers.startSingleTimer(ExitCostSpent.INSTANCE, exitCost);
      }
    });
  }

  private void freeData() {
    askNetns(batch, NetNamespace.FreeData::new, () -> {
      supervisor.tell(NamespaceSupervisor.ReleaseCleanupLock.INSTANCE);
      await(1, this::dropPassive);
      rcu.tell(new RcuDomain.Barrier(stepDone));
    });
  }

  private void dropPassive() {
    batch.stream().filter(e -> !stopped.contains(e.net().id()))
        .forEach(e -> e.actor().tell(NetNamespace.DropPassive.INSTANCE));
    batch.forEach(e -> {
      stopped.remove(e.net().id());
      members.remove(e.net().id());
    });
    batch = null;
    startIfIdle();
  }
}
