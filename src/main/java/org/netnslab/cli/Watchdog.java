package org.netnslab.cli;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;

/**
 * Ends a netns-lab process that could not end itself: {@link #OUT_OF_MEMORY_GRACE_NANOS} after an OutOfMemoryError
 * was reported ({@link Stops#outOfMemory}) with the process still running, when the heap is exhausted without one
 * being thrown ({@link GcOverhead}: G1 collects on and the run barely moves), or {@link #EXIT_GRACE_NANOS} after the
 * JVM's shutdown began without it ending. It then says the out-of-memory line ({@link Stops#sayOutOfMemory}), removes
 * the run's temporary folder and halts with status 1 (a stalled exit: with the status Main asked for). A signal cannot
 * do that once the heap is exhausted: the JVM cannot create the handler's thread ("Exception
 * java.lang.OutOfMemoryError occurred dispatching signal SIGINT to handler"), so only SIGKILL ended such a run.
 *
 * <p>Two daemon threads, started before the run while the heap has room: the watch (a tick every 250 ms; it allocates
 * almost nothing and takes no lock anyone else holds) decides, and the sayer says the line and halts; should the sayer
 * be blocked (on the output's lock, on stderr), the watch halts {@link #SAYING_NANOS} later itself, after removing the
 * temporary folder without its lock. Also the default handler of exceptions no thread catches: an OutOfMemoryError is
 * reported rather than printed with its stack trace (the line says it); anything else is printed as the JVM would.
 */
final class Watchdog {
    /** How long the run's own handling of a reported OutOfMemoryError may take before the watchdog ends it, ns. */
    static final long OUT_OF_MEMORY_GRACE_NANOS = 5_000_000_000L;
    /** How long the JVM's shutdown may take, ns (Akka's coordinated shutdown of a cluster's system: about 10 s). */
    static final long EXIT_GRACE_NANOS = 30_000_000_000L;
    /** How long the sayer may take to say the line and halt, ns. */
    private static final long SAYING_NANOS = 5_000_000_000L;

    private static final long TICK_MILLIS = 250;

    /** Why the watchdog ends the process. */
    private enum Why {
        OUT_OF_MEMORY,
        HEAP_EXHAUSTED,
        EXIT_STALLED
    }

    private static final Object GO = new Object();
    private static volatile Why why;
    private static volatile boolean said;

    private Watchdog() {}

    /** Starts the watch and the sayer, and sets the default handler of uncaught exceptions. */
    static void start() {
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        Thread sayer = new Thread(Watchdog::sayer, "netns-lab-watchdog-line");
        sayer.setDaemon(true);
        sayer.start();
        GcOverhead overhead = new GcOverhead();
        Thread watch = new Thread(() -> watch(collectors, memory, overhead), "netns-lab-watchdog");
        watch.setDaemon(true);
        watch.setPriority(Thread.MAX_PRIORITY);
        watch.start();
        Thread.setDefaultUncaughtExceptionHandler(Watchdog::uncaught);
    }

    /** A thread ended on an exception no one caught. */
    private static void uncaught(Thread t, Throwable e) {
        if (e instanceof OutOfMemoryError oom) {
            Stops.outOfMemory(oom); // the run, or the watchdog, says the one line
            return;
        }
        System.err.print("Exception in thread \"" + t.getName() + "\" ");
        e.printStackTrace(System.err);
    }

    private static void watch(List<GarbageCollectorMXBean> collectors, MemoryMXBean memory, GcOverhead overhead) {
        long max = Runtime.getRuntime().maxMemory();
        while (true) {
            try {
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                // no one interrupts the watch; it keeps watching
            }
            try {
                long now = System.nanoTime();
                Why w = null;
                if (Stops.outOfMemorySeen() != null && now - Stops.outOfMemoryAt() >= OUT_OF_MEMORY_GRACE_NANOS) {
                    w = Why.OUT_OF_MEMORY;
                } else if (Stops.exitStarted() && now - Stops.exitStartedAt() >= EXIT_GRACE_NANOS) {
                    w = Why.EXIT_STALLED;
                } else {
                    overhead.sample(now, collectionMillis(collectors), heapFull(memory, max));
                    w = overhead.exhausted() ? Why.HEAP_EXHAUSTED : null;
                }
                if (w != null) {
                    end(w);
                }
            } catch (Throwable e) {
                // out of memory in the watch itself: the next tick tries again
            }
        }
    }

    private static long collectionMillis(List<GarbageCollectorMXBean> collectors) {
        long ms = 0;
        for (int i = 0; i < collectors.size(); i++) { // no iterator: nothing allocated
            ms += Math.max(0, collectors.get(i).getCollectionTime());
        }
        return ms;
    }

    private static boolean heapFull(MemoryMXBean memory, long max) {
        try {
            return memory.getHeapMemoryUsage().getUsed() >= GcOverhead.HEAP_SHARE * max;
        } catch (OutOfMemoryError e) {
            return true; // not even the reading's few bytes were free
        }
    }

    /** Has the sayer end the process; ends it here if the sayer is blocked. */
    private static void end(Why w) {
        why = w;
        synchronized (GO) {
            GO.notifyAll();
        }
        long deadline = System.nanoTime() + SAYING_NANOS;
        while (!said && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                // keep waiting for the sayer until the deadline
            }
        }
        if (!said) {
            Stops.removeTemporary();
        }
        Runtime.getRuntime().halt(status(w));
    }

    private static int status(Why w) {
        int asked = Stops.requestedExit();
        return w == Why.EXIT_STALLED && asked >= 0 ? asked : Main.EXIT_FAILED;
    }

    private static void sayer() {
        Why w;
        synchronized (GO) {
            while ((w = why) == null) {
                try {
                    GO.wait();
                } catch (InterruptedException e) {
                    // no one interrupts the sayer; it keeps waiting for the watch
                }
            }
        }
        try {
            Stops.releaseReserve(); // room for the line
            OutOfMemoryError seen = Stops.outOfMemorySeen();
            if (w == Why.HEAP_EXHAUSTED) {
                Stops.sayOutOfMemory("the heap stayed full, garbage collection taking over "
                        + Math.round(GcOverhead.GC_SHARE * 100) + "% of the last "
                        + GcOverhead.WINDOW_NANOS / 1_000_000_000L + " s");
            } else if (seen != null) {
                Stops.sayOutOfMemory(seen.getMessage());
            } else {
                Stops.removeTemporary(); // a stalled exit: the one line, if any, was said before it
            }
            said = true;
            System.err.flush();
        } finally {
            Runtime.getRuntime().halt(status(w));
        }
    }
}
