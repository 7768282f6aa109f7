package org.netnslab.uevent;

import java.util.Locale;

/** The {@code uevent.seqnum-scope} strategy: one system-wide SEQNUM counter, or one per netns. */
public enum SeqnumScope {
  /** One {@code uevent_seqnum} for the whole system (upstream). */
  GLOBAL,
  /**
   * One counter per netns owned by a non-initial user namespace (the 2018 proposal); netns owned by
   * the initial user namespace keep the global counter.
   */
  PER_NETNS;

  /** @return the HOCON spelling */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param value the HOCON spelling
   * @return the scope
   * @throws IllegalArgumentException naming the accepted values
   */
  public static SeqnumScope fromConfig(String value) {
    for (SeqnumScope s : values()) {
      if (s.configName().equals(value)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown uevent.seqnum-scope '" + value + "'; expected one of global, per-netns");
  }
}
