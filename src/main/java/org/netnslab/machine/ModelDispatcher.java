package org.netnslab.machine;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.DispatcherSelector;
import akka.actor.typed.Extension;
import akka.actor.typed.ExtensionId;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.ActorContext;
import akka.dispatch.Dispatcher;
import com.typesafe.config.Config;
import java.util.concurrent.Executor;

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
     * lookup), which the churn profile showed on every netns spawn; and the dispatcher they select, looked up once.
     */
    private record Cached(Props props, Executor dispatcher, Executor executor) implements Extension {}

    private static final ExtensionId<Cached> CACHED = new ExtensionId<>() {
        @Override
        public Cached createExtension(ActorSystem<?> system) {
            DispatcherSelector selector = DispatcherSelector.fromConfig(
                    ModelDispatcher.id(system.settings().config()));
            Executor dispatcher = system.dispatchers().lookup(selector);
            // A classic Dispatcher's execute counts each task in the dispatcher's inhabitants, one atomic counter
            // every thread of the pool updates twice per task: live TC1's listener wake-ups bounced its cache line
            // between the cores (14% of the model threads' samples). Its executor service, read at each task since
            // the dispatcher replaces it when it shuts down idle, is the same pool without the count. The count
            // only delays that shutdown, and the model's actors, which make every such task, inhabit the pool.
            Executor executor = dispatcher instanceof Dispatcher d
                    ? task -> {
                        d.executorService().execute(task);
                        ParkedWorkers.wakeOneIfQueued();
                    }
                    : dispatcher;
            return new Cached(selector, dispatcher, executor);
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
     * The model dispatcher's threads as an executor, for work that runs as the model's actors do but without a
     * mailbox (a listener's reads: {@code netlink.DirectReader}). Live only: virtual execution runs such work on its
     * engine. Tasks run in no particular order; a task may run on the submitting thread's own queue first. On a
     * fork-join pool it keeps the pool's workers busy while work is queued ({@link ParkedWorkers}).
     *
     * @param system the actor system the model runs in
     * @return the executor; it throws {@link java.util.concurrent.RejectedExecutionException} once the system is
     *     terminated
     */
    public static Executor executor(ActorSystem<?> system) {
        return CACHED.apply(system).executor();
    }

    /**
     * @param system a live actor system
     * @return the model dispatcher's threads: a fork-join pool's parallelism, a thread pool's largest size; -1 for
     *     any other executor
     */
    public static int threads(ActorSystem<?> system) {
        if (CACHED.apply(system).dispatcher() instanceof Dispatcher dispatcher) {
            java.util.concurrent.ExecutorService pool =
                    dispatcher.executorService().executor();
            if (pool instanceof java.util.concurrent.ForkJoinPool fj) {
                return fj.getParallelism();
            }
            if (pool instanceof java.util.concurrent.ThreadPoolExecutor tp) {
                return tp.getMaximumPoolSize();
            }
        }
        return -1;
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
