package org.netnslab.netns;

import java.util.Locale;

/**
 * The {@code netns.lifecycle-lock} strategy: what serializes netns creation against cleanup
 * (net/core/net_namespace.c).
 */
public enum LifecycleLock {
  /**
   * &lt;= v4.16: one global {@code net_mutex} held by copy_net_ns around setup_net and by cleanup_net
   * around unlink, exits and frees: creations wait for each other and for a running cleanup batch,
   * and the batch waits for creations in progress.
   */
  NET_MUTEX,
  /**
   * &gt;= v4.17: {@code pernet_ops_rwsem} taken for read by both: creations run in parallel with each
   * other and with a cleanup batch.
   */
  RWSEM;

  /** @return the HOCON spelling */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param value the HOCON spelling
   * @return the strategy
   * @throws IllegalArgumentException naming the accepted values
   */
  public static LifecycleLock fromConfig(String value) {
    for (LifecycleLock s : values()) {
      if (s.configName().equals(value)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown netns.lifecycle-lock '" + value + "'; expected one of net-mutex, rwsem");
  }
}
