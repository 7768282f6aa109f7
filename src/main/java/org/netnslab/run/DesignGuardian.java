package org.netnslab.run;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.stream.Materializer;

/**
 * The root of one design's run: every actor the run needs (the netns supervisor, the proc connector,
 * injectors, loop workers, the phase starter) is spawned as its child, and every stream the run
 * materializes runs on its materializer, so stopping it stops all of them before the next design
 * starts. Spawned, watched and stopped by {@link RunGuardian}; it never stops by itself.
 *
 * <p>A child that fails stops (the typed default) and the guardian carries on: the run notices the
 * missing work through its stall detection, and the log says which actor failed.
 */
public final class DesignGuardian extends AbstractBehavior<DesignGuardian.Command> {

    /** The guardian's protocol. */
    public sealed interface Command permits Spawn, GetMaterializer {}

    /**
     * Spawns a child.
     *
     * @param behavior the child's behaviour
     * @param name its name, unique among the design's actors
     * @param props its props (the model's dispatcher)
     * @param replyTo gets the child's ref
     * @param <T> the child's protocol
     */
    public record Spawn<T>(Behavior<T> behavior, String name, Props props, ActorRef<ActorRef<T>> replyTo)
            implements Command {}

    /** @param replyTo gets the materializer whose streams stop with the guardian */
    public record GetMaterializer(ActorRef<Materializer> replyTo) implements Command {}

    private final Materializer materializer;

    /** @return the guardian's behaviour */
    public static Behavior<Command> create() {
        return Behaviors.setup(DesignGuardian::new);
    }

    private DesignGuardian(ActorContext<Command> ctx) {
        super(ctx);
        this.materializer = Materializer.createMaterializer(ctx);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Spawn.class, this::onSpawn)
                .onMessage(GetMaterializer.class, m -> {
                    m.replyTo().tell(materializer);
                    return this;
                })
                .build();
    }

    private Behavior<Command> onSpawn(Spawn<?> m) {
        spawn(m);
        return this;
    }

    private <T> void spawn(Spawn<T> m) {
        m.replyTo().tell(getContext().spawn(m.behavior(), m.name(), m.props()));
    }
}
