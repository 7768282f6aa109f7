package org.netnslab.machine;

import java.util.ArrayDeque;

/**
 * The simulated machine's CPUs: {@code count} of them and one FIFO run queue. A task asks to run a step
 * of {@code ns} on a CPU; it starts at once when a CPU is free, otherwise it waits in the run queue, and
 * when the step is done the CPU goes to the next queued step. Steps are not preempted (a kernel step here
 * lasts microseconds; a time slice lasts milliseconds). A task that waits for a lock or a reply holds no
 * CPU, as a sleeping kernel task does not.
 *
 * <p>Threading: the engine's driver thread only (virtual execution).
 */
public final class Cpus {
  private final VirtualEngine engine;
  private final int count;
  private final ArrayDeque<Step> runQueue = new ArrayDeque<>();
  private int free;
  private long busyNanos;
  private long steps;

  private record Step(long nanos, Runnable then) {}

  /**
   * @param engine the engine whose clock the steps use
   * @param count CPUs, >= 1
   * @throws IllegalArgumentException when {@code count < 1}
   */
  public Cpus(VirtualEngine engine, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("machine.cpus must be >= 1, got " + count);
    }
    this.engine = engine;
    this.count = count;
    this.free = count;
  }

  /** @return the number of CPUs */
  public int count() {
    return count;
  }

  /**
   * Runs a step of {@code nanos} on a CPU, then {@code then} (at the step's end, on the engine).
   *
   * @param nanos the step's CPU time, ns (0 still goes through the run queue: it waits for a CPU)
   * @param then what follows the step, typically a tell to the task's actor
   */
  public void run(long nanos, Runnable then) {
    Step s = new Step(Math.max(0, nanos), then);
    if (free > 0) {
      free--;
      start(s);
    } else {
      runQueue.add(s);
    }
  }

  private void start(Step s) {
    steps++;
    busyNanos += s.nanos;
    engine.schedule(s.nanos, () -> {
      Step next = runQueue.poll();
      if (next != null) {
        start(next);
      } else {
        free++;
      }
      s.then.run();
    });
  }

  /** @return CPU time spent in steps so far, ns (over all CPUs) */
  public long busyNanos() {
    return busyNanos;
  }

  /** @return steps started so far */
  public long steps() {
    return steps;
  }

  /** @return steps waiting for a CPU now */
  public int queued() {
    return runQueue.size();
  }
}
