package org.netnslab.jmh;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.Behaviors;
import akka.pattern.PromiseRef;
import akka.pattern.PromiseRef$;
import akka.util.Timeout;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.netnslab.NetnsLab;
import org.netnslab.netns.CreateResult;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.userns.UserNamespace;
import scala.concurrent.Await;
import scala.concurrent.duration.FiniteDuration;

/**
 * One model in live execution for a benchmark: an actor system on the JVM's threads and a
 * supervisor of one named design started by {@link NetnsLab#start}, with no simulated costs
 * (grace periods 0: one message round through the RCU actor; setup and exit costs 0). Requests are
 * sent by the benchmark thread with a one-shot reply address ({@link PromiseRef}, no actor) and
 * awaited on it: the <em>direct route</em>, against which the embedding client is compared.
 */
final class LiveModel implements AutoCloseable {
    /** Longest wait for one answer: a benchmark fails rather than hangs. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final FiniteDuration AWAIT = FiniteDuration.apply(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

    final ActorSystem<Void> system;
    final NetnsLab.Instance instance;

    /**
     * @param design a named design of reference.conf's {@code netns-lab.designs}
     */
    LiveModel(String design) {
        Config config = ConfigFactory.parseString(String.join(
                        "\n",
                        "akka.loggers = [\"akka.event.Logging$DefaultLogger\"]",
                        "akka.loglevel = WARNING",
                        "akka.log-dead-letters = 0",
                        "netns-lab.embedded.design = \"" + design + "\"",
                        "netns-lab.model.rcu.grace-period = 0ms",
                        "netns-lab.model.rcu.expedited-grace-period = 0ms",
                        "netns-lab.model.netns.setup-cost = 0ms",
                        "netns-lab.model.netns.exit-cost = 0ms"))
                .withFallback(ConfigFactory.load());
        system = ActorSystem.create(Behaviors.empty(), "jmh", config);
        instance = NetnsLab.start(system, config, TIMEOUT);
    }

    /**
     * Sends one request built around a one-shot reply address and waits for its answer on the calling
     * thread.
     *
     * @param send builds and tells the request, given the reply address
     * @return the answer
     * @throws Exception the await's timeout or interruption
     */
    @SuppressWarnings("unchecked")
    <T> T ask(Consumer<ActorRef<T>> send) throws Exception {
        PromiseRef<Object> reply = PromiseRef$.MODULE$.apply(system.classicSystem(), Timeout.create(TIMEOUT));
        send.accept(Adapter.toTyped(reply.ref()));
        return (T) Await.result(reply.future(), AWAIT);
    }

    /**
     * copy_net_ns by the direct route.
     *
     * @param owner the owning user namespace
     * @return the handle
     * @throws IllegalStateException when setup_net failed (the reason)
     * @throws Exception see {@link #ask}
     */
    NetnsHandle create(UserNamespace owner) throws Exception {
        CreateResult r =
                ask(replyTo -> instance.supervisor().tell(new NamespaceSupervisor.CreateNetns(owner, replyTo)));
        if (r instanceof NetnsHandle h) {
            return h;
        }
        throw new IllegalStateException("copy_net_ns failed: " + ((CreateResult.Failed) r).reason());
    }

    /**
     * put_net by the direct route; returns once the netns has reached net_free.
     *
     * @param id the netns id
     * @throws Exception see {@link #ask}
     */
    void release(long id) throws Exception {
        this.<akka.Done>ask(replyTo -> instance.supervisor().tell(new NamespaceSupervisor.ReleaseNetns(id, replyTo)));
    }

    /**
     * @return the live netns count (0 once every benchmark cycle dismantled what it created)
     * @throws Exception see {@link #ask}
     */
    int live() throws Exception {
        return this.<Integer>ask(replyTo -> instance.supervisor().tell(new NamespaceSupervisor.CountLive(replyTo)));
    }

    /** Stops the model, then the actor system, and waits for both. */
    @Override
    public void close() {
        try {
            instance.stop().toCompletableFuture().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("benchmark model did not stop within " + TIMEOUT, e);
        }
    }
}
