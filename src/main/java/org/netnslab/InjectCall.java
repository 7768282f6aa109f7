package org.netnslab;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import akka.pattern.PromiseRef;
import akka.pattern.PromiseRef$;
import akka.util.Timeout;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.netnslab.machine.Clock;
import org.netnslab.machine.SameThread;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.uevent.InjectResult;
import org.netnslab.userns.Credentials;

/** The client's inject: one uevent sent by the netns's route, answered on a one-shot reply address. */
final class InjectCall {
    private InjectCall() {}

    /**
     * Sends one uevent (uevent_net_rcv_skb) by {@code netns}'s route. The reply address is not an actor: no hop
     * through any actor the route does not take.
     *
     * @param system the actor system
     * @param timeout the longest wait for the answer
     * @param netns the netns
     * @param sender the injecting task's credentials
     * @param payload the uevent's payload, without SEQNUM
     * @return Sent or Failed; a timeout when the model does not answer in time
     */
    static CompletionStage<InjectResult> send(
            ActorSystem<?> system, Duration timeout, NetnsHandle netns, Credentials sender, byte[] payload) {
        PromiseRef<Object> reply = PromiseRef$.MODULE$.apply(system.classicSystem(), Timeout.create(timeout));
        ActorRef<InjectResult> replyTo = Adapter.toTyped(reply.ref());
        netns.injectRoute().inject(sender, payload, Clock.nanoTime(), replyTo);
        return SameThread.of(reply.future()).thenApply(InjectResult.class::cast);
    }
}
