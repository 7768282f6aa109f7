package org.netnslab.cli;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.netnslab.report.StagedOutput;
import sun.misc.Signal;

/**
 * How the {@code netns-lab} process ends when it is stopped from outside: SIGHUP (the terminal closed),
 * SIGINT (Ctrl-C) and SIGTERM print one line on stderr naming what was interrupted ({@link NowRunning}),
 * remove the run's temporary output folder (the previous results in {@code --out} stay untouched) and exit
 * 129 / 130 / 143;
 * a JVM exit that netns-lab did not ask for (Akka's {@code jvm-exit-on-fatal-error} after an
 * OutOfMemoryError or another fatal error in an actor) prints one line and exits 1.
 *
 * <p>The handlers are {@code sun.misc.Signal} handlers, not a shutdown hook, because a hook cannot
 * tell SIGINT from SIGTERM nor choose the exit status; each ends with {@link Runtime#halt}, so no
 * other shutdown hook runs (Akka's coordinated shutdown would otherwise stop the actors the run is
 * waiting on and print their failures). A second signal within 2 s of the first is the same stop ({@code timeout}
 * signals the JVM and then its process group); a later one, while the first is still handled, halts at once.
 * Installed by {@link Main#main} only: a test that calls {@link Main#execute} keeps the JVM's own. A process that
 * cannot end itself (an exhausted heap, where no signal handler can run) is ended by the {@link Watchdog}, from what
 * is recorded here: an OutOfMemoryError reported, the exit begun, the run and its output.
 */
final class Stops {
    /** Exit status after SIGHUP: 128 + 1. */
    static final int EXIT_SIGHUP = 129;
    /** Exit status after SIGINT: 128 + 2. */
    static final int EXIT_SIGINT = 130;
    /** Exit status after SIGTERM: 128 + 15. */
    static final int EXIT_SIGTERM = 143;

    private static final AtomicBoolean STOPPING = new AtomicBoolean();
    /** Set by whichever says the fatal error first: Main's catch or the hook after Akka's exit. One line, not two. */
    private static final AtomicBoolean FATAL_SAID = new AtomicBoolean();

    private static volatile NowRunning now;
    private static volatile StagedOutput output;
    /** The folder the last run committed its results to; null before any. */
    private static volatile Path written;
    /** Heap held while a run is in progress, released on OutOfMemoryError to clean up and say so. */
    private static volatile byte[] reserve;
    /** Main is not exiting yet. */
    private static final int RUNNING = -2;
    /** Main exits by System.exit: the shutdown hook then has nothing to say. */
    private static final int BY_SYSTEM_EXIT = -1;
    /**
     * What Main does at its end: {@link #RUNNING}, {@link #BY_SYSTEM_EXIT}, or, after an OutOfMemoryError (its line
     * said), the status it halts with.
     */
    private static volatile int mainExit = RUNNING;
    /** The status Main asked to exit with, or -1 before it asked. */
    private static volatile int requestedExit = -1;
    /** Whether the JVM's shutdown has begun (Main's exit, or an exit hook running), and since when (nanoTime). */
    private static volatile boolean exitStarted;

    private static volatile long exitStartedAt;
    /** The first OutOfMemoryError reported ({@link #outOfMemory}), and since when (nanoTime). */
    private static volatile OutOfMemoryError outOfMemory;

    private static volatile long outOfMemoryAt;

    private Stops() {}

    /**
     * Installs the SIGHUP, SIGINT and SIGTERM handlers and the hook for an exit netns-lab did not ask for. A signal
     * the process was started with ignored ({@code nohup} for SIGHUP) stays ignored: the JVM does not replace that.
     */
    static void install() {
        try {
            Signal.handle(new Signal("HUP"), s -> stop("SIGHUP", EXIT_SIGHUP));
            Signal.handle(new Signal("INT"), s -> stop("SIGINT", EXIT_SIGINT));
            Signal.handle(new Signal("TERM"), s -> stop("SIGTERM", EXIT_SIGTERM));
        } catch (IllegalArgumentException e) {
            // -Xrs: the user asked the JVM to leave these signals alone; the JVM's default stays (exit 129 / 130 / 143,
            // no line)
            System.err.println("netns-lab: SIGHUP/SIGINT/SIGTERM handlers not installed (" + e.getMessage() + ")");
        }
        // The hook's thread joins a group of its own whose member array exists already (a thread started and ended in
        // it
        // here): starting it at exit, maybe with the heap exhausted, then adds it without allocating (ThreadGroup.add).
        ThreadGroup group = new ThreadGroup("netns-lab-exit");
        Thread warm = new Thread(group, () -> {}, "netns-lab-exit-warm");
        warm.start();
        try {
            warm.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the group is only less ready; the hook still works
        }
        Runtime.getRuntime().addShutdownHook(new Thread(group, Stops::unexpectedExit, "netns-lab-exit"));
    }

    /**
     * Notes the folder a run committed its results to, for a signal that comes after it ended (while the JVM shuts
     * down).
     *
     * @param dir the folder
     */
    static void written(Path dir) {
        written = dir;
    }

