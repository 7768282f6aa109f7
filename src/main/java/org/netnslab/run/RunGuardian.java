package org.netnslab.run;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PostStop;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The root of one scenario run: spawns a {@link DesignGuardian} per design, watches it, and answers a
 * {@link StopDesign} only once the guardian has terminated. The answer comes from the Terminated
 * notification, which Akka delivers after the guardian and all its descendants have stopped and been
 * removed from the tree, so nothing of one design can run into the next design's timing.
 *
 * <p>It completes the future it was created with on its own PostStop, after every design guardian
 * still alive has stopped. It fails only on a bug; it then stops (the typed default) and so do the
 * designs under it.
 */
public final class RunGuardian extends AbstractBehavior<RunGuardian.Command> {

    /** The guardian's protocol. */
    public sealed interface Command permits StartDesign, StopDesign, Stop, DesignStopped {}

    /**
     * @param name the design guardian's actor name, unique in the run
     * @param replyTo gets the new design guardian
     */
    public record StartDesign(String name, ActorRef<ActorRef<DesignGuardian.Command>> replyTo) implements Command {}

    /**
     * @param design a design guardian this run guardian started
     * @param replyTo gets Done once it has terminated, with everything under it
     */
    public record StopDesign(ActorRef<DesignGuardian.Command> design, ActorRef<Done> replyTo) implements Command {}

    /** Stops the run guardian and every design still under it. */
    public enum Stop implements Command {
        INSTANCE
    }

    private record DesignStopped(ActorRef<DesignGuardian.Command> design) implements Command {}

    private final CompletableFuture<Done> stopped;
    private final Map<ActorRef<DesignGuardian.Command>, ActorRef<Done>> stopping = new HashMap<>();

    /**
     * @param stopped completed on the guardian's PostStop
     * @return the guardian's behaviour
     */
    public static Behavior<Command> create(CompletableFuture<Done> stopped) {
        return create(new CompletableFuture<>(), stopped);
    }

    /**
     * @param started completed when the guardian has started (a system actor starts through the /system
     *     guardian, on Akka's internal dispatcher: off the virtual engine)
     * @param stopped completed on the guardian's PostStop
     * @return the guardian's behaviour
     */
    public static Behavior<Command> create(CompletableFuture<Done> started, CompletableFuture<Done> stopped) {
        return Behaviors.setup(ctx -> {
            started.complete(Done.getInstance());
            return new RunGuardian(ctx, stopped);
        });
    }

    private RunGuardian(ActorContext<Command> ctx, CompletableFuture<Done> stopped) {
        super(ctx);
        this.stopped = stopped;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(StartDesign.class, m -> {
                    ActorRef<DesignGuardian.Command> design = getContext().spawn(DesignGuardian.create(), m.name());
                    getContext().watchWith(design, new DesignStopped(design));
                    m.replyTo().tell(design);
                    return this;
                })
                .onMessage(StopDesign.class, m -> {
                    if (getContext().getChild(m.design().path().name()).isEmpty()) {
                        m.replyTo().tell(Done.getInstance()); // it failed and stopped earlier: already gone
                    } else {
                        stopping.put(m.design(), m.replyTo());
                        getContext().stop(m.design());
                    }
                    return this;
                })
                .onMessage(DesignStopped.class, m -> {
                    ActorRef<Done> replyTo = stopping.remove(m.design());
                    if (replyTo != null) {
                        replyTo.tell(Done.getInstance());
                    }
                    return this;
                })
                .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
                .onSignal(PostStop.class, s -> {
                    stopped.complete(Done.getInstance());
                    return this;
                })
                .build();
    }
}
