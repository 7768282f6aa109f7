package org.netnslab.machine;

import akka.dispatch.DispatcherPrerequisites;
import akka.dispatch.ExecutorServiceConfigurator;
import akka.dispatch.ExecutorServiceFactory;
import com.typesafe.config.Config;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Akka's {@code executor = "org.netnslab.machine.VirtualExecutorConfigurator"}: every mailbox run of the
 * dispatcher goes to the {@link VirtualEngine} named by the dispatcher's {@code engine-id} key.
 */
public final class VirtualExecutorConfigurator extends ExecutorServiceConfigurator {
    private final VirtualEngine engine;

    /**
     * @param config the dispatcher's configuration; {@code engine-id} names the engine
     * @param prerequisites unused
     */
    public VirtualExecutorConfigurator(Config config, DispatcherPrerequisites prerequisites) {
        super(config, prerequisites);
        this.engine = VirtualEngine.lookup(config.getString("engine-id"));
    }

    @Override
    public ExecutorServiceFactory createExecutorServiceFactory(String id, ThreadFactory threadFactory) {
        return () -> new EngineExecutor(engine);
    }

    /** An ExecutorService whose only thread is the engine's driver. */
    private static final class EngineExecutor extends AbstractExecutorService {
        private final VirtualEngine engine;
        private volatile boolean shutdown;

        EngineExecutor(VirtualEngine engine) {
            this.engine = engine;
        }

        @Override
        public void execute(Runnable command) {
            engine.execute(command);
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }
}
