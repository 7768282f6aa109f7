package org.netnslab.uevent;

import java.util.Locale;

/**
 * How uevent sends are serialized: the {@code uevent.serialization} strategy of a design.
 */
public enum UeventSerialization {
  /** uevent_sock_mutex (v4.17..v6.8): every send goes through one owner actor. */
  GLOBAL_OWNER,
  /**
   * The 2018 proposal: a netns owned by a non-initial user namespace serializes its own sends in its
   * actor; netns owned by the initial user namespace still share the global owner.
   */
  PER_NETNS_OWNER,
  /** v6.9+: atomic counter, no owner; the sender delivers in its own context, order not guaranteed. */
  LOCKLESS;

  /** @return the HOCON spelling, e.g. {@code per-netns-owner} */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param value the HOCON spelling
   * @return the strategy
   * @throws IllegalArgumentException naming the accepted values
   */
  public static UeventSerialization fromConfig(String value) {
    for (UeventSerialization s : values()) {
      if (s.configName().equals(value)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown uevent.serialization '" + value
        + "'; expected one of global-owner, per-netns-owner, lockless");
  }
}
