package org.netnslab.run;

/**
 * When the counted phase started, in {@link System#nanoTime()} ns; messages sent before that are
 * warm-up and left out of the figures. Written once by the runner before it starts the counted phase,
 * read by listener streams (volatile).
 */
public final class PhaseClock {
  private volatile long countedFromNanos = Long.MAX_VALUE;

  /** @return the counted phase's start, {@link Long#MAX_VALUE} before it starts */
  public long countedFromNanos() {
    return countedFromNanos;
  }

  /** Marks the counted phase as started now. @return the start in ns */
  public long startCounted() {
    countedFromNanos = System.nanoTime();
    return countedFromNanos;
  }
}
