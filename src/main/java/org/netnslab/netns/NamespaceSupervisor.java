package org.netnslab.netns;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.design.Design;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.UeventSockOwner;
import org.netnslab.userns.UserNamespace;

/**
 * Creates and dismantles network namespaces: {@code net_namespace_list}, copy_net_ns/setup_net and
 * the cleanup_net worker of net/core/net_namespace.c, for one design. It owns the design's global
 * uevent owner (uevent_sock_mutex) and {@code uevent_seqnum}.
 *
 * <p>Each netns is a watched child; it leaves the list when it stops. A netns actor that fails is
 * stopped (the typed default) and removed like a released one. This slice releases netns one by one;
 * batched cleanup with pernet ops and RCU comes with the lifecycle model.
 */
public final class NamespaceSupervisor extends AbstractBehavior<NamespaceSupervisor.Command> {

  /** The supervisor's protocol. */
  public sealed interface Command
      permits CreateNetns, ReleaseNetns, ReleaseAll, CountLive, ReadSeqnum, KernelUevent, NetnsStopped {}

  /**
   * copy_net_ns with CLONE_NEWNET: a new netns owned by {@code owner}; {@code replyTo} gets its handle
   * once its pernet init has run.
   */
  public record CreateNetns(UserNamespace owner, ActorRef<NetnsHandle> replyTo) implements Command {}

  /** Drops the last reference to netns {@code id}; {@code replyTo} gets Done when it is gone (or was unknown). */
  public record ReleaseNetns(long id, ActorRef<Done> replyTo) implements Command {}

  /** Releases every netns; {@code replyTo} gets Done when none is left. */
  public record ReleaseAll(ActorRef<Done> replyTo) implements Command {}

  /** Asks how many netns actors are alive (the leak check after a teardown). */
  public record CountLive(ActorRef<Integer> replyTo) implements Command {}

  /** Reads {@code /sys/kernel/uevent_seqnum}: the last global SEQNUM assigned. */
  public record ReadSeqnum(ActorRef<Long> replyTo) implements Command {}

  /**
   * A kernel-generated uevent (kobject_uevent_env): untagged when {@code deviceNetnsId} is negative
   * (to every netns owned by the initial user namespace), else tagged for that netns's network device.
   * An unknown netns id fails with EINVAL.
   */
  public record KernelUevent(String action, String devpath, String subsystem, Map<String, String> keys,
      long deviceNetnsId, ActorRef<InjectResult> replyTo) implements Command {}

  private record NetnsStopped(long id) implements Command {}

  private final Design design;
  private final SeqnumCounter globalSeqnum = new SeqnumCounter();
  private final ActorRef<UeventSockOwner.Command> globalOwner;
  private final Map<Long, ActorRef<NetNamespace.Command>> netns = new HashMap<>();
  private final List<ActorRef<Done>> releaseAllWaiters = new ArrayList<>();
  private long nextId = 1;

  /**
   * @param design the design every netns of this supervisor follows
   * @return the supervisor behaviour
   */
  public static Behavior<Command> create(Design design) {
    return Behaviors.setup(ctx -> new NamespaceSupervisor(ctx, design));
  }

  private NamespaceSupervisor(ActorContext<Command> ctx, Design design) {
    super(ctx);
    this.design = design;
    this.globalOwner = ctx.spawn(UeventSockOwner.create(globalSeqnum), "uevent-sock-owner");
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(CreateNetns.class, this::onCreate)
        .onMessage(ReleaseNetns.class, this::onRelease)
        .onMessage(ReleaseAll.class, this::onReleaseAll)
        .onMessage(CountLive.class, m -> {
          m.replyTo().tell(netns.size());
          return this;
        })
        .onMessage(ReadSeqnum.class, m -> {
          m.replyTo().tell(globalSeqnum.last());
          return this;
        })
        .onMessage(KernelUevent.class, this::onKernelUevent)
        .onMessage(NetnsStopped.class, this::onStopped)
        .build();
  }

  private Behavior<Command> onCreate(CreateNetns m) {
    long id = nextId++;
    ActorRef<NetNamespace.Command> child = getContext().spawn(
        NetNamespace.create(id, m.owner(), design, globalOwner, globalSeqnum, m.replyTo()), "netns-" + id);
    getContext().watchWith(child, new NetnsStopped(id));
    netns.put(id, child);
    return this;
  }

  private Behavior<Command> onRelease(ReleaseNetns m) {
    ActorRef<NetNamespace.Command> child = netns.get(m.id());
    if (child == null) {
      m.replyTo().tell(Done.getInstance());
    } else {
      child.tell(new NetNamespace.Release(m.replyTo()));
    }
    return this;
  }

  private Behavior<Command> onReleaseAll(ReleaseAll m) {
    releaseAllWaiters.add(m.replyTo());
    ActorRef<Done> ignore = getContext().getSystem().ignoreRef();
    netns.values().forEach(child -> child.tell(new NetNamespace.Release(ignore)));
    return answerReleaseAll();
  }

  private Behavior<Command> onKernelUevent(KernelUevent m) {
    if (m.deviceNetnsId() < 0) {
      globalOwner.tell(new UeventSockOwner.KernelUevent(m.action(), m.devpath(), m.subsystem(), m.keys(), null,
          m.replyTo()));
      return this;
    }
    ActorRef<NetNamespace.Command> child = netns.get(m.deviceNetnsId());
    if (child == null) {
      m.replyTo().tell(new InjectResult.Failed(Errno.EINVAL, -1));
    } else {
      child.tell(new NetNamespace.EmitTaggedUevent(m.action(), m.devpath(), m.subsystem(), m.keys(), m.replyTo()));
    }
    return this;
  }

  private Behavior<Command> onStopped(NetnsStopped m) {
    netns.remove(m.id());
    return answerReleaseAll();
  }

  private Behavior<Command> answerReleaseAll() {
    if (netns.isEmpty() && !releaseAllWaiters.isEmpty()) {
      releaseAllWaiters.forEach(r -> r.tell(Done.getInstance()));
      releaseAllWaiters.clear();
    }
    return this;
  }
}
