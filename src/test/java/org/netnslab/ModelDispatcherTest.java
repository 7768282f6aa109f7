package org.netnslab;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.DispatcherSelector;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import akka.dispatch.MessageDispatcher;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.machine.ModelDispatcher;
import org.netnslab.netns.ExitAction;
import org.netnslab.netns.LifecycleProbe;
import org.netnslab.netns.ModelSettings;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.Net;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.netns.PernetOperations;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The model runs on netns-lab.dispatcher, apart from the application's actors: with every thread of one
 * dispatcher held by a latch, the other still answers. Both pools have exactly two threads here.
 */
public class ModelDispatcherTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit =
            new TestKitJunitResource(ConfigFactory.parseString("""
      akka.actor.default-dispatcher {
        executor = thread-pool-executor
        thread-pool-executor.fixed-pool-size = 2
      }
      netns-lab.model-dispatcher {
        executor = thread-pool-executor
        thread-pool-executor.fixed-pool-size = 2
      }
      """).withFallback(ConfigFactory.load()));

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final int THREADS = 2;
    private static final UserNamespace USERNS = UserNamespace.INIT.createChild(1, 1000);

    /** Takes a thread of its dispatcher until {@code release} opens; {@code entered} counts those held. */
    private static Behavior<String> blocker(CountDownLatch entered, CountDownLatch release) {
        return Behaviors.receiveMessage(m -> {
            entered.countDown();
            release.await(); // the point of the test: hold the thread
            return Behaviors.same();
        });
    }

    private record Ping(ActorRef<String> replyTo) {}

    /** Answers with the name of the thread it ran on. */
    private static Behavior<Ping> threadReporter() {
        return Behaviors.receiveMessage(p -> {
            p.replyTo().tell(Thread.currentThread().getName());
            return Behaviors.same();
        });
    }

    /** Holds every thread of the dispatcher {@code props} selects; returns the latch that releases them. */
    private static CountDownLatch holdAllThreads(Props props, String name) throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(THREADS);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < THREADS; i++) {
            testKit.spawn(blocker(entered, release), name + "-" + i, props).tell("block");
        }
        assertTrue("each blocker holds one of the " + THREADS + " threads", entered.await(10, TimeUnit.SECONDS));
        return release;
    }

    @Test
    public void aBusyModelDoesNotStarveTheApplicationsActors() throws Exception {
        NetnsLab.Instance lab =
                NetnsLab.start(testKit.system(), testKit.system().settings().config(), Duration.ofSeconds(10));
        ActorRef<Ping> app = testKit.spawn(threadReporter(), "app-actor"); // the default dispatcher
        CountDownLatch release = holdAllThreads(ModelDispatcher.props(testKit.system()), "model-blocker");
        try {
            CompletableFuture<NetnsHandle> created =
                    lab.client().createNetns(USERNS).toCompletableFuture();
            TestProbe<String> probe = testKit.createTestProbe();
            app.tell(new Ping(probe.ref()));
            String thread = probe.receiveMessage(Duration.ofSeconds(10));
            assertTrue(thread, thread.contains("akka.actor.default-dispatcher"));
            assertFalse("the model has no thread to create the netns on", created.isDone());
            release.countDown();
            assertEquals(1, created.get(10, TimeUnit.SECONDS).id());
        } finally {
            release.countDown();
        }
        lab.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    public void theModelAnswersWhileTheApplicationsDispatcherIsHeldAndRunsOnItsOwn() throws Exception {
        List<String> threads = new CopyOnWriteArrayList<>();
        PernetOperations where = new PernetOperations() {
            @Override
            public String name() {
                return "thread-recorder";
            }

            @Override
            public void init(Net net) {
                threads.add("init " + Thread.currentThread().getName()); // on the netns actor
            }

            @Override
            public ExitAction exit(Net net) {
                threads.add("exit " + Thread.currentThread().getName()); // on the cleanup batch's OpsUndo
                return ExitAction.DONE;
            }
        };
        ActorRef<NamespaceSupervisor.Command> supervisor = testKit.spawn(
                NamespaceSupervisor.create(ModelSettings.withKeys(""), List.of(where), LifecycleProbe.NONE),
                "model",
                ModelDispatcher.props(testKit.system()));
        NetnsLab.Client client = NetnsLab.client(testKit.system(), supervisor, Duration.ofSeconds(10));
        CountDownLatch release = holdAllThreads(Props.empty(), "app-blocker"); // the default dispatcher
        try {
            NetnsHandle netns = client.createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertEquals(
                    Done.getInstance(),
                    client.releaseNetns(netns.id()).toCompletableFuture().get(10, TimeUnit.SECONDS));
        } finally {
            release.countDown();
        }
        String pool = testKit.system().name() + "-netns-lab.model-dispatcher-";
        assertEquals(2, threads.size());
        assertTrue(threads.toString(), threads.get(0).startsWith("init " + pool));
        assertTrue(threads.toString(), threads.get(1).startsWith("exit " + pool));
        testKit.stop(supervisor);
    }

    /**
     * The client's stages complete on the model thread that answers, so a caller's thenApply runs there too:
     * Akka's own stages would run it as a common-pool task, which on a machine with 2 cores is a new thread
     * per callback (~10x the cost of the call, JMH).
     */
    @Test
    public void clientCallbacksRunOnTheAnsweringModelThread() throws Exception {
        NetnsLab.Instance lab =
                NetnsLab.start(testKit.system(), testKit.system().settings().config(), Duration.ofSeconds(10));
        String pool = testKit.system().name() + "-netns-lab.model-dispatcher";
        NetnsLab.Client client = lab.client();
        NetnsHandle netns = client.createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
        // Every model thread held while the request is made and the callback attached: the answer comes after.
        CountDownLatch release = holdAllThreads(ModelDispatcher.props(testKit.system()), "model-blocker-2");
        CompletableFuture<String> opened;
        try {
            opened = client.openSocket(netns)
                    .thenApply(id -> Thread.currentThread().getName())
                    .toCompletableFuture();
        } finally {
            release.countDown();
        }
        String created = opened.get(10, TimeUnit.SECONDS);
        assertTrue(created, created.startsWith(pool));
        String injected = client.inject(
                        netns,
                        org.netnslab.userns.Credentials.root(USERNS, 0),
                        "add@/devices/x\0SUBSYSTEM=net\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .thenApply(r -> Thread.currentThread().getName())
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        // per-netns-2018 (the embedded default) answers from the netns actor; when the answer is in before
        // thenApply is attached, the callback runs here instead. Never on a thread started for it.
        assertTrue(
                injected,
                injected.startsWith(pool)
                        || injected.equals(Thread.currentThread().getName()));
        // Akka's stages ran each callback as a common-pool task: with parallelism 1 (2 cores) a new thread each.
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long startedBefore = threads.getTotalStartedThreadCount();
        for (int i = 0; i < 100; i++) {
            client.inject(
                            netns,
                            org.netnslab.userns.Credentials.root(USERNS, 0),
                            "add@/devices/x\0SUBSYSTEM=net\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                    .thenApply(r -> r)
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            client.openSocket(netns).thenApply(id -> id).toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        long started = threads.getTotalStartedThreadCount() - startedBefore;
        assertTrue(started + " threads started for 200 calls", started < 20);
        lab.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /**
     * The model's executor runs a task on the model dispatcher's threads without counting it as an inhabitant: the
     * count is one atomic every thread of the pool updates, which cost live TC1 a cache-line bounce per wake-up.
     */
    @Test
    public void theModelExecutorRunsOnTheModelsThreadsWithoutCountingTheTask() throws Exception {
        ActorSystem<Void> system = ActorSystem.create(
                Behaviors.empty(), "executor-test", testKit.system().settings().config());
        try {
            MessageDispatcher dispatcher = (MessageDispatcher) system.dispatchers()
                    .lookup(DispatcherSelector.fromConfig(
                            ModelDispatcher.id(system.settings().config())));
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<String> ran = new CompletableFuture<>();
            CompletableFuture<Long> inhabitantsWhileRunning = new CompletableFuture<>();
            ModelDispatcher.executor(system).execute(() -> {
                inhabitantsWhileRunning.complete(dispatcher.inhabitants());
                ran.complete(Thread.currentThread().getName());
                try {
                    release.await(); // holds the task while the test reads the count
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            String thread = ran.get(10, TimeUnit.SECONDS);
            long counted = dispatcher.inhabitants();
            release.countDown();
            assertTrue(thread, thread.startsWith("executor-test-netns-lab.model-dispatcher-"));
            assertEquals(0L, (long) inhabitantsWhileRunning.get());
            assertEquals(0L, counted);
            // the dispatcher's own execute counts it: the count the executor leaves out
            CompletableFuture<Long> viaDispatcher = new CompletableFuture<>();
            dispatcher.execute(() -> viaDispatcher.complete(dispatcher.inhabitants()));
            assertEquals(1L, (long) viaDispatcher.get(10, TimeUnit.SECONDS));
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
