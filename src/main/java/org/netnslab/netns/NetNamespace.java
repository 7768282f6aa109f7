package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.stream.BoundedSourceQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.uevent.UeventSerialization;
import org.netnslab.uevent.UeventSockOwner;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * One network namespace ({@code struct net}, net/core/net_namespace.c). It owns its {@link Net}
 * state: the uevent socket with its listeners, its own SEQNUM counter under per-netns scope, its
 * per-CPU sock_inuse counter, its sockets, and its active and passive reference counts. Under
 * {@code per-netns-owner} it also serializes the injections into itself (the 2018 per-netns lock).
 *
 * <p>Lifecycle: setup_net runs every pernet op's init in order when the actor starts; if one fails,
 * the ops already run are undone in reverse (pre_exit, synchronize_rcu, exits, free data, rcu_barrier)
 * and the creator gets the error. When the active count reaches 0 the netns joins the cleanup worker's
 * list; the worker drives pre_exit, the exits and the data frees, then drops the passive reference,
 * and at passive 0 net_free runs and the actor stops. A failure stops the actor (the typed default):
 * no counter is ever silently reset; the supervisor sees it stop.
 */
public final class NetNamespace extends AbstractBehavior<NetNamespace.Command> {

  /** The netns actor's protocol. */
  public sealed interface Command permits Inject, SendUevent, AttachListener, EmitTaggedUevent, Get, Put, OpenSocket,
      CloseSocket, ReadSockInuse, PreExit, Exit, FreeData, DropPassive, RcuDone, RetryTick, SetupCostSpent {}

  /**
   * An injection under the per-netns lock (uevent_net_rcv_skb in this netns).
   *
   * @param sender the injecting task's credentials
   * @param payload message bytes without SEQNUM
   * @param sentNanos {@link System#nanoTime()} at the send
   * @param replyTo receives the {@link InjectResult} once the message is on every listener queue
   */
  public record Inject(Credentials sender, byte[] payload, long sentNanos, ActorRef<InjectResult> replyTo)
      implements Command {}

  /**
   * sendmsg on a uevent socket of this netns: the injection takes the design's route (global owner,
   * this actor, or lockless) as an injector's would, with one extra hop through this actor.
   */
  public record SendUevent(Credentials sender, byte[] payload, ActorRef<InjectResult> replyTo) implements Command {}

  /**
   * Binds a listener queue to this netns's uevent socket; {@code bound} completes when it is bound,
   * or exceptionally with {@link IllegalStateException} when the netns is being dismantled.
   */
  public record AttachListener(BoundedSourceQueue<Received> queue, CompletableFuture<Done> bound)
      implements Command {}

  /** A kernel-generated uevent for a network device in this netns (tagged); forwarded to the global owner. */
  public record EmitTaggedUevent(String action, String devpath, String subsystem, Map<String, String> keys,
      ActorRef<InjectResult> replyTo) implements Command {}

  /** get_net: one more active reference (a process entering the netns). */
  public enum Get implements Command { INSTANCE }

  /** put_net: one active reference less; at 0 the netns goes to the cleanup worker. */
  public enum Put implements Command { INSTANCE }

  /**
   * A process opens a socket in the netns (sk_alloc): it takes an active reference and adds 1 to
   * sock_inuse on the current CPU. {@code replyTo} gets the socket's id, or -1 when the netns is
   * already being dismantled.
   */
  public record OpenSocket(ActorRef<Long> replyTo) implements Command {}

  /**
   * Closes socket {@code socketId} (sk_free): -1 on sock_inuse and the reference dropped at once, or,
   * for the {@code sockets.rcu-free-fraction} share (SOCK_RCU_FREE), both from an RCU callback after a
   * grace period. {@code replyTo} gets Done when the close is issued.
   */
  public record CloseSocket(long socketId, ActorRef<Done> replyTo) implements Command {}

  /** sock_inuse_get, as /proc/net/sockstat reads it: -1 when the counter is freed. */
  public record ReadSockInuse(ActorRef<Integer> replyTo) implements Command {}

  /** Cleanup worker: run every op's pre_exit (reverse order); answered with {@link CleanupWorker.NetnsDone}. */
  public record PreExit(ActorRef<CleanupWorker.Command> replyTo) implements Command {}

