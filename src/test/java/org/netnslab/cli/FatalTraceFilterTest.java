package org.netnslab.cli;

import static org.junit.Assert.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.Test;
import org.netnslab.run.RunObserver;
import org.scalatestplus.junit.JUnitSuite;

/** With the heap check off, an OutOfMemoryError in an actor prints netns-lab's one line, not Akka's trace. */
public class FatalTraceFilterTest extends JUnitSuite {
    private static final String NETNS_LAB = "netns-lab: the JVM is exiting on a fatal error in an actor in scenario"
            + " scale-1m-netns, design kernel-6.9, phase create, 27% (55,758 of 200,000); no results written; if it was an"
            + " OutOfMemoryError, give the JVM more heap\n";

    @Test
    public void akkasFatalReportAndItsStackTraceAreLeftOutTheRestPasses() {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(new FatalTraceFilter(got), true, StandardCharsets.UTF_8);
        err.println("[kernel-6.9] create: 20,000 of 200,000");
        // Akka's ActorSystemImpl.logFatalError: the line in pieces, then printStackTrace, then the same through SLF4J
        err.print("Uncaught error from thread [");
        err.print("netns-lab-netns-lab.model-dispatcher-6");
        err.print("]: ");
        err.print("Java heap space");
        err.print(", ");
        err.print("shutting down JVM since 'akka.jvm-exit-on-fatal-error' is enabled for");
        err.print(" ActorSystem[");
        err.print("netns-lab");
        err.println("]");
        err.flush();
        err.println("java.lang.OutOfMemoryError: Java heap space");
        for (int i = 0; i < 55; i++) {
            err.println("\tat akka.actor.ActorCell.invoke(ActorCell.scala:" + i + ")");
        }
        err.println("\t... 12 more");
        err.println("13:44:24.830 ERROR akka.actor.ActorSystemImpl - Uncaught error from thread [netns-lab-netns-lab"
                + ".model-dispatcher-6]: Java heap space, shutting down JVM since 'akka.jvm-exit-on-fatal-error' is enabled"
                + " for ActorSystem[netns-lab]");
        err.println("java.lang.OutOfMemoryError: Java heap space");
        err.println("\tat java.base/java.util.Arrays.copyOf(Arrays.java:3512)");
        err.print(NETNS_LAB);
        err.println(
                "14:52:55.365 WARN  akka.actor.CoordinatedShutdown - Could not addJvmShutdownHook, due to: Shutdown in"
                        + " progress");
        err.println("java.lang.IllegalStateException: printed on its own, not after Akka's report: kept");
        err.print("\r[kernel-4.18] counted  41%");
        err.flush();
        assertEquals(
                "[kernel-6.9] create: 20,000 of 200,000\n" + NETNS_LAB
                        + "java.lang.IllegalStateException: printed on its own, not after Akka's report: kept\n"
                        + "\r[kernel-4.18] counted  41%",
                got.toString(StandardCharsets.UTF_8));
    }

    /**
     * Akka's report is what comes before its System.exit: the heap held for the exit is freed as it passes, so that
     * the JVM can start the shutdown hooks (which allocates) before the hook itself runs.
     */
    @Test
    public void akkasReportFreesTheHeapHeldForTheExit() {
        Stops.running(NowRunning.scenario("a scenario", RunObserver.SILENT, false), null);
        try {
            PrintStream err =
                    new PrintStream(new FatalTraceFilter(new ByteArrayOutputStream()), true, StandardCharsets.UTF_8);
            err.println("[kernel-6.9] create: 20,000 of 200,000");
            assertEquals(true, Stops.reserveHeld());
            err.print("Uncaught error from thread [");
            err.flush();
            assertEquals(false, Stops.reserveHeld());
        } finally {
            Stops.running(null, null);
        }
    }

    @Test
    public void theFatalLineIsSaidOnce() {
        // Main's catch and the exit hook race after Akka's System.exit: only the first says it
        Stops.sayFatal(); // the first call may be this one or an earlier test's
        boolean second = Stops.sayFatal();
        assertEquals(false, second);
    }
}
