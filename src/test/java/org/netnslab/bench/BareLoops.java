package org.netnslab.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.DispatcherSelector;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The ceiling TC1 live runs are compared with: TC1's message shape with plain Akka Typed
 * actors and no model (no SEQNUM, no socket, no receive queue, no recorder). Not a test and not run in
 * CI: a benchmark main, run by hand.
 *
 * <ul>
 *   <li><b>three-actor</b> (per-netns-2018's shape): per netns an injector, an owner and a listener;
 *       each transaction is injector -> owner, then owner -> listener and owner -> injector (the ack);
 *       the injector sends the next one when the ack arrives.</li>
 *   <li><b>single-owner</b> (kernel-4.18's shape): as three-actor, but every injector sends to ONE owner
 *       actor (uevent_sock_mutex's owner), which forwards to the injector's own listener.</li>
 * </ul>
 *
 * Every actor runs on a fork-join dispatcher configured as the model's ({@code netns-lab.model-dispatcher}:
 * one thread per core, throughput 64). Prints, per shape, each run's transactions/s (total
 * transactions over the wall time from the first send to the last ack) and the median of the runs
 * after the first (warm-up).
 *
 * <p>Usage (after {@code mvn -B -q -o -DskipTests package test-compile}):
 * {@code java -Xms1g -Xmx4g -XX:+UseParallelGC -cp target/netns-lab.jar:target/test-classes
 * org.netnslab.bench.BareLoops [netns=1000] [transactions-per-netns=10000] [runs=4]}
 */
public final class BareLoops {
    private BareLoops() {}

    /** The owner's protocol: one injection. */
    private record Inject(ActorRef<Listener.Msg> listener, ActorRef<Injector.Command> ack) {}

    /** Runs the shapes; see the class Javadoc for the arguments. */
    public static void main(String[] args) throws Exception {
        String usage =
                "usage: BareLoops [netns>=1, default 1000] [transactions-per-netns>=1, default 10000] [runs>=2, default 4]";
        int netns = (int) arg(args, 0, "netns", 1000, 1, usage);
        long perNetns = arg(args, 1, "transactions-per-netns", 10_000, 1, usage);
        int runs = (int) arg(args, 2, "runs", 4, 2, usage);
        ActorSystem<Void> system = ActorSystem.create(
                Behaviors.empty(),
                "bare-loops",
                ConfigFactory.parseString(
                                "bench-dispatcher { type = Dispatcher, executor = fork-join-executor, throughput = 64\n"
                                        + "  fork-join-executor { parallelism-min = 2, parallelism-factor = 1.0, parallelism-max = 64 } }\n"
                                        + "akka.loglevel = WARNING")
                        .withFallback(ConfigFactory.load()));
        try {
            System.out.printf(
                    Locale.ROOT,
                    "machine: %d cpus, java %s; %d netns x %d transactions%n",
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"),
                    netns,
                    perNetns);
            for (boolean singleOwner : new boolean[] {false, true}) {
                List<Double> rates = new ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    rates.add(run(system, netns, perNetns, singleOwner));
                }
                System.out.printf(
                        Locale.ROOT,
                        "%-13s runs tx/s: %s; median of runs 2..%d: %,.0f tx/s%n",
                        singleOwner ? "single-owner" : "three-actor",
                        format(rates),
                        runs,
                        median(rates.subList(1, rates.size())));
            }
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /** @return transactions per second of one run */
    private static double run(ActorSystem<Void> system, int netns, long perNetns, boolean singleOwner)
            throws Exception {
        CountDownLatch done = new CountDownLatch(netns);
        LongAdder received = new LongAdder();
        CompletableFuture<List<ActorRef<Injector.Command>>> spawned = new CompletableFuture<>();
        Props props = DispatcherSelector.fromConfig("bench-dispatcher");
        ActorRef<Void> parent = system.systemActorOf(
                Behaviors.<Void>setup(ctx -> {
                    ActorRef<Inject> shared = singleOwner ? ctx.spawn(Owner.create(), "owner", props) : null;
                    List<ActorRef<Injector.Command>> injectors = new ArrayList<>();
                    for (int i = 0; i < netns; i++) {
                        ActorRef<Listener.Msg> listener = ctx.spawn(Listener.create(received), "listener-" + i, props);
                        ActorRef<Inject> owner = singleOwner ? shared : ctx.spawn(Owner.create(), "owner-" + i, props);
                        injectors.add(
                                ctx.spawn(Injector.create(owner, listener, perNetns, done), "injector-" + i, props));
                    }
                    spawned.complete(injectors);
                    return Behaviors.empty();
                }),
                "bare-" + System.nanoTime(),
                Props.empty());
        List<ActorRef<Injector.Command>> injectors = spawned.get(60, TimeUnit.SECONDS);
        long start = System.nanoTime();
        injectors.forEach(i -> i.tell(Injector.Start.INSTANCE));
        if (!done.await(600, TimeUnit.SECONDS)) {
            throw new IllegalStateException("bare loop did not finish in 600 s");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        system.classicSystem().stop(akka.actor.typed.javadsl.Adapter.toClassic(parent));
        return netns * perNetns / seconds;
    }

    /** An injector: one injection in flight, the next one at the ack. */
    private static final class Injector extends AbstractBehavior<Injector.Command> {
        sealed interface Command permits Start, Ack {}

        enum Start implements Command {
            INSTANCE
        }

        enum Ack implements Command {
            INSTANCE
        }

        private final ActorRef<Inject> owner;
        private final Inject inject;
        private final CountDownLatch done;
        private long remaining;

        static Behavior<Command> create(
                ActorRef<Inject> owner, ActorRef<Listener.Msg> listener, long count, CountDownLatch done) {
            return Behaviors.setup(ctx -> new Injector(ctx, owner, listener, count, done));
        }

        private Injector(
                ActorContext<Command> ctx,
                ActorRef<Inject> owner,
                ActorRef<Listener.Msg> listener,
                long count,
                CountDownLatch done) {
            super(ctx);
            this.owner = owner;
            this.inject = new Inject(listener, ctx.getSelf());
            this.remaining = count;
            this.done = done;
        }

        @Override
        public Receive<Command> createReceive() {
            return newReceiveBuilder()
                    .onMessageEquals(Start.INSTANCE, this::next)
                    .onMessageEquals(Ack.INSTANCE, () -> {
                        remaining--;
                        return next();
                    })
                    .build();
        }

        private Behavior<Command> next() {
            if (remaining == 0) {
                done.countDown();
                return Behaviors.stopped();
            }
            owner.tell(inject);
            return this;
        }
    }

    /** An owner: forwards each injection to its listener and acks it. */
    private static final class Owner {
        static Behavior<Inject> create() {
            return Behaviors.receiveMessage(m -> {
                m.listener().tell(Listener.Msg.INSTANCE);
                m.ack().tell(Injector.Ack.INSTANCE);
                return Behaviors.same();
            });
        }
    }

    /** A listener: counts what it receives. */
    private static final class Listener {
        enum Msg {
            INSTANCE
        }

        static Behavior<Msg> create(LongAdder received) {
            return Behaviors.receiveMessage(m -> {
                received.increment();
                return Behaviors.same();
            });
        }
    }

    static String format(List<Double> rates) {
        List<String> s = new ArrayList<>();
        rates.forEach(r -> s.add(String.format(Locale.ROOT, "%,.0f", r)));
        return String.join(" ", s);
    }

    /**
     * Argument {@code i}, or {@code dflt} when absent; a value that is not an integer of at least {@code min} ends
     * the JVM with exit 2 and a line naming it (runs: the median leaves out the first, a warm-up, so at least 2).
     */
    static long arg(String[] args, int i, String name, long dflt, long min, String usage) {
        if (args.length <= i) {
            return dflt;
        }
        try {
            long v = Long.parseLong(args[i]);
            if (v >= min && v <= Integer.MAX_VALUE) {
                return v;
            }
        } catch (NumberFormatException e) {
            System.err.println(name + ": not an integer: " + e.getMessage());
        }
        System.err.println(name + " must be an integer in " + min + ".." + Integer.MAX_VALUE + ", got '" + args[i]
                + "'\n" + usage);
        System.exit(2);
        return dflt;
    }

    static double median(List<Double> values) {
        List<Double> v = new ArrayList<>(values);
        Collections.sort(v);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}
