package org.netnslab.machine;

import akka.actor.AbstractScheduler;
import akka.actor.Cancellable;
import akka.event.LoggingAdapter;
import com.typesafe.config.Config;
import java.io.Closeable;
import java.util.concurrent.ThreadFactory;
import scala.concurrent.ExecutionContext;
import scala.concurrent.duration.FiniteDuration;

/**
 * Akka's {@code akka.scheduler.implementation} in virtual execution: timers (TimerScheduler, ask
 * timeouts, RCU grace periods, simulated kernel work) fire in simulated time, at ns resolution, on the
 * {@link VirtualEngine} named by {@code netns-lab.machine.engine-id}.
 */
public final class VirtualScheduler extends AbstractScheduler implements Closeable {
    private final VirtualEngine engine;

    /**
     * The constructor Akka calls.
     *
     * @param config the actor system's configuration
     * @param log unused
     * @param threadFactory unused: the engine's driver runs every timer
     */
    public VirtualScheduler(Config config, LoggingAdapter log, ThreadFactory threadFactory) {
        this.engine = VirtualEngine.lookup(config.getString("netns-lab.machine.engine-id"));
    }

    /** @return the engine whose clock this scheduler reads */
    public VirtualEngine engine() {
        return engine;
    }

    /**
     * Timers at least this far ahead (ns: 10 days) are backstops no simulated run reaches, such as the
     * runner's 20-day request limit; they are not put on the engine. Left there, an engine waiting for an
     * answer that is still on its way from one of Akka's real threads would jump to the backstop at once
     * and fire it, instead of waiting for that thread as an engine with no timed event does.
     */
    static final long NEVER_NANOS = 10L * 24 * 3600 * 1_000_000_000L;

    @Override
    public Cancellable scheduleOnce(FiniteDuration delay, Runnable runnable, ExecutionContext executor) {
        if (delay.toNanos() >= NEVER_NANOS) {
            return new Cancellable() {
                private volatile boolean cancelled;

                @Override
                public boolean cancel() {
                    boolean was = !cancelled;
                    cancelled = true;
                    return was;
                }

                @Override
                public boolean isCancelled() {
                    return cancelled;
                }
            };
        }
        VirtualEngine.Event e = engine.schedule(delay.toNanos(), () -> executor.execute(runnable));
        return new Cancellable() {
            @Override
            public boolean cancel() {
                boolean was = !e.isCancelled();
                e.cancel();
                return was;
            }

            @Override
            public boolean isCancelled() {
                return e.isCancelled();
            }
        };
    }

    @Override
    public Cancellable schedule(
            FiniteDuration initialDelay, FiniteDuration interval, Runnable runnable, ExecutionContext executor) {
        Periodic p = new Periodic(interval.toNanos(), runnable, executor);
        p.next = engine.schedule(initialDelay.toNanos(), p::fire);
        return p;
    }

    @Override
    public double maxFrequency() {
        return 1.0e9;
    }

    @Override
    public void close() {
        // nothing runs on its own: timers left in the engine are dropped with it
    }

    private final class Periodic implements Cancellable {
        private final long intervalNanos;
        private final Runnable runnable;
        private final ExecutionContext executor;
        private volatile boolean cancelled;
        private volatile VirtualEngine.Event next;

        Periodic(long intervalNanos, Runnable runnable, ExecutionContext executor) {
            this.intervalNanos = Math.max(1, intervalNanos);
            this.runnable = runnable;
            this.executor = executor;
        }

        void fire() {
            if (!cancelled) {
                executor.execute(runnable);
                next = engine.schedule(intervalNanos, this::fire);
            }
        }

        @Override
        public boolean cancel() {
            boolean was = !cancelled;
            cancelled = true;
            VirtualEngine.Event n = next;
            if (n != null) {
                n.cancel();
            }
            return was;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }
    }
}
