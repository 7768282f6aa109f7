package org.netnslab.machine;

/**
 * The model's clock: simulated time for code the {@link VirtualEngine} is running (virtual execution),
 * {@link System#nanoTime()} for code on any other thread (live execution). Model code reads time only
 * here, never from {@code System.nanoTime()}, so the same code measures the right clock in both modes.
 * Runner code outside the engine uses {@link Machine#nanoTime()}.
 */
public final class Clock {
  private static final ThreadLocal<VirtualEngine> DRIVING = new ThreadLocal<>();

  private Clock() {}

  /** @return now, ns: the simulated clock inside a virtual engine's run, else System.nanoTime() */
  public static long nanoTime() {
    VirtualEngine e = DRIVING.get();
    return e != null ? e.now() : System.nanoTime();
  }

  /** Marks the calling thread as driving {@code engine} (null: no longer); returns the previous one. */
  static VirtualEngine drive(VirtualEngine engine) {
    VirtualEngine before = DRIVING.get();
    if (engine == null) {
      DRIVING.remove();
    } else {
      DRIVING.set(engine);
    }
    return before;
  }
}
