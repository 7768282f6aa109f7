package org.netnslab.netns;

import com.typesafe.config.Config;
import java.time.Duration;
import java.util.function.Function;
import org.netnslab.proc.ProcCosts;
import org.netnslab.settings.Setting;
import org.netnslab.uevent.UeventCosts;

/**
 * The cost block ({@code netns-lab.model.costs}): what each simulated kernel operation costs in virtual
 * execution, split into the part under a lock and the part outside where the kernel code has one. Live
 * execution charges none of them (the JVM's own work is the cost there). A design changes a cost only
 * where the kernel code it stands for differs. Sources are in reference.conf beside each key.
 *
 * @param mutexHandoff {@code costs.mutex-handoff}: wake-up latency of a sleeping mutex waiter granted the
 *     lock (every {@link org.netnslab.machine.Mutex}), 0..10ms
 * @param uevent the uevent paths
 * @param lifecycle netns creation and cleanup
 * @param proc the proc connector and monitors
 */
public record Costs(Duration mutexHandoff, UeventCosts uevent, LifecycleCosts lifecycle, ProcCosts proc) {
    /** {@code costs.mutex-handoff}. */
    public static final Setting<Duration> MUTEX_HANDOFF =
            Setting.duration("costs.mutex-handoff", Duration.ofMillis(10));

    /** Checks the ranges. */
    public Costs {
        MUTEX_HANDOFF.check(mutexHandoff);
    }

    /**
     * Every cost's key under {@code costs}, in reference.conf's order: what a sensitivity study may vary
     * ({@link #nanos}, {@link #scaled}).
     */
    public static final java.util.List<String> KEYS = java.util.List.of(
            "mutex-handoff",
            "netns.setup-net",
            "netns.exit-per-netns",
            "netns.unshare-process",
            "proc.recvmsg",
            "proc.pidfd-fork",
            "proc.pidfd-exit",
            "proc.scan-entry",
            "uevent.send-outside",
            "uevent.send-inside",
            "uevent.broadcast-per-socket",
            "uevent.deliver-per-listener",
            "uevent.return",
            "uevent.recv",
            "uevent.injector-user",
            "uevent.listener-user",
            "netns.unshare-process-user",
            "proc.wakeup",
            "uevent.wake-listener",
            "uevent.injector-exit",
            "uevent.table-waiter",
            "uevent.injector-exit-callbacks",
            "uevent.injector-exit-vfree");

    /**
     * The costs {@code calibrate} fits that a sensitivity study never varies, kept out of {@link #KEYS} so that a
     * study's draws stay those of a model without them.
     */
    public static final java.util.Set<String> CALIBRATE_FITS =
            java.util.Set.of("uevent.broadcast-uncached-extra", "proc.exit-switch");

    /**
     * @param key one of {@link #KEYS}, or {@code uevent.broadcast-uncached-extra} (a calibrated walk's knee extra)
     *     or {@code proc.exit-switch} (a calibrated exit's charge), kept out of KEYS so that a study's draws stay
     *     those of a model without them
     * @return that cost, ns
     * @throws IllegalArgumentException for another key
     */
    public long nanos(String key) {
        return switch (key) {
            case "mutex-handoff" -> mutexHandoff.toNanos();
            case "netns.setup-net" -> lifecycle.setupNet().toNanos();
            case "netns.exit-per-netns" -> lifecycle.exitPerNetns().toNanos();
            case "netns.unshare-process" -> lifecycle.unshareProcess().toNanos();
            case "proc.recvmsg" -> proc.recvmsg().toNanos();
            case "proc.pidfd-fork" -> proc.pidfdFork().toNanos();
            case "proc.pidfd-exit" -> proc.pidfdExit().toNanos();
            case "proc.scan-entry" -> proc.scanEntry().toNanos();
            case "uevent.send-outside" -> uevent.sendOutside();
            case "uevent.send-inside" -> uevent.sendInside();
            case "uevent.broadcast-per-socket" -> uevent.broadcastPerSocket();
            case "uevent.deliver-per-listener" -> uevent.deliverPerListener();
            case "uevent.return" -> uevent.sendReturn();
            case "uevent.recv" -> uevent.recv();
            case "uevent.injector-user" -> uevent.injectorUser();
            case "uevent.listener-user" -> uevent.listenerUser();
            case "uevent.wake-listener" -> uevent.wakeListener();
            case "uevent.injector-exit" -> uevent.injectorExit();
            case "uevent.table-waiter" -> uevent.tableWaiter();
            case "uevent.injector-exit-callbacks" -> uevent.injectorExitCallbacks();
            case "uevent.injector-exit-vfree" -> uevent.injectorExitVfree();
            case "uevent.broadcast-uncached-extra" -> uevent.broadcastUncachedExtra();
            case "uevent.recv-evicted" -> uevent.recvEvicted();
            case "uevent.listener-stop" -> uevent.listenerStop();
            case "netns.unshare-process-user" -> lifecycle.unshareUser().toNanos();
            case "proc.wakeup" -> proc.wakeup().toNanos();
            case "proc.exit-switch" -> proc.exitSwitch().toNanos();
            default -> throw new IllegalArgumentException("no cost costs." + key + "; known: " + KEYS);
        };
    }

    /**
     * The same costs, each multiplied by its factor (a sensitivity sample), rounded to the ns.
     *
     * @param factor each key's factor ({@link #KEYS}), &gt;= 0; 1 leaves the cost as it is
     * @return the scaled costs
     * @throws IllegalArgumentException when a scaled cost leaves its key's range
     */
    public Costs scaled(java.util.function.ToDoubleFunction<String> factor) {
        return of(
                cost -> {
                    String k = cost.key().substring("costs.".length());
                    return Duration.ofNanos(Math.round(nanos(k) * factor.applyAsDouble(k)));
                },
                count -> count == UeventCosts.RECV_CACHED_SOCKETS
                        ? uevent.recvCachedSockets()
                        : uevent.broadcastCachedSockets());
    }

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the costs
     * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
     * @throws IllegalArgumentException for a value out of range
     */
    public static Costs fromConfig(Config model) {
        return of(cost -> cost.read(model), count -> count.read(model));
    }

    private static Costs of(
            Function<Setting<Duration>, Duration> value, java.util.function.ToIntFunction<Setting<Integer>> count) {
        return new Costs(
                value.apply(MUTEX_HANDOFF),
                UeventCosts.of(value, count),
                LifecycleCosts.of(value),
                ProcCosts.of(value));
    }
}
