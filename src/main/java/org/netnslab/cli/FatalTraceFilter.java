package org.netnslab.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * stderr with Akka's fatal-error report taken out: on an OutOfMemoryError (or another fatal error) in an actor,
 * Akka's {@code ActorSystemImpl} prints {@code Uncaught error from thread [...]: ..., shutting down ...} and the
 * whole stack trace straight to {@code System.err}, and logs the same through SLF4J, before it exits the JVM;
 * netns-lab then prints its own one line ({@link Stops}). That line is what the user reads: this filter drops
 * Akka's line, the logged copy, and the stack trace lines after them. Everything else passes through; a partial
 * line (a progress bar redrawn with {@code \r}) is written on {@link #flush()}.
 */
final class FatalTraceFilter extends OutputStream {
  /** Akka's report, raw or logged (a timestamp and logger before it). */
  private static final Pattern AKKA_FATAL = Pattern.compile(".*Uncaught error from thread \\[.*shutting down.*");
  /** A stack trace's lines: the exception, its frames, causes, suppressed, elided frames. */
  private static final Pattern TRACE = Pattern.compile("(\\s+at |\\s*\\.\\.\\. \\d+ |Caused by: |\\s+Suppressed: "
      + "|[\\w$.]+(Error|Exception|Throwable)(: |$)).*", Pattern.DOTALL);

  private final OutputStream out;
  /** Sized for the longest line netns-lab prints, so a line out of memory needs no new buffer. */
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(16384);
  private boolean inTrace;

  /** @param out the real stderr */
  FatalTraceFilter(OutputStream out) {
    this.out = out;
  }

  @Override
  public synchronized void write(int b) throws IOException {
    line.write(b);
    if (b == '\n' || b == '\r') {
      endLine();
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    for (int i = off; i < off + len; i++) {
      write(b[i]);
    }
  }

  private void endLine() throws IOException {
    boolean drop;
    try {
      String bare = line.toString(StandardCharsets.UTF_8).stripTrailing();
      if (AKKA_FATAL.matcher(bare).matches()) {
        inTrace = true;
        drop = true;
      } else {
        drop = inTrace && TRACE.matcher(bare).matches();
        inTrace = drop;
      }
    } catch (Throwable e) { // out of memory while the model still allocates: the line goes out as it is
      drop = false;
      inTrace = false;
    }
    if (!drop) {
      line.writeTo(out);
    }
    line.reset();
  }

  @Override
  public synchronized void flush() throws IOException {
    String partial = line.toString(StandardCharsets.UTF_8);
    if (line.size() > 0 && !inTrace && !"Uncaught error from thread [".startsWith(partial)
        && !partial.startsWith("Uncaught error from thread [") && !partial.matches("\\d\\d:\\d\\d:\\d\\d.*")) {
      line.writeTo(out); // a progress bar's line: shown now, not at its end
      line.reset();
    }
    out.flush();
  }
}