    /**
     * Registers the run in progress, or (nulls) none.
     *
     * @param running what it is doing
     * @param staged its output, until committed
     */
    static void running(NowRunning running, StagedOutput staged) {
        now = running;
        output = staged;
        reserve = running == null ? null : new byte[1 << 20];
    }

    /** Runs first when a signal stops netns-lab: {@code calibrate} stops its probe so it removes what it holds. */
    static volatile Runnable onStop;

    /** @return whether a signal or a fatal error has begun stopping the command */
    static boolean stopping() {
        return STOPPING.get();
    }

    /** Frees the heap held for handling an OutOfMemoryError. */
    static void releaseReserve() {
        reserve = null;
    }

    /** @return whether the heap for handling an OutOfMemoryError is still held (a run in progress, no fatal error) */
    static boolean reserveHeld() {
        return reserve != null;
    }

    /**
     * Claims the one line a fatal error gets.
     *
     * @return true for the first caller, who prints it; false once it has been said
     */
    static boolean sayFatal() {
        return FATAL_SAID.compareAndSet(false, true);
    }

    /**
     * Prints the one line of a fatal error unless it was said already; when the line cannot be built or printed
     * (the heap is exhausted again), a constant one; when not even that gets out, the claim is given back so the
     * next handler (Main's outer catch, the exit hook) can try.
     *
     * @param line builds the line
     * @return whether this call said it
     */
    static boolean sayFatal(java.util.function.Supplier<String> line) {
        if (!sayFatal()) {
            return false;
        }
        try {
            System.err.println(line.get());
            fatalOut = true;
            return true;
        } catch (Throwable e) {
            try {
                RAW_ERR.write(OUT_OF_MEMORY_LINE); // bytes made beforehand: PrintStream's encoder would allocate
                fatalOut = true;
                return true;
            } catch (Throwable again) {
                FATAL_SAID.set(false);
                return false;
            }
        }
    }

    /** Set once the claimed fatal line is printed (by {@link #sayFatal(java.util.function.Supplier)} or the hook). */
    private static volatile boolean fatalOut;

    /** How long the exit hook waits for a line another thread claimed before it halts: 2 s, in ns. */
    private static final long FATAL_WAIT_NANOS = 2_000_000_000L;

