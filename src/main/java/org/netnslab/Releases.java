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

/**
 * The creator's put_net of each netns through one client of the embedding API, made once. A release answers at net_free,
 * which waits for the netns's open sockets and listeners; one that outlasts the request timeout still stands, so
 * its netns stays released here and a second release is refused. Thread-safe.
 */
final class Releases {
    /** Netns whose release through the client is pending, or outlasted its timeout. */
    private final Set<Long> released = ConcurrentHashMap.newKeySet();

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
