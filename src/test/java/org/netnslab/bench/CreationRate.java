package org.netnslab.bench;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.AskPattern;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.NetnsLab;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.netns.CreateResult;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.userns.UserNamespace;

/**
 * Netns creations per second through the real {@link NamespaceSupervisor} (the "netns
 * creations per second"), live execution: copy_net_ns + setup_net of N init-owned netns, all asked
 * at once, timed from the first request to the last handle; then every netns is released (put_net)
 * and the time until the supervisor reports none left gives the dismantle rate. The design is the
 * embedding API's ({@code netns-lab.embedded.design}, reference.conf: per-netns-2018, rwsem, no setup
 * or exit cost). Not a test and not run in CI: a benchmark main, run by hand.
 *
 * <p>Usage (after {@code mvn -B -q -o -DskipTests package test-compile}):
 * {@code java -Xms1g -Xmx4g -XX:+UseParallelGC -Dlogback.configurationFile=conf/logback.xml
 * -Dconfig.file=conf/application.conf -cp target/netns-lab.jar:target/test-classes
 * org.netnslab.bench.CreationRate [netns=100000] [runs=4]}. Prints each run's creations/s and
 * dismantles/s and their medians over the runs after the first (warm-up).
 */
public final class CreationRate {
    private CreationRate() {}

    /** Runs the benchmark; see the class Javadoc for the arguments. */
    public static void main(String[] args) throws Exception {
        String usage = "usage: CreationRate [netns>=1, default 100000] [runs>=2, default 4]";
        int netns = (int) BareLoops.arg(args, 0, "netns", 100_000, 1, usage);
        int runs = (int) BareLoops.arg(args, 1, "runs", 4, 2, usage);
        Config config = ConfigFactory.load();
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "creation-rate", config);
        try {
            System.out.printf(
                    Locale.ROOT,
                    "machine: %d cpus, java %s; design %s; %d netns per run%n",
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"),
                    config.getString("netns-lab.embedded.design"),
                    netns);
            List<Double> creations = new ArrayList<>();
            List<Double> dismantles = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                double[] rates = run(system, config, netns, r);
                creations.add(rates[0]);
                dismantles.add(rates[1]);
            }
            System.out.printf(
                    Locale.ROOT,
                    "creations/s: %s; median of runs 2..%d: %,.0f%n",
                    BareLoops.format(creations),
                    runs,
                    BareLoops.median(creations.subList(1, creations.size())));
            System.out.printf(
                    Locale.ROOT,
                    "dismantles/s: %s; median of runs 2..%d: %,.0f%n",
                    BareLoops.format(dismantles),
                    runs,
                    BareLoops.median(dismantles.subList(1, dismantles.size())));
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
    }

    /** @return {creations/s, dismantles/s} of one run */
    private static double[] run(ActorSystem<Void> system, Config config, int netns, int index) throws Exception {
        ActorRef<NamespaceSupervisor.Command> supervisor =
                system.systemActorOf(NetnsLab.supervisor(config), "supervisor-" + index, ModelDispatcher.props(system));
        CountDownLatch created = new CountDownLatch(netns);
        LongAdder failed = new LongAdder();
        ActorRef<CreateResult> replies = system.systemActorOf(
                Behaviors.<CreateResult>receiveMessage(m -> {
                    if (!(m instanceof NetnsHandle)) {
                        failed.increment();
                    }
                    created.countDown();
                    return Behaviors.same();
                }),
                "creations-" + index,
                ModelDispatcher.props(system));
        long start = System.nanoTime();
        for (int i = 0; i < netns; i++) {
            supervisor.tell(new NamespaceSupervisor.CreateNetns(UserNamespace.INIT, replies));
        }
        if (!created.await(600, TimeUnit.SECONDS)) {
            throw new IllegalStateException("creations did not finish in 600 s: " + created.getCount() + " left");
        }
        double createS = (System.nanoTime() - start) / 1e9;
        if (failed.sum() > 0) {
            throw new IllegalStateException(failed.sum() + " creations failed");
        }
        long releaseStart = System.nanoTime();
        AskPattern.<NamespaceSupervisor.Command, Done>ask(
                        supervisor, NamespaceSupervisor.ReleaseAll::new, Duration.ofSeconds(600), system.scheduler())
                .toCompletableFuture()
                .get(600, TimeUnit.SECONDS);
        double releaseS = (System.nanoTime() - releaseStart) / 1e9;
        supervisor.tell(NamespaceSupervisor.Stop.INSTANCE);
        system.classicSystem().stop(akka.actor.typed.javadsl.Adapter.toClassic(replies));
        return new double[] {netns / createS, netns / releaseS};
    }
}
