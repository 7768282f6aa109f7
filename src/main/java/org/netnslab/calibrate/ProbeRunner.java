package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one probe program and reads its JSON lines. A probe that cannot run prints one line with an
 * {@code error} (and {@code missing}, {@code hint}) and exits 2: that becomes a {@link ProbeException}. The
 * probe is bounded twice: by its own alarm ({@code PROBE_TIMEOUT_S}) and by {@link #timeoutSeconds} here,
 * after which it is sent SIGTERM (it removes what it holds outside its processes, its children die with
 * it through PR_SET_PDEATHSIG) and then killed. A probe ended by a signal (a terminal's Ctrl-C reaches it
 * with calibrate) is an {@link java.io.InterruptedIOException}, whatever part of a line it had printed.
 *
 * <p>Not thread-safe: one probe at a time (measurements must not overlap anyway).
 */
public final class ProbeRunner {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path binDir;
    private final long timeoutSeconds;
    private final java.util.Map<String, String> env;
    private volatile Process current;
    private volatile boolean stopped;
    private volatile boolean timedOut;

    /**
     * @param binDir where {@link ProbeBuilder} put the probes
     * @param timeoutSeconds the longest one probe invocation may run, s
     */
    public ProbeRunner(Path binDir, long timeoutSeconds) {
        this(binDir, timeoutSeconds, java.util.Map.of());
    }

    /**
     * @param binDir where {@link ProbeBuilder} put the probes
     * @param timeoutSeconds the longest one probe invocation may run, s
     * @param env variables added to the probes' environment (tests: NETNS_LAB_PROBE_FAIL)
     */
    public ProbeRunner(Path binDir, long timeoutSeconds, java.util.Map<String, String> env) {
        this.binDir = binDir;
        this.timeoutSeconds = timeoutSeconds;
        this.env = java.util.Map.copyOf(env);
    }

    /**
     * @param probe a name from {@link ProbeBuilder#PROBES}
     * @param args its arguments
     * @return its JSON lines, in order
     * @throws ProbeException the probe reported what this host lacks (its error line)
     * @throws java.io.InterruptedIOException {@link #stopCurrent} stopped it (a signal), or a signal ended it
     * @throws IOException it could not be started or read, timed out, failed without an error line, or printed a
     *     line that is not a JSON object
     */
    public List<ObjectNode> run(String probe, String... args) throws ProbeException, IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(binDir.resolve(probe).toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("PROBE_TIMEOUT_S", Long.toString(timeoutSeconds + 5));
        pb.environment().putAll(env);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        if (stopped) {
            throw new java.io.InterruptedIOException(probe + ": not started, a signal stopped calibrate");
        }
        timedOut = false;
        Process p = pb.start();
        current = p;
        List<ObjectNode> lines = new ArrayList<>();
        ObjectNode error = null;
        String notJson = null; // the first line that does not parse: a line cut short when a signal ended the probe
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            Thread watchdog = new Thread(
                    () -> {
                        try {
                            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                                timedOut = true;
                                stop(p);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "netns-lab-probe-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = parse(line);
                if (!(node instanceof ObjectNode o)) {
                    notJson = notJson == null ? line : notJson;
                } else if (o.has("error")) {
                    error = error == null ? o : error; // the first failure is the cause; later lines are its echoes
                } else {
                    lines.add(o);
                }
            }
            p.waitFor();
        } catch (InterruptedException e) {
            stop(p);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + probe + " ran", e);
        } finally {
            current = null;
        }
        String what = probe + " " + String.join(" ", args);
        if (stopped) {
            throw new java.io.InterruptedIOException(what + ": stopped by a signal");
        }
        if (timedOut) {
            throw new IOException(what + ": no result after " + timeoutSeconds
                    + " s (the --timeout), stopped; on a slow" + " or busy machine raise --timeout");
        }
        if (error != null) {
            throw new ProbeException(
                    error.path("missing").asText("something"),
                    what + ": " + error.path("error").asText(),
                    error.path("hint").asText(""));
        }
        String signal = SIGNALS.get(p.exitValue() - 128); // its handler's _exit(128 + n), or killed by signal n
        if (signal != null) {
            throw new java.io.InterruptedIOException(what + " was ended by " + signal + " before its result");
        }
        if (notJson != null) {
            throw new IOException(what + " printed a line that is not a JSON object (a probe defect): "
                    + (notJson.length() > 200 ? notJson.substring(0, 200) + " ..." : notJson));
        }
        if (p.exitValue() != 0) {
            throw new IOException(what + " exited " + p.exitValue() + " without saying why (see the lines above)");
        }
        return lines;
    }

    /** The signals that end a probe from outside: a terminal's Ctrl-C reaches it with calibrate, a kill either. */
    private static final java.util.Map<Integer, String> SIGNALS =
            java.util.Map.of(1, "SIGHUP", 2, "SIGINT", 9, "SIGKILL", 15, "SIGTERM");

    /** @return the line's JSON, or null when it is not JSON (e.g. cut short) */
    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null; // said after the probe ended, unless its error line or a signal says why first
        }
    }

    /** Stops the probe running now, if any (Ctrl-C): SIGTERM first so it can remove its tracefs instance. */
    public void stopCurrent() {
        stopped = true;
        Process p = current;
        if (p != null) {
            stop(p);
        }
    }

    private static void stop(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(2, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
