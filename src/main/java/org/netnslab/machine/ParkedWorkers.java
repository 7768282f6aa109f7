package org.netnslab.machine;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * Wakes a parked worker of the calling thread's fork-join pool while the caller's own queue holds work. Live
 * execution only (the model's dispatcher, {@link ModelDispatcher#executor}).
 *
 * <p>Why: JDK 17's {@code ForkJoinPool.WorkQueue.push} signals an idle worker only when the queue it pushes to was
 * empty (or grew). A worker that parked after a scan that found nothing stays parked while the other worker's queue
 * never empties again, and live TC1 keeps a thousand transaction chains queued. In 5 of 19 runs (per-netns-2018,
 * {@code --scale 0.5}) one of the two model threads sat parked 78% of the time, at 1.1M-1.2M against 2.0M-3.8M
 * tx/s. {@link ForkJoinPool#managedBlock} with a blocker that is done at once is the pool's public
 * way to have a parked worker activated ({@code tryCompensate}) and the count restored after.
 */
final class ParkedWorkers {
    /** Tasks between two looks, per thread: a look reads the pool's control word and this queue's size. */
    private static final int EVERY = 256;

    private static final ThreadLocal<int[]> SINCE = ThreadLocal.withInitial(() -> new int[1]);

    private static final ForkJoinPool.ManagedBlocker DONE_AT_ONCE = new ForkJoinPool.ManagedBlocker() {
        @Override
        public boolean block() {
            return true;
        }

        @Override
        public boolean isReleasable() {
            return false; // else managedBlock returns before it activates anyone
        }
    };

    private ParkedWorkers() {}

    /**
     * Called after a task was queued from the current thread: every {@link #EVERY}th call on a fork-join worker,
     * when fewer workers are active than the pool's parallelism and this worker's queue holds more than one task,
     * has a parked worker activated. A no-op on any other thread.
     */
    static void wakeOneIfQueued() {
        if (!(Thread.currentThread() instanceof ForkJoinWorkerThread worker)) {
            return;
        }
        int[] since = SINCE.get();
        if (++since[0] < EVERY) {
            return;
        }
        since[0] = 0;
        ForkJoinPool pool = worker.getPool();
        if (pool.getActiveThreadCount() < pool.getParallelism() && ForkJoinTask.getQueuedTaskCount() > 1) {
            try {
                ForkJoinPool.managedBlock(DONE_AT_ONCE);
            } catch (InterruptedException e) { // block() does not wait: only a pending interrupt gets here
                Thread.currentThread().interrupt();
            }
        }
    }
}
