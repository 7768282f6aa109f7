package org.netnslab.machine;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.DispatcherSelector;
import akka.actor.typed.Extension;
import akka.actor.typed.ExtensionId;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.ActorContext;
import com.typesafe.config.Config;

/**
 * The dispatcher the model's actors run on: the dispatcher block named by {@code netns-lab.dispatcher}
 * (reference.conf: {@code netns-lab.model-dispatcher}, a fork-join pool of its own), so that a busy
 * model does not take the threads of the embedding application's actors on Akka's default dispatcher,
 * nor they the model's. In Akka Typed a child spawned without {@link Props} runs on the default
 * dispatcher, not on its parent's: every model actor is spawned through {@link #spawn}. Virtual
 * execution runs this dispatcher on the simulated engine too ({@link VirtualSystem}).
 */
public final class ModelDispatcher {
    /** The configuration key naming the dispatcher block. */
    public static final String KEY = "netns-lab.dispatcher";

    /**
     * The props, built once per actor system: building them reads the configuration (a path parse and
     * lookup), which the churn profile showed on every netns spawn.
     */
    private record Cached(Props props) implements Extension {}

    private static final ExtensionId<Cached> CACHED = new ExtensionId<>() {
        @Override
        public Cached createExtension(ActorSystem<?> system) {
            return new Cached(DispatcherSelector.fromConfig(
                    ModelDispatcher.id(system.settings().config())));
        }
    };

    private ModelDispatcher() {}

    /**
     * @param config the actor system's configuration
     * @return the id (configuration path) of the model's dispatcher
     * @throws com.typesafe.config.ConfigException.WrongType when the key is not a string
     */
    public static String id(Config config) {
        return config.hasPath(KEY) ? config.getString(KEY) : "akka.actor.default-dispatcher";
    }

    /**
     * @param system the actor system the model runs in
     * @return the props that put an actor on the model's dispatcher
     */
    public static Props props(ActorSystem<?> system) {
        return CACHED.apply(system).props();
    }

    /**
     * Spawns a model actor as a child of {@code ctx}'s actor, on the model's dispatcher.
     *
     * @param ctx the parent's context
     * @param behavior the child's behaviour
     * @param name the child's name, unique among its siblings
     * @param <T> the child's protocol
     * @return the child
     * @throws akka.actor.InvalidActorNameException when the name is taken or malformed
     */
    public static <T> ActorRef<T> spawn(ActorContext<?> ctx, Behavior<T> behavior, String name) {
        return ctx.spawn(behavior, name, props(ctx.getSystem()));
    }
}
