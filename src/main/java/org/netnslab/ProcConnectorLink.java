package org.netnslab;

import akka.Done;
import akka.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvent;

/**
 * A {@link NetnsLab.Client}'s way to the initial netns's proc connector (drivers/connector/cn_proc.c): looked
 * up from the supervisor when first needed and kept once found; a failed or timed-out lookup is not kept, the
 * next use asks again. Events published while the connector is not known yet wait here, in publication
 * order. Thread-safe.
 */
final class ProcConnectorLink {
    private final Supplier<CompletionStage<ActorRef<ProcConnector.Command>>> lookUp;
    private final Object lock = new Object();
    /** The proc connector once a lookup succeeded; null before, and after a failed one (retried). */
    private ActorRef<ProcConnector.Command> connector;
    /** The lookup under way, if any. */
    private CompletionStage<ActorRef<ProcConnector.Command>> lookup;
    /** Events published while the connector is not known yet, in publication order. */
    private final List<Pending> backlog = new ArrayList<>();

    private record Pending(ProcEvent event, CompletableFuture<Done> sent) {}

    /** @param lookUp asks the supervisor for its proc connector */
    ProcConnectorLink(Supplier<CompletionStage<ActorRef<ProcConnector.Command>>> lookUp) {
        this.lookUp = lookUp;
    }

    /** @return the proc connector, looked up unless it is known or a lookup is under way */
    CompletionStage<ActorRef<ProcConnector.Command>> connector() {
        synchronized (lock) {
            if (connector != null) {
                return CompletableFuture.completedFuture(connector);
            }
            if (lookup == null) {
                CompletionStage<ActorRef<ProcConnector.Command>> asked = lookUp.get();
                lookup = asked;
                asked.whenComplete(this::lookedUp);
                return asked;
            }
            return lookup;
        }
    }

    /**
     * Hands {@code event} to the connector, or keeps it until the lookup is over.
     *
     * @return Done once handed over; fails (and the event is dropped) when the lookup fails or times out
     */
    CompletionStage<Done> publish(ProcEvent event) {
        java.util.Objects.requireNonNull(event, "publishProcEvent: event is null");
        synchronized (lock) {
            if (connector != null) {
                connector.tell(new ProcConnector.Publish(event));
                return CompletableFuture.completedFuture(Done.getInstance());
            }
            CompletableFuture<Done> sent = new CompletableFuture<>();
            backlog.add(new Pending(event, sent));
            connector(); // starts the lookup unless one is under way; lookedUp sends the backlog
            return sent;
        }
    }

    /** The lookup is over: keep its answer (or forget the failure) and hand over the backlog in order. */
    private void lookedUp(ActorRef<ProcConnector.Command> pc, Throwable failure) {
        synchronized (lock) {
            lookup = null;
            connector = failure == null ? pc : null;
            for (Pending p : backlog) {
                if (failure == null) {
                    pc.tell(new ProcConnector.Publish(p.event()));
                    p.sent().complete(Done.getInstance());
                } else {
                    p.sent().completeExceptionally(failure);
                }
            }
            backlog.clear();
        }
    }
}
