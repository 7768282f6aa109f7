package org.netnslab;

import akka.Done;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.netnslab.netns.NetnsHandle;

/**
 * The creator's put_net of each netns through one client of the embedding API, made once. A release answers at net_free,
 * which waits for the netns's open sockets and listeners; one that outlasts the request timeout still stands, so
 * its netns stays released here and a second release is refused. Thread-safe.
 */
final class Releases {
    /** Netns whose release through the client is pending, or outlasted its timeout. */
    private final Set<Long> released = ConcurrentHashMap.newKeySet();
    /** The netns this client created and that are not freed yet, by id (ids are per supervisor). */
    private final java.util.Map<Long, NetnsHandle> created = new ConcurrentHashMap<>();

    /** @return {@code h}, remembered as this client's netns {@code h.id()} until it is freed */
    NetnsHandle created(NetnsHandle h) {
        created.put(h.id(), h);
        h.freed().thenRun(() -> created.remove(h.id(), h));
        return h;
    }

    /**
     * @param foreign why a handle is refused
     * @return a listener stream that fails at once with it, and whose materialized value fails too
     */
    static <T, M> akka.stream.javadsl.Source<T, CompletionStage<M>> refused(IllegalArgumentException foreign) {
        return akka.stream.javadsl.Source.<T>failed(foreign)
                .mapMaterializedValue(x -> CompletableFuture.failedFuture(foreign));
    }

    /**
     * A handle of another supervisor may carry the id of one of this one's netns: releasing it here would release
     * that one. Refused when this client created its own netns of that id, or when the handle's actor is not below
     * {@code supervisor} (a handle from the supervisor protocol, not created through this client, is judged by path).
     *
     * @param op the client's operation, named when {@code h} is null
     * @return the error, or null for a netns of {@code supervisor}
     * @throws NullPointerException for a null handle, naming {@code op}
     */
    IllegalArgumentException foreign(NetnsHandle h, akka.actor.typed.ActorRef<?> supervisor, String op) {
        java.util.Objects.requireNonNull(h, op + ": netns is null");
        NetnsHandle own = created.get(h.id());
        boolean below = h.actor().path().toString().startsWith(supervisor.path() + "/");
        if ((own == null && below) || h.equals(own)) {
            return null;
        }
        return new IllegalArgumentException("netns " + h.id() + " of this handle (actor "
                + h.actor().path()
                + ") is not the netns " + h.id() + " of " + supervisor.path().name()
                + ": use the client of the instance that created it");
    }

    /**
     * @param id the netns
     * @param timeout the client's request timeout, for the message
     * @param put sends the put_net and answers at net_free
     * @return {@code put}'s answer; a failure at once for a netns released already; a timeout that says the release
     *     stands
     */
    CompletionStage<Done> release(long id, Duration timeout, Supplier<CompletionStage<Done>> put) {
        if (!released.add(id)) {
            return CompletableFuture.failedFuture(new IllegalStateException("netns " + id
                    + ": released already; the creator's reference is dropped once (that release completes"
                    + " at net_free, when its sockets and listeners are closed)"));
        }
        CompletableFuture<Done> answer = new CompletableFuture<>();
        put.get().whenComplete((d, e) -> {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof TimeoutException) { // the put_net was made: only net_free is late
                TimeoutException late = new TimeoutException("netns " + id + ": not freed within " + timeout
                        + "; the release stands (net_free waits for every socket and listener still open in it)");
                late.initCause(cause);
                answer.completeExceptionally(late);
                return;
            }
            released.remove(id); // freed (a later release of the id is answered at once), or refused
            if (cause != null) {
                answer.completeExceptionally(cause);
            } else {
                answer.complete(d);
            }
        });
        return answer;
    }
}
