package org.netnslab.design;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.netnslab.fault.FaultSettings;
import org.netnslab.netlink.NetlinkSettings;
import org.netnslab.netns.Costs;
import org.netnslab.netns.LifecycleCosts;
import org.netnslab.netns.ModelSettings;
import org.netnslab.netns.NetnsSettings;
import org.netnslab.proc.ProcCosts;
import org.netnslab.proc.ProcSettings;
import org.netnslab.rcu.RcuSettings;
import org.netnslab.settings.Setting;
import org.netnslab.sockinuse.SockInuseSettings;
import org.netnslab.uevent.UeventCosts;
import org.netnslab.uevent.UeventSettings;

/**
 * The one table of model settings a design is made of: every key of {@code netns-lab.model}, in the
 * order {@code result.json} and the report print a design's strategies, each with where a design's
 * value is found and how it is printed. It drives a scenario's validation (every row is read and
 * checked), {@link Design#fromConfig} and {@link Design#strategies()}. How a key is read and checked
 * is its model package's {@link Setting}.
 */
public final class Strategies {
    private Strategies() {}

    /**
     * One row of the table.
     *
     * @param setting the key, how it is read and its range
     * @param value where a design's value is found; null for a key that is checked but not printed
     * @param printed how the value is printed in the strategies
     * @param <T> the value's type
     */
    public record Row<T>(Setting<T> setting, Function<ModelSettings, T> value, Function<T, String> printed) {
        /** @return the key under {@code netns-lab.model} */
        public String key() {
            return setting.key();
        }

        /** @return whether the strategies print this row */
        public boolean isPrinted() {
            return value != null;
        }

        String print(ModelSettings model) {
            return printed.apply(value.apply(model));
        }
    }

    /** Every row, printed ones first in their printed order (result.json's: do not reorder). */
    public static final List<Row<?>> ROWS = List.of(
            shown(UeventSettings.SERIALIZATION, m -> m.uevent().serialization()),
            shown(UeventSettings.SEQNUM_SCOPE, m -> m.uevent().seqnumScope()),
            shown(UeventSettings.LISTENER_RCVBUF, m -> m.uevent().listener().rcvbuf()),
            shown(NetnsSettings.LIFECYCLE_LOCK, m -> m.netns().lifecycleLock()),
            shown(SockInuseSettings.FREE, m -> m.sockInuse().free()),
            shown(RcuSettings.GRACE_PERIOD, m -> m.rcu().gracePeriod(), d -> d.toNanos() / 1000 + "us"),
            shown(NetnsSettings.KERNEL_SOCKETS, m -> m.netns().kernelSockets()),
            shown(NetnsSettings.RCU_FREE_FRACTION, m -> m.netns().rcuFreeFraction()),
            shown(NetnsSettings.SETUP_COST, m -> m.netns().setupCost(), Strategies::millis),
            shown(NetnsSettings.EXIT_COST, m -> m.netns().exitCost(), Strategies::millis),
            shown(ProcSettings.MONITOR, m -> m.proc().monitor()),
            shown(ProcSettings.FILTER, m -> m.proc().filter()),
            shown(ProcSettings.ACCOUNTING, m -> m.proc().accounting()),
            shown(ProcSettings.LIVE_PROCESSES, m -> m.proc().liveProcesses()),
            checked(NetnsSettings.CLEANUP_RCU),
            checked(NetnsSettings.STRUCT_NET_FREE),
            checked(NetnsSettings.RTNL_SETUP_SHARE),
            checked(NetnsSettings.RTNL_EXIT_SHARE),
            checked(SockInuseSettings.CPUS),
            checked(SockInuseSettings.FAULT),
            checked(RcuSettings.EXPEDITED_GRACE_PERIOD),
            checked(RcuSettings.GP_KTHREAD),
            checked(UeventSettings.LISTENER_RCVBUF_OPTION),
            checked(UeventSettings.LISTENER_ENOBUFS),
            checked(ProcSettings.LISTENER_RCVBUF),
            checked(ProcSettings.LISTENER_RCVBUF_OPTION),
            checked(ProcSettings.LISTENER_ENOBUFS),
            checked(NetlinkSettings.RMEM_DEFAULT),
            checked(NetlinkSettings.RMEM_MAX),
            checked(NetlinkSettings.FAULT),
            checked(ProcSettings.SCANS),
            checked(ProcSettings.SYSCALL_COST),
            checked(UeventSettings.FAULT),
            checked(Costs.MUTEX_HANDOFF),
            checked(LifecycleCosts.SETUP_NET),
            checked(LifecycleCosts.EXIT_PER_NETNS),
            checked(LifecycleCosts.UNSHARE_PROCESS),
            checked(LifecycleCosts.UNSHARE_PROCESS_USER),
            checked(ProcCosts.RECVMSG),
            checked(ProcCosts.PIDFD_FORK),
            checked(ProcCosts.PIDFD_EXIT),
            checked(ProcCosts.SCAN_ENTRY),
            checked(ProcCosts.WAKEUP),
            checked(ProcCosts.EXIT_SWITCH),
            checked(UeventCosts.SEND_OUTSIDE),
            checked(UeventCosts.SEND_INSIDE),
            checked(UeventCosts.BROADCAST_PER_SOCKET),
            checked(UeventCosts.BROADCAST_UNCACHED_EXTRA),
            checked(UeventCosts.BROADCAST_CACHED_SOCKETS),
            checked(UeventCosts.RECV_EVICTED),
            checked(UeventCosts.RECV_CACHED_SOCKETS),
            checked(UeventCosts.LISTENER_STOP),
            checked(UeventCosts.DELIVER_PER_LISTENER),
            checked(UeventCosts.RETURN),
            checked(UeventCosts.RECV),
            checked(UeventCosts.INJECTOR_USER),
            checked(UeventCosts.LISTENER_USER),
            checked(UeventCosts.WAKE_LISTENER),
            checked(UeventCosts.INJECTOR_EXIT),
            checked(UeventCosts.TABLE_WAITER),
            checked(UeventCosts.INJECTOR_EXIT_CALLBACKS),
            checked(UeventCosts.INJECTOR_EXIT_VFREE),
            checked(FaultSettings.NETNS_ACTOR),
            checked(FaultSettings.LISTENER),
            checked(FaultSettings.CLEANUP_WORKER),
            checked(FaultSettings.PROC_CONNECTOR));

