package org.netnslab.machine;

import java.util.ArrayDeque;

/**
 * A kernel mutex as a simulated resource (kernel/locking/mutex.c): one holder, FIFO waiters that sleep
 * (hold no CPU), and a hand-off cost: when the holder unlocks with waiters queued, the first waiter owns
 * the lock at once but runs only after {@code handoffNanos}, the wake-up latency of a sleeping task.
 * Models uevent_sock_mutex, a per-netns mutex and net_mutex in virtual execution.
 *
 * <p>Threading: the engine's driver thread only.
 */
public final class Mutex {
  private final VirtualEngine engine;
  private final String name;
  private final long handoffNanos;
  private final ArrayDeque<Runnable> waiters = new ArrayDeque<>();
  private boolean held;
  private long acquisitions;
  private long contended;

  /**
   * @param engine the engine whose clock it uses
   * @param name the kernel lock's name, for messages
   * @param handoffNanos wake-up latency of a waiter granted the lock, ns, >= 0
   */
  public Mutex(VirtualEngine engine, String name, long handoffNanos) {
    this.engine = engine;
    this.name = name;
    this.handoffNanos = Math.max(0, handoffNanos);
  }

  /**
   * Takes the lock: runs {@code granted} at once when it is free, else when it is handed over.
   *
   * @param granted what the new holder does (it must call {@link #unlock} once)
   */
  public void lock(Runnable granted) {
    acquisitions++;
    if (!held) {
      held = true;
      granted.run();
    } else {
      contended++;
      waiters.add(granted);
    }
  }

  /**
   * Releases the lock; the first waiter, if any, owns it now and runs after the hand-off cost.
   *
   * @throws IllegalStateException when the lock is not held
   */
  public void unlock() {
    if (!held) {
      throw new IllegalStateException(name + ": unlock of an unlocked mutex");
    }
    Runnable next = waiters.poll();
    if (next == null) {
      held = false;
    } else {
      engine.schedule(handoffNanos, next);
    }
  }

  /** @return the kernel lock's name */
  public String name() {
    return name;
  }

  /** @return lock calls so far */
  public long acquisitions() {
    return acquisitions;
  }

  /** @return lock calls that had to wait */
  public long contended() {
    return contended;
  }

  /** @return tasks waiting now */
  public int waiting() {
    return waiters.size();
  }
}
