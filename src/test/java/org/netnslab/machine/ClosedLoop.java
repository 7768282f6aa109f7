package org.netnslab.machine;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A closed queueing network run by actors on a {@link VirtualSystem}: N task actors that each repeat
 * "compute Z outside on the CPUs, lock the mutex, compute S inside, unlock" (or, without a mutex, just the
 * two CPU steps), until the run has the completions it asked for. Everything runs on the engine's driver,
 * which is the calling test thread, so the {@link Record} needs no synchronisation.
 */
final class ClosedLoop {
    private ClosedLoop() {}

    /** Draws one task's think (outside) and service (inside) costs, ns. */
    interface Costs {
        /** @return the next think time Z, ns */
        long think();

        /** @return the next service time S, ns */
        long service();
    }

    /** Makes the costs of task {@code i} (0-based). */
    interface CostsFactory {
        /**
         * @param task the task's index
         * @return its costs
         */
        Costs forTask(int task);
    }

    /**
     * Deterministic costs.
     *
     * @param z think time, ns
     * @param s service time, ns
     * @return the same costs for every task
     */
    static CostsFactory fixed(long z, long s) {
        return i -> new Costs() {
            @Override
            public long think() {
                return z;
            }

            @Override
            public long service() {
                return s;
            }
        };
    }

    /**
     * Exponential costs, each task with its own stream split from one seeded generator (so the draws do not
     * depend on how the tasks interleave).
     *
     * @param meanZ mean think time, ns
     * @param meanS mean service time, ns
     * @param seed the seed
     * @return the factory
     */
    static CostsFactory exponential(double meanZ, double meanS, long seed) {
        SplittableRandom root = new SplittableRandom(seed);
        return i -> {
            SplittableRandom r = root.split();
            return new Costs() {
                @Override
                public long think() {
                    return Math.round(-meanZ * Math.log(1 - r.nextDouble()));
                }

                @Override
                public long service() {
                    return Math.round(-meanS * Math.log(1 - r.nextDouble()));
                }
            };
        };
    }

    /** What a run measured: completion times, lock response times, and a log of CPU steps. */
    static final class Record {
        final int target;
        final boolean logSteps;
        final List<String> steps = new ArrayList<>();
        private long[] completions = new long[1024];
        private int count;
        private double responseSum;
        private long responseCount;
        private final int responseFrom;

        Record(int target, int responseFrom, boolean logSteps) {
            this.target = target;
            this.responseFrom = responseFrom;
            this.logSteps = logSteps;
        }

        boolean done() {
            return count >= target;
        }

        void complete(long now, long response) {
            if (count == completions.length) {
                completions = Arrays.copyOf(completions, count * 2);
            }
            completions[count++] = now;
            // responses of the warm-up are left out, as the completions before {@code responseFrom} are
            if (count > responseFrom) {
                responseSum += response;
                responseCount++;
            }
        }

        /** @return the simulated time of completion {@code k} (0-based) */
        long completion(int k) {
            return completions[k];
        }

        /** @return completions recorded (at least {@link #target}) */
        int count() {
            return count;
        }

        /** @return all completion times */
        long[] completions() {
            return Arrays.copyOf(completions, count);
        }

        /** @return mean lock response time (request to unlock) after the warm-up, ns */
        double meanResponse() {
            return responseSum / responseCount;
        }

        /** @return completions per ns between completion {@code from} and the last one */
        double throughput(int from) {
            return (count - 1 - from) / (double) (completions[count - 1] - completions[from]);
        }
    }

    private enum Msg {
        START,
        THOUGHT,
        GRANTED,
        SERVED
    }

    /**
     * One closed-loop task. The mutex (or null for no lock) is shared by all tasks of a run.
     */
    private static Behavior<Msg> task(String name, Machine m, Mutex mutex, Costs costs, Record rec) {
        return Behaviors.setup(ctx -> {
            long[] requested = new long[1];
            return Behaviors.receiveMessage(msg -> {
                switch (msg) {
                    case START -> think(name, m, costs, rec, ctx.getSelf());
                    case THOUGHT -> {
                        requested[0] = m.nanoTime();
                        if (mutex == null) {
                            serve(name, m, costs, rec, ctx.getSelf());
                        } else {
                            // granted runs on the engine (at once, or after the hand-off): back to the actor by a tell
                            mutex.lock(() -> ctx.getSelf().tell(Msg.GRANTED));
                        }
                    }
                    case GRANTED -> serve(name, m, costs, rec, ctx.getSelf());
                    case SERVED -> {
                        if (mutex != null) {
                            mutex.unlock();
                        }
                        if (!rec.done()) {
                            rec.complete(m.nanoTime(), m.nanoTime() - requested[0]);
                            if (!rec.done()) {
                                think(name, m, costs, rec, ctx.getSelf());
                            }
                        }
                    }
                    default -> throw new IllegalStateException(msg.toString());
                }
                return Behaviors.same();
            });
        });
    }

    private static void think(String name, Machine m, Costs costs, Record rec, ActorRef<Msg> self) {
        m.compute(costs.think(), () -> {
            log(rec, name, "think", m);
            self.tell(Msg.THOUGHT);
        });
    }

    private static void serve(String name, Machine m, Costs costs, Record rec, ActorRef<Msg> self) {
        m.compute(costs.service(), () -> {
            log(rec, name, "serve", m);
            self.tell(Msg.SERVED);
        });
    }

    private static void log(Record rec, String name, String step, Machine m) {
        if (rec.logSteps && !rec.done()) {
            rec.steps.add(name + " " + step + " done @" + m.nanoTime());
        }
    }

    /** A run's shape. */
    record Spec(
            MachineSettings machine,
            long handoffNanos,
            int tasks,
            boolean lock,
            CostsFactory costs,
            int completions,
            int warmup,
            boolean logSteps) {}

    /**
     * Builds a virtual actor system, starts the tasks (task i named by letter 'A' + i, started in order),
     * runs the engine until {@code completions} are recorded, and terminates the system.
     *
     * @param spec the run
     * @return what it measured
     * @throws Exception when the engine stalls
     */
    static Record run(Spec spec) throws Exception {
        Record rec = new Record(spec.completions(), spec.warmup(), spec.logSteps());
        Config base = ConfigFactory.load();
        ActorSystem<Integer> sys = VirtualSystem.create(
                Behaviors.setup(ctx -> {
                    Machine m = Machine.get(ctx.getSystem());
                    return Behaviors.receiveMessage(n -> {
                        Mutex mutex = spec.lock() ? m.mutex("test_mutex") : null;
                        for (int i = 0; i < n; i++) {
                            String name = String.valueOf((char) ('A' + i));
                            ctx.spawn(task(name, m, mutex, spec.costs().forTask(i), rec), name)
                                    .tell(Msg.START);
                        }
                        return Behaviors.same();
                    });
                }),
                "closed-loop",
                base);
        VirtualEngine engine = Machine.get(sys).engine();
        try {
            Machine.get(sys).configure(spec.machine(), spec.handoffNanos());
            sys.tell(spec.tasks());
            engine.runUntil(rec::done, t -> {}, 5_000_000_000L);
        } finally {
            terminate(sys);
        }
        return rec;
    }

    /**
     * Terminates a virtual actor system, driving its engine until the termination is complete.
     *
     * @param sys the system
     * @throws Exception when the shutdown stalls
     */
    static void terminate(ActorSystem<?> sys) throws Exception {
        VirtualSystem.terminate(sys, Duration.ofSeconds(5));
    }
}
