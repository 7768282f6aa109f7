package org.netnslab.netlink;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.stream.javadsl.Sink;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** A socket read without a stream receives what the stream reader receives, and ends as it does. */
public class DirectReaderTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    /** The truesize of each message (a small skb head). */
    private static final int T = 896;

    /** SOCK_MIN_RCVBUF (4608 bytes): six messages of 896 fit (the sixth overshoots), the seventh overruns. */
    private static final SocketOptions SMALL = new SocketOptions(1, RcvbufOption.SO_RCVBUF, false);

    /** The executor the reader's drains go to, run by hand: one at a time, in submission order. */
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    private final List<Long> got = new ArrayList<>();
    private final AtomicInteger closes = new AtomicInteger();

    /** An item: a message number, or -drops for the ENOBUFS. */
    private static ReceiveQueue<Long> socket() {
        ReceiveQueue<Long> q = new ReceiveQueue<>(SMALL, drops -> -drops);
        q.bind(NetlinkSettings.KERNEL);
        return q;
    }

    private CompletionStage<Done> start(ReceiveQueue<Long> q) {
        return DirectReader.start(q, closes::incrementAndGet, tasks::add, got::add);
    }

    /** @return drains run */
    private int runAll() {
        int n = 0;
        while (!tasks.isEmpty()) {
            tasks.poll().run();
            n++;
        }
        return n;
    }

    private static void deliver(ReceiveQueue<Long> q, long from, long to) {
        for (long i = from; i <= to; i++) {
            q.deliver(i, T);
        }
    }

    @Test
    public void aWakeUpDrainsTheQueueInOrderAndTheCloseEndsTheReader() {
        ReceiveQueue<Long> q = socket();
        CompletableFuture<Done> finished = start(q).toCompletableFuture();
        assertEquals("the first recvmsg, at once", 1, runAll());
        deliver(q, 1, 3);
        assertEquals("one wake-up for the three: the reader was waiting at the first only", 1, runAll());
        assertEquals(List.of(1L, 2L, 3L), got);
        deliver(q, 4, 12); // 4..9 fit (six), 10..12 overrun: one ENOBUFS for the episode's three drops
        runAll();
        assertEquals(List.of(1L, 2L, 3L, -3L, 4L, 5L, 6L, 7L, 8L, 9L), got);
        assertEquals(0, q.counters().queued());
        assertFalse(finished.isDone());
        q.close();
        assertEquals(1, runAll());
        assertTrue(finished.isDone() && !finished.isCompletedExceptionally());
        assertEquals("close(2) once", 1, closes.get());
    }

    @Test
    public void theOwnersFailureEndsTheReaderAfterWhatWasQueued() {
        ReceiveQueue<Long> q = socket();
        CompletableFuture<Done> finished = start(q).toCompletableFuture();
        deliver(q, 1, 2);
        IllegalStateException stop = new IllegalStateException("model stopped");
        q.fail(stop);
        runAll();
        assertEquals(List.of(1L, 2L), got);
        assertSame(stop, cause(finished));
        assertEquals(1, closes.get());
    }

    @Test
    public void aReceiveFaultKillsTheListenerWithTheMessageInHandAndPurgesItsSocket() {
        ReceiveQueue<Long> q = socket();
        AtomicInteger receives = new AtomicInteger();
        RuntimeException crash = new RuntimeException("listener crashed");
        q.recvFault(() -> receives.incrementAndGet() == 2 ? crash : null);
        CompletableFuture<Done> finished = start(q).toCompletableFuture();
        runAll();
        deliver(q, 1, 4);
        runAll();
        assertEquals("the second message is in hand when it dies", List.of(1L), got);
        assertSame(crash, cause(finished));
        assertTrue(q.isClosed());
        assertEquals("queue purged", 0, q.counters().queued());
        assertEquals(ReceiveQueue.Delivery.CLOSED, q.deliver(5L, T));
        assertEquals(1, closes.get());
    }

    @Test
    public void aThrowingHandlerEndsTheReaderWithItsException() {
        ReceiveQueue<Long> q = socket();
        IllegalArgumentException bad = new IllegalArgumentException("bad message");
        CompletableFuture<Done> finished = DirectReader.<Long>start(q, closes::incrementAndGet, tasks::add, m -> {
                    if (m == 2L) {
                        throw bad;
                    }
                    got.add(m);
                })
                .toCompletableFuture();
        deliver(q, 1, 3);
        runAll();
        assertEquals(List.of(1L), got);
        assertSame(bad, cause(finished));
        assertEquals(0, q.counters().queued());
        assertEquals(1, closes.get());
    }

    @Test
    public void aSecondReaderIsRefused() {
        ReceiveQueue<Long> q = socket();
        start(q);
        try {
            q.source();
            throw new AssertionError("a second reader was made");
        } catch (IllegalStateException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("one reader"));
        }
    }

    /** An executor that refuses the drain (a pool shut down): the reader fails with the refusal, its socket closed. */
    @Test
    public void aRefusedDrainEndsTheReader() {
        ReceiveQueue<Long> q = socket();
        java.util.concurrent.RejectedExecutionException refused =
                new java.util.concurrent.RejectedExecutionException("pool shut down");
        CompletableFuture<Done> finished = DirectReader.<Long>start(
                        q,
                        closes::incrementAndGet,
                        task -> {
                            throw refused;
                        },
                        got::add)
                .toCompletableFuture();
        assertSame(refused, cause(finished));
        assertTrue(q.isClosed());
        assertEquals(ReceiveQueue.Delivery.CLOSED, q.deliver(1L, T));
        assertEquals(1, closes.get());
    }

    /** A wake-up while a drain is queued does not queue another: that drain goes round once more. */
    @Test
    public void wakeUpsWhileADrainIsQueuedShareIt() {
        ReceiveQueue<Long> q = socket();
        CompletableFuture<Done> finished = start(q).toCompletableFuture();
        deliver(q, 1, 1); // the first recvmsg is still queued: no wake-up needed yet
        q.close(); // wakes the reader: the queued drain takes it
        assertEquals(1, tasks.size());
        assertEquals(1, runAll());
        assertEquals(List.of(1L), got);
        assertTrue(finished.isDone() && !finished.isCompletedExceptionally());
    }

    /**
     * Live: the sender delivers from its thread while the reader drains on a pool of two threads; the handler never
     * runs twice at once, and every message arrives, in order.
     */
    @Test
    public void onAPoolTheDrainsNeverOverlap() throws Exception {
        ReceiveQueue<Long> q = new ReceiveQueue<>(SocketOptions.holding(1_000_000), drops -> -drops);
        q.bind(NetlinkSettings.KERNEL);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.atomic.AtomicBoolean inHandler = new java.util.concurrent.atomic.AtomicBoolean();
            AtomicInteger overlaps = new AtomicInteger();
            List<Long> received = java.util.Collections.synchronizedList(new ArrayList<>());
            CompletionStage<Done> finished = DirectReader.<Long>start(q, closes::incrementAndGet, pool, m -> {
                if (!inHandler.compareAndSet(false, true)) {
                    overlaps.incrementAndGet();
                }
                received.add(m);
                inHandler.set(false);
            });
            deliver(q, 1, 200_000);
            q.close();
            finished.toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertEquals(0, overlaps.get());
            assertEquals(200_000, received.size());
            for (int i = 0; i < received.size(); i++) {
                assertEquals(i + 1, received.get(i).longValue());
            }
            assertEquals(1, closes.get());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The same deliveries, overruns included, before either reader starts, then the close: the stream reader
     * receives the same items in the same order.
     */
    @Test
    public void receivesWhatTheStreamReaderReceives() throws Exception {
        ReceiveQueue<Long> direct = socket();
        ReceiveQueue<Long> streamed = socket();
        for (ReceiveQueue<Long> q : List.of(direct, streamed)) {
            deliver(q, 1, 12); // 1..6 queued, 7..12 dropped: the socket congested
            deliver(q, 13, 14); // still congested (its queue was never emptied): dropped in the same episode
            q.close();
        }
        CompletableFuture<Done> finished = start(direct).toCompletableFuture();
        runAll();
        List<Long> read = streamed.source()
                .runWith(Sink.seq(), testKit.system())
                .toCompletableFuture()
                .get(5, TimeUnit.SECONDS);
        assertEquals(List.of(-8L, 1L, 2L, 3L, 4L, 5L, 6L), got);
        assertEquals(read, got);
        assertTrue(finished.isDone() && !finished.isCompletedExceptionally());
    }

    private static Throwable cause(CompletableFuture<Done> finished) {
        try {
            finished.get();
            throw new AssertionError("the reader completed normally");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
