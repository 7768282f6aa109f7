package org.netnslab.sockinuse;

import com.typesafe.config.Config;
import org.netnslab.settings.Setting;

/**
 * A design's sock_inuse settings ({@code netns-lab.model.sock-inuse}). Immutable.
 *
 * @param free {@code sock-inuse.free}: where the per-netns counter is freed
 * @param cpus per-CPU slots of each counter, at least 1 ({@code sock-inuse.cpus}, where 0 stands for
 *     the machine's processor count)
 * @param fault {@code sock-inuse.fault}: test-only breakage of the socket close path ({@link SocketCloseFault#NONE}
 *     in every scenario)
 */
public record SockInuseSettings(SockInuseFree free, int cpus, SocketCloseFault fault) {
    /** {@code sock-inuse.free}. */
    public static final Setting<SockInuseFree> FREE = Setting.strategy("sock-inuse.free", SockInuseFree.class);
    /** {@code sock-inuse.cpus}: 0 = the machine's processor count. */
    public static final Setting<Integer> CPUS = Setting.integer("sock-inuse.cpus", 0, 4096);
    /** {@code sock-inuse.fault}: test-only. */
    public static final Setting<SocketCloseFault> FAULT = Setting.strategy("sock-inuse.fault", SocketCloseFault.class);

    /** Checks the range: {@code cpus} is the resolved count, so 0 is not allowed here. */
    public SockInuseSettings {
        if (CPUS.check(cpus) < 1) {
            throw new IllegalArgumentException("sock-inuse.cpus: must be >= 1 once resolved, got " + cpus);
        }
    }

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the settings, {@code sock-inuse.cpus = 0} resolved to the machine's processor count
     * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
     * @throws IllegalArgumentException for an unknown strategy or a value out of range
     */
    public static SockInuseSettings fromConfig(Config model) {
        int cpus = CPUS.read(model);
        return new SockInuseSettings(
                FREE.read(model), cpus == 0 ? Runtime.getRuntime().availableProcessors() : cpus, FAULT.read(model));
    }
}
