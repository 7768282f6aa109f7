package org.netnslab.sockinuse;

import java.util.Locale;

/** The {@code sock-inuse.free} strategy: where a netns's sock_inuse counter is freed. */
public enum SockInuseFree {
  /** In the pernet exit, after synchronize_rcu + rcu_barrier there (the patch the seed rejected). */
  EXIT_BARRIER,
  /** In net_free, after the cleanup batch's rcu_barrier (the accepted direction). */
  NET_FREE,
  /** In the pernet exit with no wait: RCU callbacks still pending touch freed memory. */
  EXIT_UNSAFE;

  /** @return the HOCON spelling */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param value the HOCON spelling
   * @return the strategy
   * @throws IllegalArgumentException naming the accepted values
   */
  public static SockInuseFree fromConfig(String value) {
    for (SockInuseFree s : values()) {
      if (s.configName().equals(value)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown sock-inuse.free '" + value
        + "'; expected one of exit-barrier, net-free, exit-unsafe");
  }
}
