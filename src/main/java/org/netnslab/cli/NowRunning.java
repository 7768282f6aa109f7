package org.netnslab.cli;

import java.util.List;
import java.util.function.LongSupplier;
import org.netnslab.run.RunObserver;

/**
 * What a run is doing now, for the one line printed when it is interrupted: the scenario, the
 * replicate, the design, the phase and its progress. A {@link RunObserver} that passes everything on
 * to the progress display and keeps the latest state; the runner's thread writes it, any thread (a
 * signal handler) may {@link #describe} it.
 */
final class NowRunning implements RunObserver {
  /**
   * One immutable state.
   *
   * @param replicate e.g. "replicate 2/5", or "" for a run of one replicate
   * @param design the design running, or null
   * @param phase the phase running, or null
   * @param total the phase's transactions
   * @param done counts the phase's transactions done so far, or null
   * @param stage what is going on when no phase runs, e.g. "after phase warm-up"
   */
  private record State(String replicate, String design, String phase, long total, LongSupplier done, String stage) {}

  private final String scenario;
  private final RunObserver display;
  private final boolean bars;
  private volatile State state = new State("", null, null, 0, null, "before its first design started");

  /**
   * @param scenario the scenario's name
   * @param display the progress display, told everything
   * @param bars whether the display draws bars (a line of stderr may be left unfinished)
   */
  NowRunning(String scenario, RunObserver display, boolean bars) {
    this.scenario = scenario;
    this.display = display;
    this.bars = bars;
  }

  /** @return whether a progress bar may have left stderr's last line unfinished */
  boolean bars() {
    return bars;
  }

  /**
   * @return where the run is, e.g. {@code in scenario tc1, design kernel-4.18, phase counted, 41%
   *     (4,100 of 10,000)}, or {@code in scenario tc1, design kernel-4.18, after phase warm-up}
   */
  String describe() {
    State s = state;
    StringBuilder b = new StringBuilder("in scenario ").append(scenario);
    if (!s.replicate().isEmpty()) {
      b.append(", ").append(s.replicate());
    }
    if (s.design() != null) {
      b.append(", design ").append(s.design());
    }
    if (s.phase() != null) {
      long done = s.done().getAsLong();
      b.append(", phase ").append(s.phase()).append(String.format(", %d%% (%,d of %,d)",
          s.total() > 0 ? Math.min(100, done * 100 / s.total()) : 0, done, s.total()));
    } else {
      b.append(", ").append(s.stage());
    }
    return b.toString();
  }

  /** @param stage what the run does now that no phase runs, e.g. "writing the results" */
  void stage(String stage) {
    State s = state;
    state = new State(s.replicate(), null, null, 0, null, stage);
  }

  @Override
  public void replicateStarting(int replicate, int of, List<String> order) {
    state = new State(of > 1 ? "replicate " + replicate + "/" + of : "", null, null, 0, null,
        "before the replicate's first design started");
    display.replicateStarting(replicate, of, order);
  }

  @Override
  public void designStarting(String design) {
    state = new State(state.replicate(), design, null, 0, null, "starting");
    display.designStarting(design);
  }

  @Override
  public void phaseStarting(String design, String phase, long total, LongSupplier done) {
    state = new State(state.replicate(), design, phase, total, done, null);
    display.phaseStarting(design, phase, total, done);
  }

  @Override
  public void progress(String design, String phase, long done, long total, long elapsedNanos) {
    display.progress(design, phase, done, total, elapsedNanos);
  }

  @Override
  public void phaseDone(String design, String phase, long total, long elapsedNanos) {
    State s = state;
    state = new State(s.replicate(), design, null, 0, null, "after phase " + (s.phase() != null ? s.phase() : phase));
    display.phaseDone(design, phase, total, elapsedNanos);
  }

  @Override
  public void designDone(String design) {
    state = new State(state.replicate(), null, null, 0, null, "after design " + design);
    display.designDone(design);
  }
}
