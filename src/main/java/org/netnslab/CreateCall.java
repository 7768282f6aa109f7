package org.netnslab;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import akka.pattern.PromiseRef;
import akka.pattern.PromiseRef$;
import akka.util.Timeout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.netnslab.machine.SameThread;
import org.netnslab.netns.CreateResult;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.settings.HoconDurations;
import org.netnslab.userns.UserNamespace;

/**
 * The client's createNetns (copy_net_ns). Its answer address outlives the caller's timeout: a netns whose setup_net
 * finishes after the caller gave up is released (put_net) instead of being held by no one until the stop, as an
 * ask's address, gone at the timeout, would leave it.
 */
final class CreateCall {
    private CreateCall() {}

    /**
     * @param system the actor system
     * @param supervisor the supervisor asked
     * @param owner the owning user namespace
     * @param timeout how long the caller waits
     * @param created registers a handle answered in time, and returns it
     * @param abandoned releases a handle answered after the timeout
     * @return the handle; fails with {@link IllegalStateException} when setup_net failed, with {@link
     *     TimeoutException} when no answer came in {@code timeout}
     */
    static CompletionStage<NetnsHandle> send(
            ActorSystem<?> system,
            ActorRef<NamespaceSupervisor.Command> supervisor,
            UserNamespace owner,
            Duration timeout,
            UnaryOperator<NetnsHandle> created,
            Consumer<NetnsHandle> abandoned) {
        PromiseRef<Object> reply = PromiseRef$.MODULE$.apply(
                system.classicSystem(),
                Timeout.create(
                        HoconDurations.schedulerLongestDelay(system.settings().config())));
        CompletableFuture<NetnsHandle> answer = new CompletableFuture<>();
        SameThread.of(reply.future()).whenComplete((c, e) -> {
            if (c instanceof NetnsHandle h) {
                synchronized (answer) { // the handle is the caller's or released, never both nor neither
                    if (!answer.isDone()) {
                        answer.complete(created.apply(h));
                        return;
                    }
                }
                abandoned.accept(h);
            } else if (c instanceof CreateResult.Failed f) {
                answer.completeExceptionally(new IllegalStateException(f.reason()));
            } else if (e != null) {
                answer.completeExceptionally(e);
            }
        });
        akka.actor.Cancellable timer = system.scheduler()
                .scheduleOnce(
                        timeout,
                        () -> {
                            synchronized (answer) {
                                answer.completeExceptionally(
                                        new TimeoutException(
                                                "createNetns: no answer in " + timeout
                                                        + " (the model is busy, or its supervisor stopped: a netns made later is released)"));
                            }
                        },
                        system.executionContext());
        answer.whenComplete((h, e) -> timer.cancel()); // an answer in time holds nothing until the timeout
        supervisor.tell(new NamespaceSupervisor.CreateNetns(owner, Adapter.toTyped(reply.ref())));
        return answer;
    }
}
