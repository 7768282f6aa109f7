package org.netnslab.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.netnslab.NetnsLab;
import org.netnslab.machine.Clock;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.uevent.InjectResult;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The embedding API's {@link NetnsLab.Client} against the direct route ({@link LiveModel#ask}: the
 * same request to the same actor with a one-shot reply address, awaited on the scala future) for the
 * same two operations, on the embedded default design {@code per-netns-2018}: one injected uevent into
 * a netns owned by a child user namespace (through the netns's own actor, as
 * {@link NetnsTransactionBenchmark}), and one netns create + dismantle (as
 * {@link CreateDismantleBenchmark}). The difference is what the client adds: the ask's
 * {@link java.util.concurrent.CompletionStage} and its continuations (the guard against a stopped
 * supervisor, the conversion of the result).
 *
 * <p>Units: us per operation, one caller thread. At the end of each trial the fork prints the
 * threads the JVM started per operation and the common pool's parallelism: with parallelism 1
 * (a 2-core machine) {@link java.util.concurrent.CompletableFuture}'s default async executor starts a
 * new thread for every task.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 1)
public class EmbeddingClientBenchmark {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private LiveModel model;
    private NetnsLab.Client client;
    private NetnsHandle netns;
    private Credentials sender;
    private long operations;
    private long threadsAtStart;

    /**
     * Starts the model and creates the injection target.
     *
     * @throws Exception when the netns cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        model = new LiveModel("per-netns-2018");
        client = model.instance.client();
        UserNamespace userns = UserNamespace.INIT.createChild(1, 1000);
        netns = model.create(userns);
        sender = Credentials.root(userns, 1000);
    }

    /** Starts counting operations and JVM thread starts for this iteration. */
    @Setup(Level.Iteration)
    public void startCounting() {
        operations = 0;
        threadsAtStart = THREADS.getTotalStartedThreadCount();
    }

    /** Prints the threads started per operation in this iteration (a hand-off to a new thread each). */
    @TearDown(Level.Iteration)
    public void printThreadStarts() {
        long started = THREADS.getTotalStartedThreadCount() - threadsAtStart;
        System.out.printf(
                "  [threads started: %d over %d operations = %.2f per operation; common pool parallelism %d]%n",
                started,
                operations,
                operations == 0 ? 0.0 : (double) started / operations,
                ForkJoinPool.getCommonPoolParallelism());
    }

    /**
     * Releases the injection target, checks nothing is left live, stops the model.
     *
     * @throws Exception when the model does not answer
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        try {
            model.release(netns.id());
            int live = model.live();
            if (live != 0) {
                throw new IllegalStateException("embedding client: " + live + " netns live after the run (expected 0)");
            }
        } finally {
            model.close();
        }
    }

    private long sent(InjectResult r) {
        operations++;
        if (r instanceof InjectResult.Sent s) {
            return s.seqnum();
        }
        throw new IllegalStateException("per-netns-2018: injection refused: " + r);
    }

    /**
     * @return the SEQNUM, injected and awaited by the direct route (us per transaction)
     * @throws Exception when refused or unanswered
     */
    @Benchmark
    public long injectDirect() throws Exception {
        return sent(model.ask(replyTo ->
                netns.injectRoute().inject(sender, NetnsTransactionBenchmark.PAYLOAD, Clock.nanoTime(), replyTo)));
    }

    /**
     * @return the SEQNUM, injected by {@link NetnsLab.Client#inject} and awaited on its stage (us per transaction)
     * @throws Exception when refused or unanswered
     */
    @Benchmark
    public long injectClient() throws Exception {
        return sent(client.inject(netns, sender, NetnsTransactionBenchmark.PAYLOAD)
                .toCompletableFuture()
                .get(LiveModel.TIMEOUT.toSeconds(), TimeUnit.SECONDS));
    }

    /**
     * @return the id of the netns created and freed by the direct route (us per cycle)
     * @throws Exception when setup_net fails or the model does not answer
     */
    @Benchmark
    public long createAndDismantleDirect() throws Exception {
        NetnsHandle h = model.create(UserNamespace.INIT);
        model.release(h.id());
        operations++;
        return h.id();
    }

    /**
     * @return the id of the netns created by {@link NetnsLab.Client#createNetns} and freed by
     *     {@link NetnsLab.Client#releaseNetns} (us per cycle)
     * @throws Exception when setup_net fails or the model does not answer
     */
    @Benchmark
    public long createAndDismantleClient() throws Exception {
        NetnsHandle h = client.createNetns(UserNamespace.INIT)
                .toCompletableFuture()
                .get(LiveModel.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        client.releaseNetns(h.id()).toCompletableFuture().get(LiveModel.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        operations++;
        return h.id();
    }
}
