package org.netnslab.sockinuse;

/** The {@code sock-inuse.free} strategy: where a netns's sock_inuse counter is freed. */
public enum SockInuseFree {
  /** In the pernet exit, after synchronize_rcu + rcu_barrier there (the patch the seed rejected). */
  EXIT_BARRIER,
  /** In net_free, after the cleanup batch's rcu_barrier (the accepted direction). */
  NET_FREE,
  /** In the pernet exit with no wait: RCU callbacks still pending touch freed memory. */
  EXIT_UNSAFE;
}
