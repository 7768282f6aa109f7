package org.netnslab.netns;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.netnslab.fault.FaultSettings;
import org.netnslab.netlink.NetlinkSettings;
import org.netnslab.proc.ProcSettings;
import org.netnslab.rcu.RcuSettings;
import org.netnslab.settings.Setting;
import org.netnslab.sockinuse.SockInuseSettings;
import org.netnslab.uevent.UeventSettings;

/**
 * Everything a {@link NamespaceSupervisor} and its netns need to know of the design in force: each
 * model package's settings, read from one model config ({@code netns-lab.model} with a design's own
 * keys over it). Immutable.
 *
 * @param uevent uevent serialization, SEQNUM scope, listener queues
 * @param netns the lifecycle lock, kernel sockets, simulated costs, SOCK_RCU_FREE share
 * @param sockInuse where sock_inuse is freed, its per-CPU slots
 * @param rcu grace periods
 * @param proc the proc connector and the process monitors
 * @param netlink the netlink sysctls (rmem_default, rmem_max) and the test-only fault
 * @param costs simulated kernel work, charged in virtual execution only
 * @param faults the fault switches (test and soak use only; all off by default)
 */
public record ModelSettings(
        UeventSettings uevent,
        NetnsSettings netns,
        SockInuseSettings sockInuse,
        RcuSettings rcu,
        ProcSettings proc,
        NetlinkSettings netlink,
        Costs costs,
        FaultSettings faults) {

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the settings
     * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
     * @throws IllegalArgumentException for an unknown strategy or a value out of range (the first met)
     */
    public static ModelSettings fromConfig(Config model) {
        return new ModelSettings(
                UeventSettings.fromConfig(model),
                NetnsSettings.fromConfig(model),
                SockInuseSettings.fromConfig(model),
                RcuSettings.fromConfig(model),
                ProcSettings.fromConfig(model),
                NetlinkSettings.fromConfig(model),
                Costs.fromConfig(model),
                FaultSettings.fromConfig(model));
    }

    /** @return reference.conf's defaults ({@code netns-lab.model}) */
    public static ModelSettings defaults() {
        return fromConfig(Setting.referenceModel());
    }

    /**
     * @param keys HOCON model keys, e.g. {@code "uevent.serialization = lockless, rcu.grace-period = 2ms"}
     * @return those keys over reference.conf's defaults
     * @throws com.typesafe.config.ConfigException for bad syntax or a wrong type
     * @throws IllegalArgumentException for an unknown strategy or a value out of range
     */
    public static ModelSettings withKeys(String keys) {
        return fromConfig(ConfigFactory.parseString(keys).withFallback(Setting.referenceModel()));
    }
}
