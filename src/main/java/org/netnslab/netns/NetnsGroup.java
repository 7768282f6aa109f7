package org.netnslab.netns;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.util.HashMap;
import java.util.Map;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;
import org.netnslab.machine.ModelDispatcher;

/**
 * A group of netns actors between the {@link NamespaceSupervisor} and the netns (the Akka IoT
 * tutorial's device group): it spawns the netns the supervisor places in it, watches them, tells the
 * supervisor when one stops, and routes the supervisor's messages to them by id. It holds at most the
 * supervisor's group size of children, so no parent holds the whole population. A failure stops it
 * and its netns (the typed default); the supervisor watches it.
 */
final class NetnsGroup extends AbstractBehavior<NetnsGroup.Command> {

  /** The group's protocol. */
  sealed interface Command permits Spawn, Deliver, PutAll, ChildStopped {}

  /**
   * Spawns netns {@code id} as a child.
   *
   * @param id the netns id
   * @param netns its behaviour ({@link NetNamespace#create})
   */
  record Spawn(long id, Behavior<NetNamespace.Command> netns) implements Command {}

  /**
   * Passes {@code message} to netns {@code id}. When that netns has already stopped, a tagged uevent is
   * answered EINVAL (its device is gone with it) and anything else is dropped.
   */
  record Deliver(long id, NetNamespace.Command message) implements Command {}

  /** put_net on every netns of the group (the supervisor's ReleaseAll). */
  enum PutAll implements Command { INSTANCE }

  private record ChildStopped(long id) implements Command {}

  private final ActorRef<NamespaceSupervisor.Command> supervisor;
  private final Map<Long, ActorRef<NetNamespace.Command>> children = new HashMap<>();

  /**
   * @param supervisor told {@link NamespaceSupervisor.NetnsStopped} for each netns that stops
   * @return the group's behaviour
   */
  static Behavior<Command> create(ActorRef<NamespaceSupervisor.Command> supervisor) {
    return Behaviors.setup(ctx -> new NetnsGroup(ctx, supervisor));
  }

  private NetnsGroup(ActorContext<Command> ctx, ActorRef<NamespaceSupervisor.Command> supervisor) {
    super(ctx);
    this.supervisor = supervisor;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Spawn.class, m -> {
          ActorRef<NetNamespace.Command> child = ModelDispatcher.spawn(getContext(), m.netns(), "netns-" + m.id());
          getContext().watchWith(child, new ChildStopped(m.id()));
          children.put(m.id(), child);
          return this;
        })
        .onMessage(Deliver.class, this::onDeliver)
        .onMessageEquals(PutAll.INSTANCE, () -> {
          children.values().forEach(c -> c.tell(NetNamespace.Put.INSTANCE));
          return this;
        })
        .onMessage(ChildStopped.class, m -> {
          children.remove(m.id());
          supervisor.tell(new NamespaceSupervisor.NetnsStopped(m.id()));
          return this;
        })
        .build();
  }

  private Behavior<Command> onDeliver(Deliver m) {
    ActorRef<NetNamespace.Command> child = children.get(m.id());
    if (child != null) {
      child.tell(m.message());
    } else if (m.message() instanceof NetNamespace.EmitTaggedUevent t) {
      t.replyTo().tell(new InjectResult.Failed(Errno.EINVAL, -1));
    } else {
      getContext().getLog().debug("netns {} has stopped; {} dropped", m.id(), m.message());
    }
    return this;
  }
}
