package org.netnslab.netns;

import com.typesafe.config.Config;
import java.time.Duration;
import org.netnslab.settings.Setting;

/**
 * A design's netns lifecycle settings ({@code netns-lab.model.netns} and {@code sockets}). Immutable.
 *
 * @param lifecycleLock {@code netns.lifecycle-lock}: what serializes creation against cleanup
 * @param kernelSockets {@code netns.kernel-sockets}: the netns's own sockets, created by a pernet
 *     init, destroyed by the matching pernet exit, holding no netns reference; counted in sock_inuse
 *     only under the hazard accounting of {@code exit-unsafe}, {@code exit-barrier}, {@code net-free}; 0..1024
 * @param setupCost {@code netns.setup-cost}: simulated time setup_net's kernel work takes per netns,
 *     spent holding the lifecycle lock (0: none), at most 10 s
 * @param exitCost {@code netns.exit-cost}: simulated time the pernet exits' kernel work takes per
 *     netns of a cleanup batch, spent holding the lifecycle lock (0: none), at most 10 s
 * @param rcuFreeFraction {@code sockets.rcu-free-fraction}: share of socket closes (user and kernel)
 *     whose final teardown is deferred through call_rcu (SOCK_RCU_FREE), 0..1
 * @param cleanupRcu {@code netns.cleanup-rcu}: the grace-period wait of a cleanup batch
 * @param structNetFree {@code netns.struct-net-free}: at the batch's end, or at the next cleanup_net (v6.13)
 * @param rtnlSetupShare {@code netns.rtnl.setup-share}: the share of setup_net's CPU ({@code costs.netns.setup-net})
 *     spent holding RTNL (rtnl_mutex), at its end (loopback_net_init's register_netdev, a device op after the
 *     subsys ops); 0: RTNL not modelled; 0..1
 * @param rtnlExitShare {@code netns.rtnl.exit-share}: the share of the exits' CPU ({@code costs.netns.exit-per-netns})
 *     spent holding RTNL, in one hold for the whole batch (default_device_exit_batch's unregister_netdevice_many);
 *     0: RTNL not modelled; 0..1
 */
public record NetnsSettings(
        LifecycleLock lifecycleLock,
        int kernelSockets,
        Duration setupCost,
        Duration exitCost,
        double rcuFreeFraction,
        CleanupRcu cleanupRcu,
        StructNetFree structNetFree,
        double rtnlSetupShare,
        double rtnlExitShare) {
    /** {@code netns.lifecycle-lock}. */
    public static final Setting<LifecycleLock> LIFECYCLE_LOCK =
            Setting.strategy("netns.lifecycle-lock", LifecycleLock.class);
    /** {@code netns.kernel-sockets}. */
    public static final Setting<Integer> KERNEL_SOCKETS = Setting.integer("netns.kernel-sockets", 0, 1024);
    /** {@code netns.setup-cost}. */
    public static final Setting<Duration> SETUP_COST = Setting.duration("netns.setup-cost", Duration.ofSeconds(10));
    /** {@code netns.exit-cost}. */
    public static final Setting<Duration> EXIT_COST = Setting.duration("netns.exit-cost", Duration.ofSeconds(10));
    /** {@code sockets.rcu-free-fraction}. */
    public static final Setting<Double> RCU_FREE_FRACTION = Setting.fraction("sockets.rcu-free-fraction");

    /** {@code netns.struct-net-free}. */
    public static final Setting<StructNetFree> STRUCT_NET_FREE =
            Setting.strategy("netns.struct-net-free", StructNetFree.class);
    /** {@code netns.rtnl.setup-share}. */
    public static final Setting<Double> RTNL_SETUP_SHARE = Setting.fraction("netns.rtnl.setup-share");
    /** {@code netns.rtnl.exit-share}. */
    public static final Setting<Double> RTNL_EXIT_SHARE = Setting.fraction("netns.rtnl.exit-share");
    /** {@code netns.cleanup-rcu}. */
    public static final Setting<CleanupRcu> CLEANUP_RCU = Setting.strategy("netns.cleanup-rcu", CleanupRcu.class);

    /** Checks the ranges. */
    public NetnsSettings {
        KERNEL_SOCKETS.check(kernelSockets);
        SETUP_COST.check(setupCost);
        EXIT_COST.check(exitCost);
        RCU_FREE_FRACTION.check(rcuFreeFraction);
        RTNL_SETUP_SHARE.check(rtnlSetupShare);
        RTNL_EXIT_SHARE.check(rtnlExitShare);
    }

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the settings
     * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
     * @throws IllegalArgumentException for an unknown strategy or a value out of range
     */
    public static NetnsSettings fromConfig(Config model) {
        return new NetnsSettings(
                LIFECYCLE_LOCK.read(model),
                KERNEL_SOCKETS.read(model),
                SETUP_COST.read(model),
                EXIT_COST.read(model),
                RCU_FREE_FRACTION.read(model),
                CLEANUP_RCU.read(model),
                STRUCT_NET_FREE.read(model),
                RTNL_SETUP_SHARE.read(model),
                RTNL_EXIT_SHARE.read(model));
    }
}
