package org.netnslab.netns;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;

/**
 * A group of netns actors between the {@link NamespaceSupervisor} and the netns (the Akka IoT
 * tutorial's device group): it spawns the netns the supervisor places in it, watches them, tells the
 * supervisor when one stops, and routes the supervisor's messages to them by id (found by name in
 * Akka's own child table: the group keeps no map of its own). It holds at most the
 * supervisor's group size of children, so no parent holds the whole population. A failure stops it
 * and its netns (the typed default); the supervisor watches it.
 */
final class NetnsGroup extends AbstractBehavior<NetnsGroup.Command> {

    /** The group's protocol. */
    sealed interface Command permits Spawn, Deliver, PutAll {}

    /**
     * Spawns netns {@code id} as a child.
     *
     * @param id the netns id
     * @param netns its behaviour ({@link NetnsActor#create})
     */
    record Spawn(long id, Behavior<NetNamespace.Command> netns) implements Command {}

    /**
     * Passes {@code message} to netns {@code id}. When that netns has already stopped, a tagged uevent is
     * answered EINVAL (its device is gone with it) and anything else is dropped.
     */
    record Deliver(long id, NetNamespace.Command message) implements Command {}

    /** The creating process's put_net on every netns of the group (the supervisor's ReleaseAll). */
    enum PutAll implements Command {
        INSTANCE
    }

    private final ActorRef<NamespaceSupervisor.Command> supervisor;
    /** A child's name: {@code netns-<id>}; the children are found by name in Akka's own child table, no second map. */
    private static final String PREFIX = "netns-";

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
                    getContext().watch(ModelDispatcher.spawn(getContext(), m.netns(), PREFIX + m.id()));
                    return this;
                })
                .onMessage(Deliver.class, this::onDeliver)
                .onMessageEquals(PutAll.INSTANCE, () -> {
                    getContext().getChildren().forEach(c -> netns(c).tell(NetNamespace.Put.CREATOR));
                    return this;
                })
                .onSignal(
                        Terminated.class,
                        t -> { // ChildFailed too: a failed netns has stopped as well
                            supervisor.tell(new NamespaceSupervisor.NetnsStopped(
                                    Long.parseLong(t.getRef().path().name().substring(PREFIX.length()))));
                            return this;
                        })
                .build();
    }

    @SuppressWarnings("unchecked")
    private static ActorRef<NetNamespace.Command> netns(ActorRef<Void> child) {
        return (ActorRef<NetNamespace.Command>) (ActorRef<?>) child;
    }

    private Behavior<Command> onDeliver(Deliver m) {
        ActorRef<NetNamespace.Command> child =
                getContext().getChild(PREFIX + m.id()).map(NetnsGroup::netns).orElse(null);
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
