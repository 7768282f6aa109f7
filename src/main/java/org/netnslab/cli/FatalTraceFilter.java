package org.netnslab.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * stderr with Akka's fatal-error report taken out: on an OutOfMemoryError (or another fatal error) in an actor,
 * Akka's {@code ActorSystemImpl} prints {@code Uncaught error from thread [...]: ..., shutting down ...} and the
 * whole stack trace straight to {@code System.err}, and logs the same through SLF4J, before it exits the JVM;
 * netns-lab then prints its own one line ({@link Stops}). That line is what the user reads: this filter drops
 * Akka's line, the logged copy, and the stack trace lines after them. Everything else passes through; a partial
 * line (a progress bar redrawn with {@code \r}) is written on {@link #flush()}.
 *
 * <p>It allocates nothing per line (the bytes are matched in place): it runs while the heap is exhausted, on
 * the threads of a model that is still allocating, where a new String would be one more OutOfMemoryError.
 */
final class FatalTraceFilter extends OutputStream {
    private static final byte[] AKKA_FATAL = "Uncaught error from thread [".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SHUTTING_DOWN = "shutting down".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DOT = {(byte) '.'};
    private static final byte[] NEWLINE = {(byte) '\n'};
    private static final byte[] HOOK_TOO_LATE =
            "Could not addJvmShutdownHook, due to: Shutdown in progress".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CAUSED_BY = "Caused by: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[][] THROWABLE_ENDS = {
        "Error".getBytes(StandardCharsets.US_ASCII),
        "Exception".getBytes(StandardCharsets.US_ASCII),
        "Throwable".getBytes(StandardCharsets.US_ASCII)
    };

    private final OutputStream out;
    private byte[] line = new byte[256]; // grown as lines need; small, so the heap barely sees it
    private int length;
    private boolean inTrace;
    /** Set from Akka's report on: lines are then buffered and judged until a line that is not its trace. */
    private boolean filtering;

    /** @param out the real stderr */
    FatalTraceFilter(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    /**
     * Passes a chunk straight through, unless it is Akka's report: its raw first piece ({@code Uncaught error from
     * thread [}) starts the line-by-line filtering of what follows; its logged copy (one chunk: the line and the
     * stack trace) is dropped whole. Only while filtering are lines buffered.
     */
    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (!filtering) {
            if (indexOf(b, off, len, HOOK_TOO_LATE) >= 0) {
                return; // Akka's warning that the JVM is already exiting (after the fatal error): nothing for the user
            }
            int at = indexOf(b, off, len, AKKA_FATAL);
            if (at < 0) {
                out.write(b, off, len);
                return;
            }
            // Akka exits the JVM next: its shutdown hooks must start (ApplicationShutdownHooks iterates and starts
            // threads,
            // which allocates), so the heap held for that is freed now, not in the hook
            Stops.releaseReserve();
            if (indexOf(b, off, len, SHUTTING_DOWN) >= 0 && indexOf(b, off, len, NEWLINE) > at) {
                return; // the logged copy, with its trace, in one write
            }
            out.write(b, off, at - off); // whatever came before it
            filtering = true;
            inTrace = true;
            len -= at - off;
            off = at;
        }
        for (int i = off; i < off + len; i++) {
            buffer(b[i]);
        }
    }

    private void buffer(byte b) throws IOException {
        if (length == line.length) {
            try {
                line = Arrays.copyOf(line, line.length * 2);
            } catch (OutOfMemoryError e) { // no room for a longer line: what is held goes out as it is
                out.write(line, 0, length);
                length = 0;
            }
        }
        line[length++] = b;
        if (b == '\n' || b == '\r') {
            endLine();
        }
    }

    private void endLine() throws IOException {
        boolean drop;
        if (indexOf(AKKA_FATAL, 0) >= 0 && indexOf(SHUTTING_DOWN, 0) >= 0) {
            inTrace = true;
            drop = true;
        } else {
            drop = inTrace && isTraceLine();
            inTrace = drop;
        }
        if (!drop) {
            out.write(line, 0, length);
            filtering = false; // back to passing chunks straight through
        }
        length = 0;
    }

    /** @return whether the line is a stack trace's: a frame, "... n more", a cause, or an exception's first line */
    private boolean isTraceLine() {
        if (length > 0 && (line[0] == '\t' || line[0] == ' ')) {
            return true;
        }
        if (startsWith(CAUSED_BY)) {
            return true;
        }
        int end = 0; // the first token: a class name up to ':' or the line's end
        while (end < length && line[end] != ':' && line[end] != '\n' && line[end] != '\r' && line[end] != ' ') {
            end++;
        }
        int dot = indexOf(DOT, 0);
        boolean dotted = dot >= 0 && dot < end;
        for (byte[] t : THROWABLE_ENDS) {
            if (dotted && end >= t.length && Arrays.equals(line, end - t.length, end, t, 0, t.length)) {
                return true;
            }
        }
        return false;
    }

    private boolean startsWith(byte[] p) {
        return length >= p.length && Arrays.equals(line, 0, p.length, p, 0, p.length);
    }

    private static int indexOf(byte[] b, int off, int len, byte[] p) {
        outer:
        for (int i = off; i + p.length <= off + len; i++) {
            for (int j = 0; j < p.length; j++) {
                if (b[i + j] != p[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private int indexOf(byte[] p, int from) {
        outer:
        for (int i = from; i + p.length <= length; i++) {
            for (int j = 0; j < p.length; j++) {
                if (line[i + j] != p[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Override
    public synchronized void flush() throws IOException {
        // a partial line that may be the start of Akka's report waits for its end; a progress bar's goes out now
        if (length > 0 && !inTrace) { // a partial line after Akka's report (a progress bar's): out now
            out.write(line, 0, length);
            length = 0;
        }
        out.flush();
    }
}
