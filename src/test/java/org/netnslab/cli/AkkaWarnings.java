package org.netnslab.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Akka's warnings and errors (logback events of the {@code akka.*} loggers at WARN or above) logged, on any thread,
 * between this object's making and its closing, at the levels conf/logback.xml shows: what a console would show of
 * Akka.
 */
final class AkkaWarnings implements AutoCloseable {
    /** conf/logback.xml shows this logger's errors only (a connection a node closed, mostly). */
    private static final String MATERIALIZER = "akka.stream.Materializer";

    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    AkkaWarnings() {
        events.start();
        root.addAppender(events);
    }

    /** @return each warning as its logger and message, in order */
    List<String> lines() {
        synchronized (events) {
            return events.list.stream()
                    .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                    .filter(e -> e.getLoggerName().startsWith("akka"))
                    .filter(e -> !e.getLoggerName().equals(MATERIALIZER)
                            || e.getLevel().isGreaterOrEqual(Level.ERROR))
                    .map(e -> e.getLoggerName() + " - " + e.getFormattedMessage())
                    .toList();
        }
    }

    @Override
    public void close() {
        root.detachAppender(events);
        events.stop();
    }
}
