package org.netnslab.netns;

import java.time.Duration;
import java.util.function.Function;
import org.netnslab.settings.Setting;

/**
 * Simulated CPU costs of the netns lifecycle ({@code netns-lab.model.costs.netns}), charged in virtual
 * execution only, on the simulated CPUs ({@link org.netnslab.machine.Machine#compute}). Sources are in
 * reference.conf. The lifecycle's sleeping waits (RCU, netdev refcount waits) are not here: they are
 * {@code netns.setup-cost} / {@code netns.exit-cost} (wall time, no CPU, charged live and virtual) and
 * the RCU domain's grace periods.
 *
 * @param setupNet CPU of setup_net's pernet inits per netns (net/core/net_namespace.c v4.16
 *     copy_net_ns -> setup_net), run by the unshare task while it holds the lifecycle lock, 0..10ms
 * @param exitPerNetns CPU of the pernet exits per netns in cleanup_net (v4.16), run by the netns
 *     kworker while it holds the lifecycle lock, 0..10ms
 * @param unshareProcess CPU of one {@code unshare -n /bin/true} process outside the lock: fork, exec
 *     of unshare and of /bin/true, exit (kernel/fork.c, fs/exec.c, kernel/exit.c), 0..100ms
 * @param unshareUser the user-space part of {@code unshareProcess} (ld.so, unshare's and /bin/true's own
 *     code), run as a user step by the fair scheduler (the rest is kernel); a value above
 *     {@code unshareProcess} counts as all of it
 */
public record LifecycleCosts(Duration setupNet, Duration exitPerNetns, Duration unshareProcess, Duration unshareUser) {
    /** {@code costs.netns.setup-net}. */
    public static final Setting<Duration> SETUP_NET = Setting.duration("costs.netns.setup-net", Duration.ofMillis(10));
    /** {@code costs.netns.exit-per-netns}. */
    public static final Setting<Duration> EXIT_PER_NETNS =
            Setting.duration("costs.netns.exit-per-netns", Duration.ofMillis(10));
    /** {@code costs.netns.unshare-process}. */
    public static final Setting<Duration> UNSHARE_PROCESS =
            Setting.duration("costs.netns.unshare-process", Duration.ofMillis(100));

    /** {@code costs.netns.unshare-process-user}. */
    public static final Setting<Duration> UNSHARE_PROCESS_USER =
            Setting.duration("costs.netns.unshare-process-user", Duration.ofMillis(100));

    /** Checks the ranges. */
    public LifecycleCosts {
        SETUP_NET.check(setupNet);
        EXIT_PER_NETNS.check(exitPerNetns);
        UNSHARE_PROCESS.check(unshareProcess);
        UNSHARE_PROCESS_USER.check(unshareUser);
        // a user part above the whole (e.g. unshare-process fitted on a host where the process is cheaper than
        // the seed's user time) is the whole: ChurnWorker charges min(user, process) as user, the rest as kernel
    }

    /**
     * @param value each cost's value, given its setting: read from a model config, or scaled (netns.Costs)
     * @return the costs
     * @throws IllegalArgumentException for a value out of its setting's range
     */
    public static LifecycleCosts of(Function<Setting<Duration>, Duration> value) {
        return new LifecycleCosts(
                value.apply(SETUP_NET),
                value.apply(EXIT_PER_NETNS),
                value.apply(UNSHARE_PROCESS),
                value.apply(UNSHARE_PROCESS_USER));
    }
}
