package org.netnslab.proc;

import akka.Done;
import akka.NotUsed;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.stream.BoundedSourceQueue;
import akka.stream.Materializer;
import akka.stream.QueueOfferResult;
import akka.stream.javadsl.Source;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.netnslab.userns.Credentials;

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
 *   <li>A full receive queue drops the event for that listener, counts it, and the listener gets one
 *       {@link ProcReceived.Enobufs} before its next event.</li>
 * </ul>
 *
 * A failure stops the connector (the typed default). Its sockets' queues run on the connector's own
 * materializer, so they stop with it: listeners then see their streams fail rather than hang.
 */
public final class ProcConnector extends AbstractBehavior<ProcConnector.Command> {

  /** The {@code proc-connector.filter} strategy. */
  public enum Filter {
    /** Filtered per listener in the broadcast (v6.6). */
    PER_LISTENER,
    /** Every listener gets every event and discards what it does not want. */
    NONE
  }

  /** The connector's protocol. */
  public sealed interface Command permits Join, Subscribe, Close, Publish, PublishBurst, GetStats, RetryClose {}

  private enum RetryClose implements Command { INSTANCE }

  /**
   * bind() of a NETLINK_CONNECTOR socket to CN_IDX_PROC.
   *
   * @param netnsIsInitial whether the caller's netns is init_net (otherwise the bind fails)
   * @param queueCapacity the socket's receive queue, in messages
   * @param replyTo gets {@link Joined}, or {@link JoinFailed} outside init_net
   */
  public record Join(boolean netnsIsInitial, int queueCapacity, ActorRef<JoinReply> replyTo) implements Command {}

  /** The answer to {@link Join}. */
  public sealed interface JoinReply permits Joined, JoinFailed {}

  /**
   * @param socket the socket's id
   * @param events the socket's receive side; materialize it once
   */
  public record Joined(long socket, Source<ProcReceived, NotUsed> events) implements JoinReply {}

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
  public record Subscribe(long socket, Credentials caller, boolean callerInInitialPidNs, byte[] message,
      ActorRef<Done> replyTo) implements Command {}

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
   * @param delivered events put on a listener queue
   * @param filtered events a listener did not get because of its state or mask
   * @param dropped events lost to full queues
   * @param ignoredSubscriptions subscriptions ignored (wrong size or no access)
   * @param listenerCount the current listener count
   */
  public record Stats(long generated, long delivered, long filtered, long dropped, long ignoredSubscriptions,
      int listenerCount) {}

  private final Filter filter;
  private final akka.actor.typed.javadsl.TimerScheduler<Command> timers;
  /** Closed sockets whose last ENOBUFS did not fit in their full queue yet. */
  private final Map<Long, Socket> closing = new HashMap<>();
  private final ProcListenerTable table;
  private final Materializer materializer;
  private final Map<Long, Socket> sockets = new HashMap<>();
  private final long[] seqPerCpu;
  private long nextSocket = 1;
  private long generated;
  private long delivered;
  private long filtered;
  private long dropped;
  private long ignored;

  private static final class Socket {
    final BoundedSourceQueue<ProcReceived> queue;
    long unreported;

    Socket(BoundedSourceQueue<ProcReceived> queue) {
      this.queue = queue;
    }

    /** @return true when no drop is unreported, or the ENOBUFS reporting them is now queued */
    boolean reportDrops() {
      if (unreported == 0) {
        return true;
      }
      if (!queue.offer(new ProcReceived.Enobufs(unreported)).isEnqueued()) {
        return false;
      }
      unreported = 0;
      return true;
    }
  }