    /**
     * Waits, at most {@link #FATAL_WAIT_NANOS}, while another thread that claimed the fatal line builds and prints it:
     * the halt that follows would otherwise end the JVM before the line is out. Allocates nothing.
     */
    static void awaitFatalLine() {
        long end = System.nanoTime() + FATAL_WAIT_NANOS;
        while (!fatalOut && FATAL_SAID.get() && System.nanoTime() - end < 0) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the halt below follows at once
                return;
            }
        }
    }

    /** Standard error without PrintStream's buffers and encoder, for a line when the heap is exhausted. */
    private static final java.io.FileOutputStream RAW_ERR = new java.io.FileOutputStream(java.io.FileDescriptor.err);

    /** The line when no other can be built. */
    private static final String OUT_OF_MEMORY = "netns-lab: out of memory; no results written; " + Main.MORE_HEAP;

    private static final byte[] OUT_OF_MEMORY_LINE =
            (OUT_OF_MEMORY + System.lineSeparator()).getBytes(java.nio.charset.StandardCharsets.UTF_8);

    /**
     * Main is about to exit with its own status: by System.exit (the hooks run), or, after an OutOfMemoryError, by a
     * halt. In that window Akka's exit on the fatal error (System.exit(-1)) can still come first and run the hooks; the
     * exit hook then halts with Main's status, not leaving the JVM to end with 255. An exit that stalls ends with this
     * status too ({@link Watchdog}).
     *
     * @param status the status Main exits with
     * @param byHalt whether it halts (after an OutOfMemoryError, its line said) rather than System.exit
     */
    static void exiting(int status, boolean byHalt) {
        requestedExit = status;
        mainExit = byHalt ? status : BY_SYSTEM_EXIT;
        markExit();
    }

    /** Marks the JVM's shutdown as begun, for {@link Watchdog}: allocates nothing. */
    private static void markExit() {
        if (!exitStarted) {
            exitStartedAt = System.nanoTime();
            exitStarted = true;
        }
    }

    /** @return whether the JVM's shutdown has begun */
    static boolean exitStarted() {
        return exitStarted;
    }

    /** @return since when the JVM's shutdown has begun, nanoTime; meaningful once {@link #exitStarted()} */
    static long exitStartedAt() {
        return exitStartedAt;
    }

    /** @return the status Main asked to exit with, or -1 before it asked */
    static int requestedExit() {
        return requestedExit;
    }

    /**
     * Reports an OutOfMemoryError, wherever it was caught: the one line is said by who handles it, or, when nothing
     * ends the process, by {@link Watchdog}. Allocates nothing.
     *
     * @param e the error
     */
    static void outOfMemory(OutOfMemoryError e) {
        if (outOfMemory == null) {
            outOfMemoryAt = System.nanoTime();
            outOfMemory = e;
        }
    }

    /** @return the first OutOfMemoryError reported, or null */
    static OutOfMemoryError outOfMemorySeen() {
        return outOfMemory;
    }

    /** @return since when, nanoTime; meaningful once {@link #outOfMemorySeen()} is not null */
    static long outOfMemoryAt() {
        return outOfMemoryAt;
    }

    /**
     * Says the out-of-memory line once ({@link #sayFatal(java.util.function.Supplier)}): where the run was, what ran
     * out and what to do, and what became of the results, after removing the run's temporary folder.
     *
     * @param cause what ran out, e.g. "Java heap space"
     */
    static void sayOutOfMemory(String cause) {
        NowRunning n = now;
        String fate = n == null ? "" : fate(); // the temporary folder is gone before the text is built
        sayFatal(() -> "netns-lab: " + (n == null ? "" : n.describe() + ": ") + Main.outOfMemory(cause) + fate);
    }

    /**
     * Removes the run's temporary folder without waiting for a write or commit in progress (the process halts next
     * and that may never end); nothing once the results are committed.
     */
    static void removeTemporary() {
        StagedOutput o = output;
        if (o != null) {
            o.removeBeforeHalt();
        }
    }

    /**
     * How long after a first signal a second is the same stop, ns: {@code timeout} and a shell's job control send one
     * to the launcher's JVM and one to its process group, a few ms apart.
     */
    private static final long SAME_STOP_NANOS = 2_000_000_000L;

    /** When the first signal came (nanoTime); meaningful once {@link #STOPPING} is set. */
    private static volatile long stopAt;

    private static void stop(String signal, int status) {
        if (!STOPPING.compareAndSet(false, true)) {
            long first = stopAt; // 0: the first handler has only just begun
            if (first == 0 || System.nanoTime() - first < SAME_STOP_NANOS) {
                return; // the same stop twice: the first handler says it and halts
            }
            removeTemporary(); // a stop that hangs: halt now, leaving no temporary folder if it can
            Runtime.getRuntime().halt(status);
        }
        stopAt = System.nanoTime();
        Runnable hook = onStop;
        if (hook != null) {
            hook.run();
        }
        NowRunning n = now;
        // a progress bar leaves its line unfinished (it redraws it with \r): the message starts a line of its own
        System.err.println((n != null && n.bars() ? "\n" : "") + "netns-lab: interrupted (" + signal + ") " + where());
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }

    /** The JVM is exiting and Main did not ask for it: a fatal error in an actor (Akka exits with -1). */
    private static void unexpectedExit() {
        markExit();
        int main = mainExit;
        if (main >= 0) { // Main halts after its line; Akka's exit got here first: its status, not 255
            Runtime.getRuntime().halt(main);
        }
        if (main == BY_SYSTEM_EXIT || !STOPPING.compareAndSet(false, true)) {
            return;
        }
        releaseReserve();
        try {
            if (!sayFatal()) {
                where(); // Main says it (its catch ran first); the temporary folder still goes
                awaitFatalLine(); // and its line must be out before the halt below
                return;
            }
            System.err.println("netns-lab: the JVM is exiting on a fatal error in an actor " + where() + "; " + FATAL);
            fatalOut = true;
        } catch (
                Throwable e) { // out of memory again, as the model's threads still allocate: the constant line at least
            try {
                RAW_ERR.write(FATAL_LINE);
                fatalOut = true;
            } catch (Throwable again) {
                // nothing can be printed: the status below is all that is left to say (not rethrown: it would end this
                // hook before the halt, and the JVM would exit with Akka's 255)
            }
        } finally {
            try {
                System.err.flush();
            } catch (Throwable e) {
                // as above: the halt must run, whatever the flush does
            } finally {
                Runtime.getRuntime().halt(Main.EXIT_FAILED); // the documented status, not Akka's -1 (255)
            }
        }
    }

    /** What to do after a fatal error, said without allocating. */
    private static final String FATAL = "if it was an OutOfMemoryError, " + Main.MORE_HEAP;
    /** The hook's constant line, as bytes made beforehand. */
    private static final byte[] FATAL_LINE = ("netns-lab: the JVM is exiting on a fatal error in an actor; " + FATAL
                    + System.lineSeparator())
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);

    /** @return where the run was and what became of its results, after removing its temporary folder */
    static String where() {
        NowRunning n = now;
        if (n == null) {
            Path w = written;
            return w != null
                    ? "after the run; the results were written to " + w
                    : "while no run was in progress (none started yet); nothing written";
        }
        if (n.idle()) {
            return "while no run was in progress (none started yet, or between a worker's runs); nothing written";
        }
        // the temporary folder first: if the heap runs out building the text, it is gone all the same
        String fate = n.isWorker() ? "; nothing written here: the coordinator gets the design run back" : fate();
        return n.describe() + fate;
    }

    /** @return what became of the run's results, after removing its temporary folder unless they were committed */
    private static String fate() {
        StagedOutput o = output;
        return o == null
                ? "; nothing written"
                : o.abandon() ? "; no results written" : "; the results were written to " + o.dir();
    }
}
