package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A child JVM's stderr, read on a thread of its own while the child runs, for the tests that signal or starve it. */
final class ChildStderr {
    private ChildStderr() {}

    /**
     * Waits for {@code marker} on the child's stderr, sends it {@code signal} with kill(1), and waits for its end.
     *
     * @param signal the signal's name, e.g. {@code INT}, {@code TERM}
     * @return all the child wrote to stderr
     */
    static String signalledAt(Process child, String marker, String signal) throws Exception {
        return read(child, marker, signal, 120);
    }

    /**
     * Waits for the child to end by itself.
     *
     * @param seconds the longest wait, after which the test fails
     * @return all the child wrote to stderr
     */
    static String ended(Process child, long seconds) throws Exception {
        return read(child, null, null, seconds);
    }

    private static String read(Process child, String marker, String signal, long seconds) throws Exception {
        StringBuilder err = new StringBuilder();
        CountDownLatch seen = new CountDownLatch(1);
        Thread reader = new Thread(() -> copy(child.getErrorStream(), err, marker == null ? "" : marker, seen));
        reader.start();
        try {
            if (signal != null) {
                assertTrue("'" + marker + "' was printed: " + err, seen.await(seconds, TimeUnit.SECONDS));
                Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(child.pid()))
                        .inheritIO()
                        .start();
                assertEquals(0, kill.waitFor());
            }
            assertTrue("the child ended: " + err, child.waitFor(signal != null ? 60 : seconds, TimeUnit.SECONDS));
        } finally {
            child.destroyForcibly();
        }
        reader.join();
        synchronized (err) {
            return err.toString();
        }
    }

    /** Copies the child's stderr into {@code into}, opening {@code seen} once it contains {@code marker}. */
    static void copy(InputStream in, StringBuilder into, String marker, CountDownLatch seen) {
        try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            char[] buf = new char[4096];
            for (int n; (n = r.read(buf)) >= 0; ) {
                synchronized (into) {
                    into.append(buf, 0, n);
                    if (into.indexOf(marker) >= 0) {
                        seen.countDown();
                    }
                }
            }
        } catch (IOException e) {
            synchronized (into) {
                into.append("[reading the child's stderr failed: ").append(e).append(']');
            }
        }
    }
}
