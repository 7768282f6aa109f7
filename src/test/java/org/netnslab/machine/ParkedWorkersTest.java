package org.netnslab.machine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@link ParkedWorkers} only ever activates a worker the pool already has: however often it is called with work
 * queued, the pool never grows past its parallelism and every task still runs.
 */
public class ParkedWorkersTest extends JUnitSuite {
    @Test
    public void withWorkQueuedItNeverGrowsThePoolAndEveryTaskRuns() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(2, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true);
        try {
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger largestPool = new AtomicInteger();
            int tasks = 200_000;
            pool.submit(() -> {
                        for (int i = 0; i < tasks; i++) {
                            ForkJoinTask.adapt(ran::incrementAndGet).fork(); // queued on this worker
                            ParkedWorkers.wakeOneIfQueued();
                            largestPool.accumulateAndGet(pool.getPoolSize(), Math::max);
                        }
                    })
                    .get(60, TimeUnit.SECONDS);
            assertTrue(pool.awaitQuiescence(60, TimeUnit.SECONDS));
            assertEquals(tasks, ran.get());
            assertTrue("pool size " + largestPool.get(), largestPool.get() <= 2);
        } finally {
            pool.shutdownNow();
        }
    }
}
