package org.netnslab.netlink;

import com.typesafe.config.Config;
import org.netnslab.settings.Setting;

/**
 * A design's netlink sysctls and test-only fault ({@code netns-lab.model.netlink}). Immutable.
 *
 * @param rmemDefault {@code netlink.rmem-default}: net.core.rmem_default, a new socket's sk_rcvbuf,
 *     bytes, 4608..Integer.MAX_VALUE / 2 (net/core/sysctl_net_core.c: at least min_rcvbuf =
 *     SOCK_MIN_RCVBUF; kernel default 212992)
 * @param rmemMax {@code netlink.rmem-max}: net.core.rmem_max, SO_RCVBUF's cap, bytes, same range
 * @param fault {@code netlink.fault}: {@link NetlinkFault#NONE} but in tests of the invariants
 */
public record NetlinkSettings(int rmemDefault, int rmemMax, NetlinkFault fault) {
    /** {@code netlink.rmem-default}. */
    public static final Setting<Integer> RMEM_DEFAULT =
            Setting.integer("netlink.rmem-default", SocketOptions.SOCK_MIN_RCVBUF, Integer.MAX_VALUE / 2);
    /** {@code netlink.rmem-max}. */
    public static final Setting<Integer> RMEM_MAX =
            Setting.integer("netlink.rmem-max", SocketOptions.SOCK_MIN_RCVBUF, Integer.MAX_VALUE / 2);
    /** {@code netlink.fault}. */
    public static final Setting<NetlinkFault> FAULT = Setting.strategy("netlink.fault", NetlinkFault.class);

    /** The kernel's defaults (net/core/sock.c: SK_RMEM_MAX, 212992 on x86_64), no fault. */
    public static final NetlinkSettings KERNEL = new NetlinkSettings(212_992, 212_992, NetlinkFault.NONE);

    /** Checks the ranges. */
    public NetlinkSettings {
        RMEM_DEFAULT.check(rmemDefault);
        RMEM_MAX.check(rmemMax);
    }

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the settings
     * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
     * @throws IllegalArgumentException for an unknown value or one out of range
     */
    public static NetlinkSettings fromConfig(Config model) {
        return new NetlinkSettings(RMEM_DEFAULT.read(model), RMEM_MAX.read(model), FAULT.read(model));
    }
}