  /**
   * @param filter {@code proc-connector.filter}
   * @param accounting {@code proc-connector.accounting}
   * @param cpus CPUs with their own sequence counter, at least 1
   * @return the connector's behaviour
   */
  public static Behavior<Command> create(Filter filter, ProcListenerTable.Accounting accounting, int cpus) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new ProcConnector(ctx, timers, filter, accounting,
        cpus)));
  }

  private ProcConnector(ActorContext<Command> ctx, akka.actor.typed.javadsl.TimerScheduler<Command> timers,
      Filter filter, ProcListenerTable.Accounting accounting, int cpus) {
    super(ctx);
    this.timers = timers;
    this.filter = filter;
    this.table = new ProcListenerTable(accounting);
    this.materializer = Materializer.createMaterializer(ctx);
    this.seqPerCpu = new long[Math.max(1, cpus)];
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Join.class, this::onJoin)
        .onMessage(Subscribe.class, this::onSubscribe)
        .onMessage(Close.class, m -> {
          Socket s = sockets.remove(m.socket());
          if (s != null) {
            table.close(m.socket());
            closing.put(m.socket(), s);
            finishClosing();
          }
          return this;
        })
        .onMessageEquals(RetryClose.INSTANCE, () -> {
          finishClosing();
          return this;
        })
        .onMessage(Publish.class, this::onPublish)
        .onMessage(PublishBurst.class, m -> {
          m.events().forEach(e -> onPublish(new Publish(e)));
          return this;
        })
        .onMessage(GetStats.class, m -> {
          m.replyTo().tell(new Stats(generated, delivered, filtered, dropped, ignored, table.count()));
          return this;
        })
        .build();
  }

  private Behavior<Command> onJoin(Join m) {
    if (!m.netnsIsInitial()) {
      m.replyTo().tell(new JoinFailed("the proc connector works only in init_net"));
      return this;
    }
    var pair = Source.<ProcReceived>queue(m.queueCapacity()).preMaterialize(materializer);
    long id = nextSocket++;
    sockets.put(id, new Socket(pair.first()));
    table.join(id);
    m.replyTo().tell(new Joined(id, pair.second()));
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
    ProcEvent ack = new ProcEvent(ProcEvents.NONE, 0, 0, System.nanoTime(), 0, 0, 0, 0, 0);
    if (filter == Filter.NONE || table.delivers(m.socket(), ack)) {
      offer(sockets.get(m.socket()), ack);
    }
    m.replyTo().tell(Done.getInstance());
    return this;
  }

  private Behavior<Command> onPublish(Publish m) {
    if (!table.generating()) {
      return this; // no listener counted: the kernel does not even build the event
    }
    generated++;
    int cpu = Math.floorMod(m.event().cpu(), seqPerCpu.length);
    ProcEvent e = m.event();
    ProcEvent numbered = new ProcEvent(e.what(), cpu, ++seqPerCpu[cpu], e.timestampNanos(), e.pid(), e.tgid(),
        e.parentPid(), e.exitCode(), e.exitSignal());
    for (Map.Entry<Long, Socket> entry : sockets.entrySet()) {
      if (filter == Filter.PER_LISTENER && !table.delivers(entry.getKey(), numbered)) {
        filtered++;
        continue;
      }
      offer(entry.getValue(), numbered);
    }
    return this;
  }

  /**
   * Completes closed sockets once their pending ENOBUFS is queued (loss is never silent); a socket
   * whose queue is still full is retried in a millisecond.
   */
  private void finishClosing() {
    closing.values().removeIf(s -> {
      if (!s.reportDrops()) {
        return false;
      }
      try {
        s.queue.complete();
      } catch (IllegalStateException alreadyCompleted) {
        // the listener cancelled its stream first: nothing left to complete
      }
      return true;
    });
    if (!closing.isEmpty()) {
      timers.startSingleTimer(RetryClose.INSTANCE, java.time.Duration.ofMillis(1));
    }
  }

  private void offer(Socket s, ProcEvent event) {
    if (!s.reportDrops()) {
      s.unreported++;
      dropped++;
      return;
    }
    QueueOfferResult r = s.queue.offer(new ProcReceived.Event(event));
    if (r.isEnqueued()) {
      delivered++;
    } else if (r == QueueOfferResult.dropped()) {
      s.unreported++;
      dropped++;
    }
  }
}
