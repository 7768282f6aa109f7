package org.netnslab.design;

import com.typesafe.config.Config;
import java.time.Duration;
import org.netnslab.netns.LifecycleLock;
import org.netnslab.sockinuse.SockInuseFree;

/**
 * A design's netns lifecycle settings. Immutable.
 *
 * @param lock {@code netns.lifecycle-lock}
 * @param sockInuseFree {@code sock-inuse.free}
 * @param gracePeriod {@code rcu.grace-period}: length of a normal RCU grace period (0 allowed)
 * @param expeditedGracePeriod {@code rcu.expedited-grace-period}
 * @param cpus {@code sock-inuse.cpus}: per-CPU slots of each sock_inuse counter, at least 1
 * @param kernelSockets {@code netns.kernel-sockets}: the netns's own sockets, created by a pernet
 *     init, not counted in sock_inuse, destroyed by the matching pernet exit
 * @param rcuFreeFraction {@code sockets.rcu-free-fraction}: share of socket closes (user and kernel)
 *     whose final teardown is deferred through call_rcu (SOCK_RCU_FREE), 0..1
 * @param setupCost {@code netns.setup-cost}: simulated time setup_net's kernel work takes per netns,
 *     spent holding the lifecycle lock (0: none)
 * @param exitCost {@code netns.exit-cost}: simulated time the pernet exits' kernel work takes per
 *     netns of a cleanup batch, spent holding the lifecycle lock (0: none)
 */
public record Lifecycle(LifecycleLock lock, SockInuseFree sockInuseFree, Duration gracePeriod,
    Duration expeditedGracePeriod, int cpus, int kernelSockets, double rcuFreeFraction, Duration setupCost,
    Duration exitCost) {

  /** The model's defaults (reference.conf): v4.17+ locking, net_free, 4 ms / 100 us grace periods. */
  public static final Lifecycle DEFAULT = new Lifecycle(LifecycleLock.RWSEM, SockInuseFree.NET_FREE,
      Duration.ofMillis(4), Duration.ofNanos(100_000), Runtime.getRuntime().availableProcessors(), 2, 0.5,
      Duration.ZERO, Duration.ZERO);

  /** Checks ranges. */
  public Lifecycle {
    if (gracePeriod.isNegative() || expeditedGracePeriod.isNegative() || setupCost.isNegative()
        || exitCost.isNegative()) {
      throw new IllegalArgumentException("rcu grace periods and netns costs must be >= 0");
    }
    if (cpus < 1 || kernelSockets < 0 || !(rcuFreeFraction >= 0 && rcuFreeFraction <= 1)) {
      throw new IllegalArgumentException("lifecycle settings out of range: cpus " + cpus + ", kernel-sockets "
          + kernelSockets + ", rcu-free-fraction " + rcuFreeFraction);
    }
  }

  /**
   * @param model the model config (a design's keys over {@code netns-lab.model})
   * @return the settings; {@code sock-inuse.cpus = 0} means the machine's processor count
   */
  public static Lifecycle fromConfig(Config model) {
    int cpus = model.getInt("sock-inuse.cpus");
    return new Lifecycle(Strategies.parse(LifecycleLock.class, "netns.lifecycle-lock", model.getString("netns.lifecycle-lock")),
        Strategies.parse(SockInuseFree.class, "sock-inuse.free",
            model.getString("sock-inuse.free")), model.getDuration("rcu.grace-period"),
        model.getDuration("rcu.expedited-grace-period"), cpus == 0 ? Runtime.getRuntime().availableProcessors() : cpus,
        model.getInt("netns.kernel-sockets"), model.getDouble("sockets.rcu-free-fraction"),
        model.getDuration("netns.setup-cost"), model.getDuration("netns.exit-cost"));
  }
}
