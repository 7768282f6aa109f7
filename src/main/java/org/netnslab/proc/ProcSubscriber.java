package org.netnslab.proc;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Scheduler;
import akka.actor.typed.javadsl.AskPattern;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.netnslab.machine.SameThread;
import org.netnslab.userns.Credentials;

/**
 * How a task of init_net subscribes to the proc connector: bind() a NETLINK_CONNECTOR socket to
 * CN_IDX_PROC ({@link ProcConnector.Join}), then send PROC_CN_MCAST_LISTEN with its event mask
 * ({@link ProcConnector.Subscribe}) and wait for the subscription to take effect.
 */
public final class ProcSubscriber {
    private ProcSubscriber() {}

    /**
     * @param connector the proc connector
     * @param caller the subscribing task's credentials; outside the initial user namespace the kernel
     *     ignores the subscription, so the stage fails with a timeout
     * @param mask PROC_EVENT_* bits wanted ({@link ProcEvents}), or null for the legacy form (every event); a
     *     connector before v6.6 ({@link ProcListenerTable.Accounting#GLOBAL_COUNT}) ignores a mask, and the stage
     *     fails with a timeout
     * @param options the socket's receive buffer and NETLINK_NO_ENOBUFS
     * @param timeout longest wait for each of the two answers
     * @param scheduler the actor system's scheduler
     * @return the joined socket once the subscription is acknowledged; fails with an
     *     {@link IllegalStateException} naming the reason when the bind fails, or with a
     *     {@link java.util.concurrent.TimeoutException} naming what the kernel ignores when no answer comes
     */
    public static CompletionStage<ProcConnector.Joined> listen(
            ActorRef<ProcConnector.Command> connector,
            Credentials caller,
            Integer mask,
            org.netnslab.netlink.SocketOptions options,
            Duration timeout,
            Scheduler scheduler) {
        // the connector is shared by every subscriber: a null here would fail it, not this call
        java.util.Objects.requireNonNull(caller, "procEvents: caller is null");
        java.util.Objects.requireNonNull(options, "procEvents: options is null");
        CompletionStage<ProcConnector.JoinReply> join = SameThread.of(
                AskPattern.ask(connector, r -> new ProcConnector.Join(true, options, r), timeout, scheduler));
        return join.thenCompose(reply -> {
            if (reply instanceof ProcConnector.JoinFailed f) {
                return CompletableFuture.failedFuture(new IllegalStateException(f.reason()));
            }
            ProcConnector.Joined joined = (ProcConnector.Joined) reply;
            CompletionStage<Done> subscribed = SameThread.of(AskPattern.ask(
                    connector,
                    r -> new ProcConnector.Subscribe(
                            joined.socket(), caller, true, ProcSubscription.encode(ProcEvents.MCAST_LISTEN, mask), r),
                    timeout,
                    scheduler));
            return subscribed.thenApply(done -> joined).exceptionallyCompose(e -> {
                Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                        ? e.getCause()
                        : e;
                if (!(cause instanceof java.util.concurrent.TimeoutException)) {
                    return CompletableFuture.failedFuture(cause);
                }
                // the kernel acks nothing it ignores, so a wait is all a caller sees: name what it ignores
                java.util.concurrent.TimeoutException named = new java.util.concurrent.TimeoutException(
                        "the proc connector acknowledged no subscription within " + timeout.toMillis() + " ms: the"
                                + " kernel ignores one from a caller outside the initial user or pid namespace, and,"
                                + " before v6.6 (proc-connector.accounting = global-count), any but the 4-byte LISTEN"
                                + " (a null mask)" + (mask == null ? "" : "; this one asked for mask " + mask));
                named.initCause(cause);
                return CompletableFuture.failedFuture(named);
            });
        });
    }

    /**
     * The message-count form, a model simplification ({@link org.netnslab.netlink.SocketOptions#holding}).
     *
     * @param connector the proc connector
     * @param caller the subscribing task's credentials
     * @param mask PROC_EVENT_* bits wanted, or null for the legacy form
     * @param queueCapacity about how many events the socket holds before it overruns, at least 1
     * @param timeout longest wait for each of the two answers
     * @param scheduler the actor system's scheduler
     * @return as {@link #listen(ActorRef, Credentials, Integer, org.netnslab.netlink.SocketOptions, Duration, Scheduler)}
     */
    public static CompletionStage<ProcConnector.Joined> listen(
            ActorRef<ProcConnector.Command> connector,
            Credentials caller,
            Integer mask,
            int queueCapacity,
            Duration timeout,
            Scheduler scheduler) {
        return listen(
                connector, caller, mask, org.netnslab.netlink.SocketOptions.holding(queueCapacity), timeout, scheduler);
    }
}
