package org.netnslab.workload.injection;

import org.netnslab.settings.HoconChecker;
import org.netnslab.workload.WorkloadParser;
import java.util.Set;

/**
 * Reads a {@code uevent-injection} workload: {@code netns { userns-owned, init-owned }},
 * {@code listeners-per-netns}, {@code injections-per-netns}, {@code warmup-per-netns}, {@code injectors},
 * {@code kernel-uevents-per-netns} (default 0), {@code injectors-privileged} (default true),
 * {@code injector-start-interval} (default 0: all at once; virtual execution only).
 */
public final class UeventInjectionParser implements WorkloadParser {
  private static final Set<String> KEYS =
      Set.of("type", "netns", "listeners-per-netns", "injections-per-netns", "warmup-per-netns", "injectors",
          "kernel-uevents-per-netns", "injectors-privileged", "injector-start-interval");
  private static final Set<String> NETNS_KEYS = Set.of("userns-owned", "init-owned");
  /**
   * Most netns or injectors one run may name: ids and indices are ints. No lower cap: the up-front heap
   * estimate ({@code scenario.HeapEstimate}) decides whether the population fits the JVM.
   */
  private static final int MAX_POPULATION = 1_000_000_000;

  @Override
  public String type() {
    return "uevent-injection";
  }

  @Override
  public UeventInjectionWorkload parse(HoconChecker c, double scale) {
    c.unknownKeys(c.conf().getObject("workload"), KEYS, "workload.");
    boolean hasNetns = c.conf().hasPath("workload.netns");
    if (hasNetns && c.object("workload.netns") != null) {
      c.unknownKeys(c.conf().getObject("workload.netns"), NETNS_KEYS, "workload.netns.");
    }
    int before = c.problems().size();
    long userns = c.integer("workload.netns.userns-owned", 0L, 0, MAX_POPULATION);
    long init = c.integer("workload.netns.init-owned", 0L, 0, MAX_POPULATION);
    if (c.problems().size() > before) {
      // a count was refused already: its default would only add a second, wrong problem
    } else if (userns + init > MAX_POPULATION) {
      c.problem("workload.netns", "userns-owned + init-owned = " + (userns + init) + ", more than " + MAX_POPULATION);
    } else if (userns + init < 1 && hasNetns) {
      c.problem("workload.netns", "needs at least one netns (userns-owned + init-owned >= 1)");
    } else if (!hasNetns) {
      c.problem("workload.netns", "missing: set userns-owned and/or init-owned");
    }
    long listeners = c.integer("workload.listeners-per-netns", 1L, 0, 1024);
    if ((userns + init) * listeners > MAX_POPULATION) {
      c.problem("workload.listeners-per-netns", "netns x listeners-per-netns = " + (userns + init) * listeners
          + " listeners, more than " + MAX_POPULATION);
    }
    long injections = c.integer("workload.injections-per-netns", null, 1, MAX_SCALED);
    long warmup = c.integer("workload.warmup-per-netns", 0L, 0, MAX_SCALED);
    long injectors = c.integer("workload.injectors", null, 1, MAX_POPULATION);
    long kernel = c.integer("workload.kernel-uevents-per-netns", 0L, 0, MAX_SCALED);
    boolean privileged = c.bool("workload.injectors-privileged", true);
    long interval = 0;
    if (c.conf().hasPath("workload.injector-start-interval")) {
      try {
        interval = c.conf().getDuration("workload.injector-start-interval").toNanos();
        if (interval < 0 || interval > 60_000_000_000L) {
          c.problem("workload.injector-start-interval", "must be a duration in 0..60s, got " + interval + "ns");
        }
      } catch (com.typesafe.config.ConfigException e) {
        c.problem("workload.injector-start-interval", "must be a duration (e.g. 500ms): " + HoconChecker.bare(e));
      }
    }
    UeventInjectionWorkload w = new UeventInjectionWorkload((int) userns, (int) init, (int) listeners, injections,
        warmup, (int) injectors, kernel, privileged, interval);
    if (scale > 0 && scale <= 1000) {
      if (w.injectionsPerNetns() * scale + w.warmupPerNetns() > MAX_SCALED) {
        c.problem("workload.injections-per-netns", "times --scale " + scale + " exceeds " + MAX_SCALED
            + " injections per netns");
      }
      if (w.kernelUeventsPerNetns() * scale > MAX_SCALED) {
        c.problem("workload.kernel-uevents-per-netns", "times --scale " + scale + " exceeds " + MAX_SCALED);
      }
    }
    return w;
  }
}
