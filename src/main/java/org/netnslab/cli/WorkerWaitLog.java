package org.netnslab.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Marker;

/**
 * A worker's wait for a coordinator that is not there (yet), said in words: while a worker node has not joined, Akka
 * warns every few seconds that it could not join its seed node ({@code akka.cluster.Cluster}) and, every 20 s, that
 * the handshake with it timed out ({@code akka.remote.artery.Association}, naming Artery's exception class). Those
 * warnings about the coordinator's address are dropped while the node waits; in their place one line, at most once a
 * {@link #EVERY_NANOS minute}: {@code still no coordinator at HOST:PORT (waiting 2 min)}. Every other warning, and
 * these once the node has joined (a coordinator lost during a run), pass through.
 *
 * <p>A logback turbo filter: logback is the command line's logging backend; with another, nothing is filtered.
 */
final class WorkerWaitLog extends TurboFilter {
    /** How often at most the wait is said, ns: a minute. */
    static final long EVERY_NANOS = 60_000_000_000L;

    private final Consumer<String> say;
    private final LongSupplier clock;
    /** The coordinator's address as Akka's warnings spell it ({@code @HOST:PORT]}); null: no node is waiting. */
    private volatile String waitingFor;

    private String worker;
    private String join;
    private long since;
    private long said;

    /**
     * @param say prints a line
     * @param clock the time now, ns ({@link System#nanoTime})
     */
    WorkerWaitLog(Consumer<String> say, LongSupplier clock) {
        this.say = say;
        this.clock = clock;
    }

    /**
     * Adds a filter to the command line's logging, when it is logback.
     *
     * @param say prints a line
     * @return the filter, added or not (without logback it filters nothing)
     */
    static WorkerWaitLog install(Consumer<String> say) {
        WorkerWaitLog f = new WorkerWaitLog(say, System::nanoTime);
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            f.setContext(context);
            f.start();
            context.addTurboFilter(f);
        }
        return f;
    }

    /**
     * A node starts waiting for its coordinator.
     *
     * @param worker the node's address, for the line
     * @param join the coordinator's address, HOST:PORT
     */
    synchronized void waiting(String worker, String join) {
        this.worker = worker;
        this.join = join;
        since = clock.getAsLong();
        said = since;
        waitingFor = "@" + join + "]";
    }

    /** The node has joined its coordinator's cluster: warnings about it are the user's to read again. */
    void joined() {
        waitingFor = null;
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        String at = waitingFor;
        if (at == null || level != Level.WARN || format == null || !format.contains(at)) {
            return FilterReply.NEUTRAL;
        }
        String name = logger.getName();
        boolean noJoin = name.equals("akka.cluster.Cluster") && format.contains("Couldn't join seed nodes");
        boolean noHandshake = name.startsWith("akka.remote.artery") && format.contains("HandshakeTimeoutException");
        if (!noJoin && !noHandshake) {
            return FilterReply.NEUTRAL;
        }
        stillWaiting();
        return FilterReply.DENY;
    }

    /** Says the wait goes on, when a minute has passed since it was last said. */
    private synchronized void stillWaiting() {
        long now = clock.getAsLong();
        if (waitingFor != null && now - said >= EVERY_NANOS) {
            said = now;
            say.accept("worker " + worker + ": still no coordinator at " + join + " (waiting "
                    + (now - since) / EVERY_NANOS + " min)");
        }
    }
}
