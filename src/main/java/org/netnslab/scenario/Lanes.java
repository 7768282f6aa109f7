package org.netnslab.scenario;

import akka.actor.typed.ActorSystem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.run.RunFailure;

/**
 * Runs a scenario's design runs on N lanes side by side ({@code run --jobs N}): each lane is a thread
 * with its own actor system (so its own {@link org.netnslab.machine.VirtualEngine}, clock, simulated
 * machine and run guardian) that takes the next design run not yet taken, in {@link DesignRun#plan}
 * order, until none is left. Lane 0 uses the caller's actor system; the others get a new one each from
 * {@code newSystem}, terminated when the lane ends. One lane runs on the caller's thread: exactly the
 * one-after-another run of {@code --jobs 1}.
 *
 * <p>Nothing of the model is shared between lanes (the engine, its clock's thread mark, the
 * {@link org.netnslab.machine.Machine} extension, the recorders are all per actor system or per design
 * run); the observer is told from every lane's thread, so it must be thread-safe
 * ({@link org.netnslab.run.SharedObserver}). The first lane to fail stops the others from taking more
 * runs; the one they are in finishes, and that first failure is thrown.
 */
final class Lanes {
    /** Runs one design run on a lane. */
    @FunctionalInterface
    interface Body {
        /**
         * @param lane the lane's actor system and run scope
         * @param run the design run
         * @return its outcome
         * @throws RunFailure when it fails
         */
        DesignRunOutcome run(DesignRunLane lane, DesignRun run) throws RunFailure;
    }

    /** Opens a lane on an actor system. */
    @FunctionalInterface
    interface Opener {
        /**
         * @param system the lane's actor system
         * @return the lane
         * @throws RunFailure when its run guardian does not start in time
         */
        DesignRunLane open(ActorSystem<?> system) throws RunFailure;
    }

    private Lanes() {}

    /**
     * @param runs the design runs, in plan order
     * @param planSize the whole plan's size (the outcomes array's)
     * @param open opens a lane on an actor system
     * @param jobs lanes, &gt;= 1 (no more than there are runs are started)
     * @param primary lane 0's actor system (the caller's; not terminated here)
     * @param newSystem builds lane k's actor system (k &gt;= 1), the same execution as {@code primary}
     * @param body runs one design run
     * @return each run's outcome, by {@link DesignRun#index}
     * @throws RunFailure the first failure of any lane
     */
    static DesignRunOutcome[] run(
            List<DesignRun> runs,
            int planSize,
            int jobs,
            ActorSystem<?> primary,
            IntFunction<ActorSystem<?>> newSystem,
            Opener open,
            Body body)
            throws RunFailure {
        DesignRunOutcome[] out = new DesignRunOutcome[planSize];
        int lanes = Math.max(1, Math.min(jobs, runs.size()));
        if (lanes == 1) {
            try (DesignRunLane lane = open.open(primary)) {
                for (DesignRun r : runs) {
                    out[r.index()] = body.run(lane, r);
                }
            }
            return out;
        }
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int k = 0; k < lanes; k++) {
            int number = k;
            Thread t = new Thread(
                    () -> {
                        try {
                            lane(
                                    number == 0 ? primary : newSystem.apply(number),
                                    number != 0,
                                    runs,
                                    next,
                                    failed,
                                    out,
                                    open,
                                    body);
                        } catch (Throwable e) { // an actor system that did not start, an OutOfMemoryError: the run's
                            // failure
                            failed.compareAndSet(null, e);
                        }
                    },
                    "netns-lab-lane-" + k);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        try {
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed.compareAndSet(null, new RunFailure("interrupted while waiting for the design runs", e));
        }
        Throwable e = failed.get();
        if (e instanceof RunFailure f) {
            throw f;
        } else if (e instanceof Error err) {
            throw err;
        } else if (e instanceof RuntimeException re) {
            throw re;
        } else if (e != null) {
            throw new RunFailure("a lane failed: " + e, e);
        }
        return out;
    }

    private static void lane(
            ActorSystem<?> system,
            boolean own,
            List<DesignRun> runs,
            AtomicInteger next,
            AtomicReference<Throwable> failed,
            DesignRunOutcome[] out,
            Opener open,
            Body body)
            throws Exception {
        try {
            try (DesignRunLane lane = open.open(system)) {
                int i;
                while (failed.get() == null && (i = next.getAndIncrement()) < runs.size()) {
                    DesignRun r = runs.get(i);
                    out[r.index()] = body.run(lane, r);
                }
            }
        } catch (RunFailure e) {
            failed.compareAndSet(null, e);
        } finally {
            if (own) {
                VirtualSystem.terminate(system, Duration.ofSeconds(30));
            }
        }
    }
}
