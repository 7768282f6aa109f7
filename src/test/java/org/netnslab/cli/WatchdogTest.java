package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A run stuck on an exhausted heap ({@link StuckRun}, a child JVM) ends by itself: the {@link Watchdog} says the
 * documented out-of-memory line, once, naming where the run was, removes the temporary folder and exits 1. Without
 * it the first case printed a raw OutOfMemoryError and both hung until SIGKILL. Each waits only for the child's end
 * (the watchdog's bounds are 5 s after the error and 20 s of collection), so a busy machine makes it slower, not
 * flaky.
 */
public class WatchdogTest extends JUnitSuite {
    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private static final String ADVICE = ": give the JVM more heap, e.g. NETNS_LAB_JAVA_OPTS='-Xms1g -Xmx8g"
            + " -XX:+UseParallelGC' (these replace the launcher's -Xms1g -Xmx4g -XX:+UseParallelGC), or run a smaller"
            + " population; no results written";

    @Test
    public void anOutOfMemoryErrorThatLeavesTheRunWaitingEndsWithTheLineAndExit1() throws Exception {
        String err = stuck("thrown");
        assertTrue(err, line("Java heap space").matcher(err).matches());
    }

    @Test
    public void aHeapThatStaysFullWithoutAnErrorEndsWithTheLineAndExit1() throws Exception {
        String err = stuck("heap-full");
        assertTrue(
                err,
                line("the heap stayed full, garbage collection taking over 95% of the last 20 s")
                        .matcher(err)
                        .matches());
    }

    /** @return the one line, for what ran out, of a run {@link StuckRun} leaves in the middle of its phase */
    private static Pattern line(String cause) {
        return Pattern.compile(Pattern.quote("netns-lab: in scenario stuck, design kernel-4.18, phase counted, 42% (42"
                        + " of 100): out of memory (" + cause + ", max heap ")
                + "\\d+ MiB usable\\)"
                + Pattern.quote(ADVICE)
                + "\\R");
    }

    /** @return the stuck child's stderr, once it exited 1 leaving nothing beside its output folder */
    private String stuck(String how) throws Exception {
        Path root = tmp.getRoot().toPath();
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "-Xmx64m",
                        "-Dlogback.configurationFile=conf/logback.xml",
                        StuckRun.class.getName(),
                        root.resolve("out").toString(),
                        how)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        String text = ChildStderr.ended(child, 150);
        assertEquals(text, Main.EXIT_FAILED, child.exitValue());
        try (Stream<Path> left = Files.list(root)) {
            assertEquals("no temporary folder left", List.of(), left.toList());
        }
        return text;
    }
}
