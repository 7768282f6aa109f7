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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.netnslab.design.Design;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.SeqnumScope;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.uevent.UeventSockOwner;
import org.netnslab.uevent.UeventSocket;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * One network namespace ({@code struct net}, net/core/net_namespace.c). It owns its uevent socket
 * (the listeners and their bounded queues) and, under per-netns SEQNUM scope, its own SEQNUM counter.
 * Under {@code per-netns-owner} it serializes the injections into itself, as the 2018 per-netns lock
 * would.
 *
 * <p>Lifecycle: setup runs the uevent pernet op's init (uevent_net_init: create the socket, join
 * uevent_sock_list when owned by the initial user namespace) and answers the creator with a
 * {@link NetnsHandle}; {@link Release} runs its exit (leave the list, hand every listener its pending
 * ENOBUFS and complete its stream) and stops the actor. A failure stops the actor (the typed
 * default): its SEQNUM counter is never silently reset, the supervisor sees it stop.
 */
public final class NetNamespace extends AbstractBehavior<NetNamespace.Command> {

  /** The netns actor's protocol. */
  public sealed interface Command
      permits Inject, AttachListener, Release, EmitTaggedUevent, Unregistered, RetryClose {}

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
   * Binds a listener queue to this netns's uevent socket; {@code bound} completes when it is bound,
   * or exceptionally with {@link IllegalStateException} when the netns is being dismantled.
   */
  public record AttachListener(BoundedSourceQueue<Received> queue, CompletableFuture<Done> bound)
      implements Command {}

  /** Runs the pernet exit and stops; {@code replyTo} gets {@link Done} when every listener is closed. */
  public record Release(ActorRef<Done> replyTo) implements Command {}

  /** A kernel-generated uevent for a network device in this netns (tagged); forwarded to the global owner. */
  public record EmitTaggedUevent(String action, String devpath, String subsystem, Map<String, String> keys,
      ActorRef<InjectResult> replyTo) implements Command {}

  private record Unregistered(UeventSocket socket) implements Command {}

  private enum RetryClose implements Command { INSTANCE }

  /** How long to wait before handing a full listener its ENOBUFS again while closing. */
  private static final Duration CLOSE_RETRY = Duration.ofMillis(1);

  private final long id;
  private final UserNamespace owner;
  private final UeventSocket socket;
  private final ActorRef<UeventSockOwner.Command> globalOwner;
  private final TimerScheduler<Command> timers;
  private final List<ActorRef<Done>> releaseWaiters = new ArrayList<>();
  private boolean dismantling;

  /**
   * @param id the netns id
   * @param owner the owning user namespace
   * @param design the design in force (SEQNUM scope and serialization)
   * @param globalOwner the uevent_sock_mutex owner
   * @param globalSeqnum {@code uevent_seqnum}
   * @param created receives the handle once the pernet init has run
   * @return the netns behaviour
   */
  public static Behavior<Command> create(long id, UserNamespace owner, Design design,
      ActorRef<UeventSockOwner.Command> globalOwner, SeqnumCounter globalSeqnum, ActorRef<NetnsHandle> created) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        new NetNamespace(ctx, timers, id, owner, design, globalOwner, globalSeqnum, created)));
  }

  private NetNamespace(ActorContext<Command> ctx, TimerScheduler<Command> timers, long id, UserNamespace owner,
      Design design, ActorRef<UeventSockOwner.Command> globalOwner, SeqnumCounter globalSeqnum,
      ActorRef<NetnsHandle> created) {
    super(ctx);
    this.id = id;
    this.owner = owner;
    this.timers = timers;
    this.globalOwner = globalOwner;
    // The 2018 proposal gives a counter only to netns not owned by the initial user namespace.
    boolean ownCounter = design.seqnumScope() == SeqnumScope.PER_NETNS && !owner.isInitial();
    this.socket = new UeventSocket(id, owner, ownCounter ? new SeqnumCounter() : globalSeqnum);
    if (owner.isInitial()) {
      globalOwner.tell(new UeventSockOwner.Register(socket));
    }
    created.tell(new NetnsHandle(id, owner, ctx.getSelf(), routeFor(design)));
  }

  private UeventRoute routeFor(Design design) {
    switch (design.serialization()) {
      case GLOBAL_OWNER:
        return UeventSockOwner.route(globalOwner, socket);
      case PER_NETNS_OWNER:
        if (owner.isInitial()) {
          return UeventSockOwner.route(globalOwner, socket);
        }
        ActorRef<Command> self = getContext().getSelf();
        return (sender, payload, sentNanos, replyTo) -> self.tell(new Inject(sender, payload, sentNanos, replyTo));
      case LOCKLESS:
        return UeventRoute.lockless(socket);
      default:
        throw new IllegalStateException("unhandled uevent.serialization " + design.serialization());
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Inject.class, this::onInject)
        .onMessage(AttachListener.class, this::onAttach)
        .onMessage(EmitTaggedUevent.class, this::onTagged)
        .onMessage(Release.class, this::onRelease)
        .onMessage(Unregistered.class, m -> closeListeners())
        .onMessageEquals(RetryClose.INSTANCE, this::closeListeners)
        .build();
  }

  private Behavior<Command> onInject(Inject m) {
    m.replyTo().tell(socket.inject(m.sender(), m.payload(), m.sentNanos()));
    return this;
  }

  private Behavior<Command> onAttach(AttachListener m) {
    if (dismantling) {
      m.queue().complete();
      m.bound().completeExceptionally(new IllegalStateException("netns " + id + " is being dismantled"));
    } else {
      socket.attach(m.queue());
      m.bound().complete(Done.getInstance());
    }
    return this;
  }

  private Behavior<Command> onTagged(EmitTaggedUevent m) {
    globalOwner.tell(new UeventSockOwner.KernelUevent(m.action(), m.devpath(), m.subsystem(), m.keys(), socket,
        m.replyTo()));
    return this;
  }

  private Behavior<Command> onRelease(Release m) {
    releaseWaiters.add(m.replyTo());
    if (dismantling) {
      return this;
    }
    dismantling = true;
    if (owner.isInitial()) {
      // uevent_net_exit: leave uevent_sock_list first so no broadcast races the close.
      globalOwner.tell(new UeventSockOwner.Unregister(socket,
          getContext().messageAdapter(UeventSocket.class, Unregistered::new)));
      return this;
    }
    return closeListeners();
  }

  private Behavior<Command> closeListeners() {
    if (socket.close() > 0) {
      timers.startSingleTimer(RetryClose.INSTANCE, CLOSE_RETRY);
      return this;
    }
    releaseWaiters.forEach(r -> r.tell(Done.getInstance()));
    return Behaviors.stopped();
  }
}