    /**
     * The model's keys in groups, each with where a design's values of the group are found: what a workload
     * declares it uses ({@code Workload.usedModelKeys}). Every row's key falls in one group (StrategiesTest).
     */
    public static final java.util.Map<String, Function<ModelSettings, Object>> GROUPS = groups();

    private static java.util.Map<String, Function<ModelSettings, Object>> groups() {
        java.util.Map<String, Function<ModelSettings, Object>> g = new java.util.LinkedHashMap<>();
        g.put("uevent", ModelSettings::uevent);
        g.put("netns", ModelSettings::netns);
        g.put("sockets", ModelSettings::netns); // sockets.rcu-free-fraction is read into NetnsSettings
        g.put("sock-inuse", ModelSettings::sockInuse);
        g.put("rcu", ModelSettings::rcu);
        g.put("proc-monitor", ModelSettings::proc);
        g.put("proc-connector", ModelSettings::proc);
        g.put("netlink", ModelSettings::netlink);
        g.put("costs.mutex-handoff", m -> m.costs().mutexHandoff());
        g.put("costs.uevent", m -> m.costs().uevent());
        g.put("costs.netns", m -> m.costs().lifecycle());
        g.put("costs.proc", m -> m.costs().proc());
        // Scenario-wide only (DesignReader refuses them in a custom design), so two designs never differ here.
        g.put("faults", ModelSettings::faults);
        return java.util.Collections.unmodifiableMap(g);
    }

    /**
     * @param key a model key, e.g. {@code uevent.serialization}
     * @return the group it falls in, or null
     */
    public static String groupOf(String key) {
        return GROUPS.keySet().stream()
                .filter(g -> key.equals(g) || key.startsWith(g + "."))
                .findFirst()
                .orElse(null);
    }

    /**
     * @param a a design's model
     * @param b another's
     * @param groups the groups a workload uses
     * @return whether the two are equal in every one of those groups
     */
    public static boolean sameIn(ModelSettings a, ModelSettings b, java.util.Set<String> groups) {
        return groups.stream().map(GROUPS::get).allMatch(f -> f.apply(a).equals(f.apply(b)));
    }

    private static <T> Row<T> shown(Setting<T> setting, Function<ModelSettings, T> value) {
        return new Row<>(setting, value, v -> v instanceof Enum<?> e ? Setting.spell(e) : String.valueOf(v));
    }

    private static <T> Row<T> shown(Setting<T> setting, Function<ModelSettings, T> value, Function<T, String> printed) {
        return new Row<>(setting, value, printed);
    }

    private static <T> Row<T> checked(Setting<T> setting) {
        return new Row<>(setting, null, null);
    }

    private static String millis(Duration d) {
        return d.toMillis() + "ms";
    }
}