  /**
   * Cleanup worker: run op {@code op}'s exit (index in registration order) and whatever it waits for;
   * answered with {@link CleanupWorker.NetnsDone}.
   */
  public record Exit(int op, ActorRef<CleanupWorker.Command> replyTo) implements Command {}

  /** Cleanup worker: free every op's per-netns data (reverse order); answered with {@link CleanupWorker.NetnsDone}. */
  public record FreeData(ActorRef<CleanupWorker.Command> replyTo) implements Command {}

  /** Cleanup worker: drop the passive reference taken at allocation; at 0, net_free. */
  public enum DropPassive implements Command { INSTANCE }

  private enum RcuDone implements Command { INSTANCE }

  private enum RetryTick implements Command { INSTANCE }

  private enum SetupCostSpent implements Command { INSTANCE }

  private static final Duration RETRY = Duration.ofMillis(1);

  private final Net net;
  private final List<PernetOperations> ops;
  private final TimerScheduler<Command> timers;
  private final ActorRef<CleanupWorker.Command> cleanup;
  private final ActorRef<Done> rcuDone;
  private final Set<Long> sockets = new HashSet<>();
  private int active = 1;
  private int passive = 1;
  private long nextSocket = 1;
  private long lastRefNanos;
  private boolean dismantling;
  private boolean stop;
  private Runnable continuation;
  private BooleanSupplier retrying;
  private Runnable setupDone;
  private UeventRoute route;

