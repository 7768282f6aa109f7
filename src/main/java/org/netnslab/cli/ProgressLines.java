package org.netnslab.cli;

import org.netnslab.scenario.RunObserver;

/**
 * Progress on stderr: while a phase runs, a line every progress interval when stderr is a terminal
 * (so CI logs stay short); one line per finished phase always.
 */
final class ProgressLines implements RunObserver {
  private final boolean live;

  ProgressLines(boolean live) {
    this.live = live;
  }

  @Override
  public void progress(String design, String phase, long done, long total, long elapsedNanos) {
    if (!live) {
      return;
    }
    double rate = done / (elapsedNanos / 1e9);
    long etaS = rate > 0 ? (long) ((total - done) / rate) : -1;
    System.err.printf("\r[%s] %s %,d/%,d (%.0f%%) %,.0f tx/s ETA %ss   ", design, phase, done, total,
        total == 0 ? 100.0 : 100.0 * done / total, rate, etaS < 0 ? "?" : Long.toString(etaS));
    System.err.flush();
  }

  @Override
  public void phaseDone(String design, String phase, long total, long elapsedNanos) {
    double s = elapsedNanos / 1e9;
    System.err.printf("%s[%s] %s: %,d transactions in %.2f s (%,.0f tx/s)%n", live ? "\r" : "", design, phase, total, s,
        s > 0 ? total / s : 0.0);
  }
}
