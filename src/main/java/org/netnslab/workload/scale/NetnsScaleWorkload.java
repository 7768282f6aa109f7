package org.netnslab.workload.scale;

import java.util.List;
import java.util.Set;
import org.netnslab.run.DesignRunner;
import org.netnslab.workload.PopulationBytes;
import org.netnslab.workload.Workload;

/**
 * The {@code netns-scale} workload: a population of live netns held at once (user-namespace owned and
 * init owned, each with its uevent socket and per-CPU sock_inuse counter), one uevent listener on a share
 * of them; then one untagged kernel uevent (kobject_uevent_env with no netns tag) broadcast to every
 * init-owned netns's listeners, tagged uevents to a sample of the netns with a listener, and the dismantle
 * of all (put_net, cleanup_net, net_free). It reports what holding the population costs: heap per netns
 * after a full GC, creations and dismantles per second, the broadcast's fan-out time and peak RSS.
 *
 * <p>{@code --scale} multiplies the population (each configured count rounded, at least 1); the listener
 * share and the tagged sample follow from it.
 *
 * @param usernsOwned netns each owned by a fresh user namespace ({@code netns.userns-owned}), at scale 1
 * @param initOwned netns owned by init_user_ns ({@code netns.init-owned}), at scale 1
 * @param listenerShare the share of netns that get one listener ({@code listener-share}, 0..1): exactly
 *     {@code floor(n * share)} of the netns with ids 1..n, spread evenly over the ids
 * @param taggedNetns netns with a listener that get one tagged uevent each ({@code tagged-netns}; at most
 *     the netns with a listener)
 */
public record NetnsScaleWorkload(int usernsOwned, int initOwned, double listenerShare, int taggedNetns)
        implements Workload {

    /** Measure: a CreateNetns request to the end of its setup_net, ns. */
    public static final String CREATE = "scale.create";
    /** Measure: a netns's last reference to its net_free, ns. */
    public static final String CLEANUP = "scale.cleanup";
    /** Measure: the untagged broadcast's and the tagged uevents' send to receipt by a listener, ns. */
    public static final String DELIVERY = "scale.delivery";

    @Override
    public List<String> measures() {
        return List.of(CREATE, CLEANUP, DELIVERY);
    }

    /** The netns lifecycle and the uevent path with its listener sockets: no proc key. */
    @Override
    public Set<String> usedModelKeys() {
        return org.netnslab.workload.NetnsPopulation.UEVENT_PATH_KEYS;
    }

    @Override
    public DesignRunner runner(double scale) {
        return new NetnsScaleRun(this, scale);
    }

    @Override
    public String shape(double scale) {
        return netnsCount(scale) + " netns (" + usernsOwned(scale) + " userns-owned, " + initOwned(scale)
                + " init-owned), " + listeners(scale) + " with a listener, " + tagged(scale) + " tagged uevents";
    }

    /**
     * netns (actor, uevent socket, per-CPU counter, references, its user namespace) and listeners, each times
     * its measured bytes ({@link PopulationBytes}).
     */
    @Override
    public long populationHeapBytes(double scale, int cpus) {
        long n = netnsCount(scale);
        return n * PopulationBytes.netns(cpus) + listeners(scale) * PopulationBytes.LISTENER_BYTES;
    }

    /**
     * @param scale the run's {@code --scale}
     * @return user-namespace owned netns at that scale: 0 when none are configured, else at least 1
     */
    public int usernsOwned(double scale) {
        return scaled(usernsOwned, scale);
    }

    /**
     * @param scale the run's {@code --scale}
     * @return init-owned netns at that scale: 0 when none are configured, else at least 1
     */
    public int initOwned(double scale) {
        return scaled(initOwned, scale);
    }

    /**
     * @param scale the run's {@code --scale}
     * @return netns in all at that scale
     */
    public int netnsCount(double scale) {
        return usernsOwned(scale) + initOwned(scale);
    }

    /**
     * @param scale the run's {@code --scale}
     * @return netns with a listener at that scale: {@code floor(n * listener-share)}
     */
    public long listeners(double scale) {
        return (long) Math.floor(netnsCount(scale) * listenerShare);
    }

    /**
     * @param scale the run's {@code --scale}
     * @return tagged uevents at that scale: {@code tagged-netns}, at most one per netns with a listener
     */
    public long tagged(double scale) {
        return Math.min(taggedNetns, listeners(scale));
    }

    /**
     * Whether netns {@code id} (ids 1, 2, ... in creation order) gets a listener: exactly
     * {@code floor(k * share)} of the ids 1..k do, for every k.
     *
     * @param id the netns id, from 1
     * @return whether it gets a listener
     */
    public boolean hasListener(long id) {
        return Math.floor(id * listenerShare) > Math.floor((id - 1) * listenerShare);
    }

    static int scaled(int configured, double scale) {
        return configured == 0 ? 0 : (int) Math.max(1, Math.round(configured * scale));
    }

    /**
     * Only {@code faults.cleanup-worker}: the broadcast and tagged phases wait for every listener's delivery and every
     * tagged uevent's answer, which a killed listener or a refused request (EAGAIN, not sent again) never gives.
     */
    @Override
    public java.util.Set<org.netnslab.fault.FaultSwitch> faultSwitches() {
        return java.util.EnumSet.of(org.netnslab.fault.FaultSwitch.CLEANUP_WORKER);
    }

    /** proc-connector has nothing to act on here; the others would stall a phase ({@link #faultSwitches}). */
    @Override
    public String faultRefusal(org.netnslab.fault.FaultSwitch f) {
        return f == org.netnslab.fault.FaultSwitch.PROC_CONNECTOR
                ? "has no proc connector for it to act on"
                : Workload.super.faultRefusal(f);
    }
}
