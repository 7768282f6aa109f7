package org.netnslab.machine;

import akka.actor.typed.Behavior;
import akka.actor.typed.BehaviorInterceptor;
import akka.actor.typed.PostStop;
import akka.actor.typed.Signal;
import akka.actor.typed.TypedActorContext;
import akka.actor.typed.javadsl.Behaviors;

/**
 * Runs a callback at an actor's PostStop, whatever behaviour it has moved to by then: after its
 * children have stopped, once per actor, for a stop of any cause (stopped by itself or its parent,
 * or failed).
 *
 * @param <T> the actor's protocol
 */
public final class OnStop<T> extends BehaviorInterceptor<T, T> {
    private final Runnable stopped;

    private OnStop(Class<T> protocol, Runnable stopped) {
        super(protocol);
        this.stopped = stopped;
    }

    /**
     * @param protocol the actor's message type
     * @param behavior the actor's behaviour
     * @param stopped run on the actor's thread at its PostStop; an exception it throws is logged by Akka
     * @param <T> the actor's protocol
     * @return {@code behavior} with the callback
     */
    public static <T> Behavior<T> wrap(Class<T> protocol, Behavior<T> behavior, Runnable stopped) {
        return Behaviors.intercept(() -> new OnStop<>(protocol, stopped), behavior);
    }

    @Override
    public Behavior<T> aroundReceive(TypedActorContext<T> ctx, T msg, ReceiveTarget<T> target) {
        return target.apply(ctx, msg);
    }

    @Override
    public Behavior<T> aroundSignal(TypedActorContext<T> ctx, Signal signal, SignalTarget<T> target) {
        Behavior<T> next = target.apply(ctx, signal);
        if (signal instanceof PostStop) {
            stopped.run();
        }
        return next;
    }
}
