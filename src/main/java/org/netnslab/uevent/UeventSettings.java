package org.netnslab.uevent;

import com.typesafe.config.Config;
import org.netnslab.settings.Setting;

/**
 * A design's uevent settings ({@code netns-lab.model.uevent} in reference.conf). Immutable.
 *
 * @param serialization {@code uevent.serialization}: how uevent sends are serialized (lib/kobject_uevent.c)
 * @param seqnumScope {@code uevent.seqnum-scope}: one global SEQNUM counter or one per netns
 * @param listenerQueueCapacity {@code uevent.listener-queue-capacity}: messages a listener socket holds
 *     before it drops (its receive buffer), 1..1048576
 * @param fault {@code uevent.fault}: TEST-ONLY, a kernel rule broken on purpose ({@link UeventFault#NONE} normally)
 */
public record UeventSettings(UeventSerialization serialization, SeqnumScope seqnumScope, int listenerQueueCapacity,
    UeventFault fault) {
  /** {@code uevent.serialization}. */
  public static final Setting<UeventSerialization> SERIALIZATION =
      Setting.strategy("uevent.serialization", UeventSerialization.class);
  /** {@code uevent.seqnum-scope}. */
  public static final Setting<SeqnumScope> SEQNUM_SCOPE = Setting.strategy("uevent.seqnum-scope", SeqnumScope.class);
  /** {@code uevent.listener-queue-capacity}. */
  public static final Setting<Integer> LISTENER_QUEUE_CAPACITY =
      Setting.integer("uevent.listener-queue-capacity", 1, 1_048_576);
  /** {@code uevent.fault}: TEST-ONLY. */
  public static final Setting<UeventFault> FAULT = Setting.strategy("uevent.fault", UeventFault.class);

  /** Checks the range. */
  public UeventSettings {
    LISTENER_QUEUE_CAPACITY.check(listenerQueueCapacity);
  }

  /**
   * @param model a model config (a design's keys over {@code netns-lab.model})
   * @return the settings
   * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
   * @throws IllegalArgumentException for an unknown strategy or a value out of range
   */
  public static UeventSettings fromConfig(Config model) {
    return new UeventSettings(SERIALIZATION.read(model), SEQNUM_SCOPE.read(model), LISTENER_QUEUE_CAPACITY.read(model),
        FAULT.read(model));
  }
}
