package org.netnslab.netns;

import com.typesafe.config.Config;
import java.time.Duration;
import org.netnslab.proc.ProcCosts;
import org.netnslab.settings.Setting;
import org.netnslab.uevent.UeventCosts;

/**
 * The cost block ({@code netns-lab.model.costs}): what each simulated kernel operation costs in virtual
 * execution, split into the part under a lock and the part outside where the kernel code has one. Live
 * execution charges none of them (the JVM's own work is the cost there). A design changes a cost only
 * where the kernel code it stands for differs. Sources are in reference.conf beside each key.
 *
 * @param mutexHandoff {@code costs.mutex-handoff}: wake-up latency of a sleeping mutex waiter granted the
 *     lock (every {@link org.netnslab.machine.Mutex}), 0..10ms
 * @param uevent the uevent paths
 * @param lifecycle netns creation and cleanup
 * @param proc the proc connector and monitors
 */
public record Costs(Duration mutexHandoff, UeventCosts uevent, LifecycleCosts lifecycle, ProcCosts proc) {
  /** {@code costs.mutex-handoff}. */
  public static final Setting<Duration> MUTEX_HANDOFF = Setting.duration("costs.mutex-handoff", Duration.ofMillis(10));

  /** Checks the ranges. */
  public Costs {
    MUTEX_HANDOFF.check(mutexHandoff);
  }

  /**
   * @param model a model config (a design's keys over {@code netns-lab.model})
   * @return the costs
   * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
   * @throws IllegalArgumentException for a value out of range
   */
  public static Costs fromConfig(Config model) {
    return new Costs(MUTEX_HANDOFF.read(model), UeventCosts.fromConfig(model), LifecycleCosts.fromConfig(model),
        ProcCosts.fromConfig(model));
  }
}
