package org.netnslab.workload.injection;

import java.util.List;
import java.util.Set;
import org.netnslab.run.DesignRunner;
import org.netnslab.workload.PopulationBytes;
import org.netnslab.workload.Workload;

/**
 * The {@code uevent-injection} workload (seed 000, TC1-TC3): netns owned by their own user
 * namespaces and netns owned by the initial one, listeners in each, and closed-loop injectors that
 * each wait for one injection to be acknowledged before sending the next, like a process looping on
 * sendmsg.
 *
 * @param usernsOwned netns each owned by a new child of the initial user namespace, its injector root there
 * @param initOwned netns owned by the initial user namespace
 * @param listenersPerNetns listener sockets bound in each netns
 * @param injectionsPerNetns counted injections into each netns at scale 1
 * @param warmupPerNetns injections into each netns before the counted ones, left out of every figure
 * @param injectors closed-loop injector tasks
 * @param kernelUeventsPerNetns counted kernel-generated uevents tagged for a network device of each netns
 *     (kobject_uevent_env for {@code /devices/virtual/net/veth0}) at scale 1, sent by one closed-loop
 *     device task per netns during the counted phase, concurrently with the injections; 0: none
 * @param injectorsPrivileged whether injectors are root in the netns's owning user namespace (the
 *     seed's); false: tasks there with no capabilities, whose every injection the kernel refuses
 *     with EPERM
 * @param injectorStartIntervalNanos simulated ns between one injector's start and the next's, in each phase
 *     ({@code workload.injector-start-interval}; 0: all at once): the seed's shell loop forked its
 *     injectors one after another, so their overlap is a workload property. Virtual execution only.
 * @param listenersWokenAtEnd whether each listener is woken once more when the counted sends are done ({@code
 *     workload.listeners-woken-at-end}): the calibrate probe ends its load by closing a pipe its listeners poll
 *     beside their sockets, so each listener's CPU clock holds that wake-up ({@code costs.uevent.listener-stop}
 *     after its switch-in). Virtual execution with the fair scheduler only.
 */
public record UeventInjectionWorkload(
        int usernsOwned,
        int initOwned,
        int listenersPerNetns,
        long injectionsPerNetns,
        long warmupPerNetns,
        int injectors,
        long kernelUeventsPerNetns,
        boolean injectorsPrivileged,
        long injectorStartIntervalNanos,
        boolean listenersWokenAtEnd)
        implements Workload {
    /**
     * Measure: injector send to acknowledgement (the sendmsg analog), ns, counted phase only. Under the fair
     * scheduler it is timed as a process times itself: from just before the sendmsg to just after it returns
     * to user space (a preemption at the return is in it, the wait for a CPU before the call is not: the
     * boundary of the calibrate probes).
     */
    public static final String TRANSACTION = "uevent.transaction";
    /** Measure: injector send to listener receipt, ns, counted phase only. */
    public static final String DELIVERY = "uevent.delivery";

    @Override
    public List<String> measures() {
        return List.of(TRANSACTION, DELIVERY);
    }

    /** @return {@link org.netnslab.workload.NetnsPopulation#UEVENT_PATH_KEYS}: no proc key */
    @Override
    public Set<String> usedModelKeys() {
        return org.netnslab.workload.NetnsPopulation.UEVENT_PATH_KEYS;
    }

    @Override
    public DesignRunner runner(double scale) {
        return new UeventInjectionRun(this, scale);
    }

    @Override
    public String shape(double scale) {
        long counted = countedPerNetns(scale);
        return netnsCount() + " netns, " + counted + (counted == 1 ? " counted injection" : " counted injections")
                + " per netns (after "
                + warmupPerNetns(scale) + " warm-up)"
                + (kernelUeventsPerNetns == 0
                        ? ""
                        : " and " + kernelUeventsPerNetns(scale)
                                + (kernelUeventsPerNetns(scale) == 1
                                        ? " tagged kernel uevent"
                                        : " tagged kernel uevents")
                                + " per netns");
    }

    /**
     * netns (actor, uevent socket, per-CPU counter, references), listeners, injectors (one more per netns
     * for tagged kernel uevents), each times its measured bytes ({@link PopulationBytes}).
     */
    @Override
    public long populationHeapBytes(double scale, int cpus) {
        long n = netnsCount();
        long injectorsAll = injectors + (kernelUeventsPerNetns(scale) > 0 ? n : 0);
        return n * PopulationBytes.netns(cpus)
                + n * listenersPerNetns * PopulationBytes.LISTENER_BYTES
                + injectorsAll * PopulationBytes.INJECTOR_BYTES;
    }

    /**
     * Names the population's larger part: --scale sets the injections, not the netns (with their listeners) or the
     * injectors.
     */
    @Override
    public String populationAdvice(double scale, int cpus) {
        long n = netnsCount();
        long injectorsAll = injectors + (kernelUeventsPerNetns(scale) > 0 ? n : 0);
        long netns = n * PopulationBytes.netns(cpus) + n * listenersPerNetns * PopulationBytes.LISTENER_BYTES;
        long inj = injectorsAll * PopulationBytes.INJECTOR_BYTES;
        String most = netns >= inj
                ? n + " netns with their " + n * listenersPerNetns
                        + " listeners (workload.netns.userns-owned and init-owned, workload.listeners-per-netns)"
                : injectorsAll + " injectors (workload.injectors)";
        return "lower the population, which --scale does not shrink (it sets the injections): most of it is " + most
                + ", " + Math.round(100.0 * Math.max(netns, inj) / Math.max(1, netns + inj)) + "% of its bytes";
    }

    /** The warm-up's floor over all netns: at least this many warm-up injections (or the configured ones). */
    public static final long WARMUP_FLOOR = 1_000;

    /**
     * {@code warmup-per-netns} scaled with {@code --scale} as the counted injections are, with a floor: at
     * least {@link #WARMUP_FLOOR} injections over all netns, never more than configured. (Unscaled, TC1's
     * warm-up alone would be 100,000 injections for a 0.01-scale run of 10,000.)
     *
     * @param scale the run's {@code --scale}
     * @return warm-up injections per netns at that scale
     */
    public long warmupPerNetns(double scale) {
        long floor = Math.min(warmupPerNetns, (WARMUP_FLOOR + netnsCount() - 1) / Math.max(1, netnsCount()));
        return Math.min(warmupPerNetns, Math.max(floor, Math.round(warmupPerNetns * scale)));
    }

    /** @return netns in all */
    public int netnsCount() {
        return usernsOwned + initOwned;
    }

    /**
     * @param scale the run's {@code --scale}
     * @return counted injections per netns at that scale, rounded, at least 1
     */
    public long countedPerNetns(double scale) {
        return Math.max(1, Math.round(injectionsPerNetns * scale));
    }

    /**
     * @param scale the run's {@code --scale}
     * @return counted tagged kernel uevents per netns at that scale, rounded; 0 when none are configured,
     *     else at least 1
     */
    public long kernelUeventsPerNetns(double scale) {
        return kernelUeventsPerNetns == 0 ? 0 : Math.max(1, Math.round(kernelUeventsPerNetns * scale));
    }
}