  /**
   * @param id the netns id
   * @param owner the owning user namespace
   * @param settings the design's model settings
   * @param ops the registered pernet ops, in registration order
   * @param env the domain's shared actors and counters
   * @param requestNanos when the creation was requested ({@link System#nanoTime()})
   * @param created receives the handle, or the failure, once setup_net has run
   * @return the netns behaviour
   */
  public static Behavior<Command> create(long id, UserNamespace owner, ModelSettings settings,
      List<PernetOperations> ops, Env env, long requestNanos, ActorRef<CreateResult> created) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        new NetNamespace(ctx, timers, id, owner, settings, ops, env, requestNanos, created)));
  }

  /**
   * What every netns of a supervisor shares.
   *
   * @param rcu the RCU domain
   * @param globalOwner the uevent_sock_mutex owner
   * @param globalSeqnum {@code uevent_seqnum}
   * @param cleanup the cleanup worker
   * @param supervisor told when setup_net has finished
   * @param probe where lifecycle events are reported
   */
  public record Env(ActorRef<RcuDomain.Command> rcu, ActorRef<UeventSockOwner.Command> globalOwner,
      SeqnumCounter globalSeqnum, ActorRef<CleanupWorker.Command> cleanup,
      ActorRef<NamespaceSupervisor.Command> supervisor, LifecycleProbe probe) {}

  private NetNamespace(ActorContext<Command> ctx, TimerScheduler<Command> timers, long id, UserNamespace owner,
      ModelSettings settings, List<PernetOperations> ops, Env env, long requestNanos, ActorRef<CreateResult> created) {
    super(ctx);
    this.timers = timers;
    this.ops = ops;
    this.cleanup = env.cleanup();
    this.net = new Net(id, owner, settings, ctx.getSelf(), env.rcu(), env.globalOwner(), env.globalSeqnum(), env.probe());
    this.rcuDone = ctx.messageAdapter(Done.class, d -> RcuDone.INSTANCE);
    setupNet(env, requestNanos, created);
  }

  /** setup_net: every init in order; on failure, undo the ones run and report. */
  private void setupNet(Env env, long requestNanos, ActorRef<CreateResult> created) {
    List<PernetOperations> done = new ArrayList<>();
    for (PernetOperations op : ops) {
      try {
        op.init(net);
        done.add(op);
      } catch (PernetInitException | RuntimeException e) {
        getContext().getLog().debug("netns {}: {} init failed, undoing {} op(s)", net.id(), op.name(), done.size());
        dismantling = true;
        String reason = op.name() + " init failed: " + e.getMessage();
        undo(done, () -> {
          env.supervisor().tell(new NamespaceSupervisor.SetupFinished(net.id(), false));
          created.tell(new CreateResult.Failed(net.id(), reason));
          netFree(done);
        });
        return;
      }
    }
    route = routeFor(net.settings.uevent().serialization());
    NetnsHandle handle = new NetnsHandle(net.id(), net.owner(), getContext().getSelf(), route);
    setupDone = () -> {
      env.probe().created(System.nanoTime() - requestNanos);
      env.supervisor().tell(new NamespaceSupervisor.SetupFinished(net.id(), true));
      created.tell(handle);
    };
    Duration cost = net.settings.netns().setupCost();
    if (cost.isZero()) {
      setupDone.run();
    } else {
      timers.startSingleTimer(SetupCostSpent.INSTANCE, cost); // setup_net's own kernel work, lock held
    }
  }

  /** The undo path of setup_net: pre_exit, synchronize_rcu, exits, free data, rcu_barrier, all in reverse. */
  private void undo(List<PernetOperations> done, Runnable then) {
    for (int i = done.size() - 1; i >= 0; i--) {
      done.get(i).preExit(net);
    }
    rcu(new RcuDomain.Synchronize(false, rcuDone), () -> exitFrom(done, done.size() - 1, () -> {
      for (int i = done.size() - 1; i >= 0; i--) {
        done.get(i).freeData(net);
      }
      rcu(new RcuDomain.Barrier(rcuDone), then);
    }));
  }

  private void exitFrom(List<PernetOperations> list, int i, Runnable then) {
    if (i < 0) {
      then.run();
      return;
    }
    perform(list.get(i).exit(net), () -> exitFrom(list, i - 1, then));
  }

  private UeventRoute routeFor(UeventSerialization serialization) {
    switch (serialization) {
      case GLOBAL_OWNER:
        return UeventSockOwner.route(net.globalOwner, net.ueventSocket);
      case PER_NETNS_OWNER:
        if (net.owner().isInitial()) {
          return UeventSockOwner.route(net.globalOwner, net.ueventSocket);
        }
        ActorRef<Command> self = getContext().getSelf();
        return (sender, payload, sentNanos, replyTo) -> self.tell(new Inject(sender, payload, sentNanos, replyTo));
      case LOCKLESS:
        return UeventRoute.lockless(net.ueventSocket);
      default:
        throw new IllegalStateException("unhandled uevent.serialization " + serialization);
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Inject.class, this::onInject)
        .onMessage(SendUevent.class, m -> {
          route.inject(m.sender(), m.payload(), System.nanoTime(), m.replyTo());
          return this;
        })
        .onMessage(AttachListener.class, this::onAttach)
        .onMessage(EmitTaggedUevent.class, this::onTagged)
        .onMessageEquals(Get.INSTANCE, this::onGet)
        .onMessageEquals(Put.INSTANCE, this::onPut)
        .onMessage(OpenSocket.class, this::onOpenSocket)
        .onMessage(CloseSocket.class, this::onCloseSocket)
        .onMessage(ReadSockInuse.class, m -> {
          m.replyTo().tell(net.sockInuse.isFreed() ? -1 : net.sockInuse.get());
          return this;
        })
        .onMessage(PreExit.class, this::onPreExit)
        .onMessage(Exit.class, this::onExit)
        .onMessage(FreeData.class, this::onFreeData)
        .onMessageEquals(DropPassive.INSTANCE, this::onDropPassive)
        .onMessageEquals(RcuDone.INSTANCE, () -> resume())
        .onMessageEquals(RetryTick.INSTANCE, this::onRetryTick)
        .onMessageEquals(SetupCostSpent.INSTANCE, () -> {
          setupDone.run();
          return this;
        })
        .build();
  }

  private Behavior<Command> next() {
    return stop ? Behaviors.stopped() : this;
  }

  private Behavior<Command> onInject(Inject m) {
    m.replyTo().tell(net.ueventSocket.inject(m.sender(), m.payload(), m.sentNanos()));
    return this;
  }

  private Behavior<Command> onAttach(AttachListener m) {
    if (dismantling) {
      m.queue().complete();
      m.bound().completeExceptionally(new IllegalStateException("netns " + net.id() + " is being dismantled"));
    } else {
      net.ueventSocket.attach(m.queue());
      m.bound().complete(Done.getInstance());
    }
    return this;
  }

  private Behavior<Command> onTagged(EmitTaggedUevent m) {
    net.globalOwner.tell(new UeventSockOwner.KernelUevent(m.action(), m.devpath(), m.subsystem(), m.keys(),
        net.ueventSocket, m.replyTo()));
    return this;
  }

  private Behavior<Command> onGet() {
    if (dismantling) {
      getContext().getLog().warn("netns {}: get_net after the last reference was dropped; ignored", net.id());
    } else {
      active++;
    }
    return this;
  }

  private Behavior<Command> onPut() {
    if (active <= 0) {
      getContext().getLog().warn("netns {}: put_net with no reference held; ignored", net.id());
      return this;
    }
    if (--active == 0) {
      dismantling = true;
      lastRefNanos = System.nanoTime();
      cleanup.tell(new CleanupWorker.Enqueue(net, getContext().getSelf()));
    }
    return this;
  }

  private Behavior<Command> onOpenSocket(OpenSocket m) {
    if (dismantling) {
      m.replyTo().tell(-1L);
      return this;
    }
    active++;
    net.sockInuse.add(net.cpu(), 1);
    long id = nextSocket++;
    sockets.add(id);
    m.replyTo().tell(id);
    return this;
  }

  private Behavior<Command> onCloseSocket(CloseSocket m) {
    if (!sockets.remove(m.socketId())) {
      getContext().getLog().warn("netns {}: close of unknown socket {}; ignored", net.id(), m.socketId());
      m.replyTo().tell(Done.getInstance());
      return this;
    }
    int cpu = net.cpu();
    if (net.nextCloseDeferred()) {
      // SOCK_RCU_FREE: __sk_destruct (the -1 and put_net) runs from an RCU callback.
      var counter = net.sockInuse;
      ActorRef<Command> self = getContext().getSelf();
      net.rcu.tell(new RcuDomain.CallRcu(() -> {
        counter.add(cpu, -1);
        self.tell(Put.INSTANCE);
      }));
    } else {
      net.sockInuse.add(cpu, -1);
      onPut();
    }
    m.replyTo().tell(Done.getInstance());
    return this;
  }

  private Behavior<Command> onPreExit(PreExit m) {
    for (int i = ops.size() - 1; i >= 0; i--) {
      ops.get(i).preExit(net);
    }
    m.replyTo().tell(new CleanupWorker.NetnsDone(net.id()));
    return this;
  }

  private Behavior<Command> onExit(Exit m) {
    perform(ops.get(m.op()).exit(net), () -> m.replyTo().tell(new CleanupWorker.NetnsDone(net.id())));
    return next();
  }

  private Behavior<Command> onFreeData(FreeData m) {
    for (int i = ops.size() - 1; i >= 0; i--) {
      ops.get(i).freeData(net);
    }
    m.replyTo().tell(new CleanupWorker.NetnsDone(net.id()));
    return this;
  }

  private Behavior<Command> onDropPassive() {
    if (--passive == 0) {
      netFree(ops);
    }
    return next();
  }

  /** net_free: the ops' net_free hooks (reverse order), the report, and the actor stops. */
  private void netFree(List<PernetOperations> run) {
    for (int i = run.size() - 1; i >= 0; i--) {
      run.get(i).netFree(net);
    }
    net.probe.netFreed(lastRefNanos == 0 ? 0 : System.nanoTime() - lastRefNanos, net.sockInuseAtFree);
    stop = true;
  }

  /** Carries out an exit's remaining work without blocking, then runs {@code then}. */
  private void perform(ExitAction action, Runnable then) {
    if (action instanceof ExitAction.AfterRcu r) {
      Runnable afterBarrier = () -> {
        r.then().run();
        then.run();
      };
      Runnable afterSync = r.barrier() ? () -> rcu(new RcuDomain.Barrier(rcuDone), afterBarrier) : afterBarrier;
      if (r.synchronize()) {
        rcu(new RcuDomain.Synchronize(false, rcuDone), afterSync);
      } else {
        afterSync.run();
      }
    } else if (action instanceof ExitAction.RetryUntil u) {
      if (u.attempt().getAsBoolean()) {
        then.run();
      } else {
        retrying = u.attempt();
        continuation = then;
        timers.startSingleTimer(RetryTick.INSTANCE, RETRY);
      }
    } else {
      then.run();
    }
  }

  private void rcu(RcuDomain.Command request, Runnable then) {
    continuation = then;
    net.rcu.tell(request);
  }

  private Behavior<Command> resume() {
    Runnable c = continuation;
    continuation = null;
    c.run();
    return next();
  }

  private Behavior<Command> onRetryTick() {
    if (retrying.getAsBoolean()) {
      retrying = null;
      return resume();
    }
    timers.startSingleTimer(RetryTick.INSTANCE, RETRY);
    return this;
  }
}
