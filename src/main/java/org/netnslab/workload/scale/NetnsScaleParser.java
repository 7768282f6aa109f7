package org.netnslab.workload.scale;

import org.netnslab.settings.HoconChecker;
import org.netnslab.settings.HoconSyntax;
import org.netnslab.workload.NetnsPopulation;
import org.netnslab.workload.WorkloadParser;

/**
 * Reads a {@code netns-scale} workload: {@code netns { userns-owned, init-owned }} (counts at scale 1),
 * {@code listener-share} (default 0.01), {@code tagged-netns} (default 1000). No population cap: the up-front
 * heap estimate ({@code scenario.HeapEstimate}) decides whether the population fits the JVM.
 */
public final class NetnsScaleParser extends WorkloadParser {
    /** Reads {@code workload.type = netns-scale}. */
    public NetnsScaleParser() {
        super("netns-scale", "netns", "listener-share", "tagged-netns");
    }

    @Override
    protected NetnsScaleWorkload read(HoconChecker c, double scale) {
        NetnsPopulation.Counts netns = NetnsPopulation.Counts.read(c, MAX_POPULATION);
        long userns = netns.usernsOwned();
        long init = netns.initOwned();
        int before = c.problems().size();
        double share = 0.01;
        if (c.conf().hasPathOrNull("workload.listener-share")) {
            com.typesafe.config.ConfigValue v =
                    c.conf().hasPath("workload.listener-share") ? c.conf().getValue("workload.listener-share") : null;
            if (v == null || v.valueType() != com.typesafe.config.ConfigValueType.NUMBER) {
                c.problem(
                        "workload.listener-share",
                        "must be a number in 0..1 (0.01: one netns in 100), got "
                                + (v == null
                                        ? "null"
                                        : v.valueType().name().toLowerCase() + " " + HoconSyntax.shown(v)));
            } else {
                share = ((Number) v.unwrapped()).doubleValue();
                if (!(share >= 0 && share <= 1)) {
                    c.problem(
                            "workload.listener-share",
                            "must be a share in 0..1 (0.01: one netns in 100), got " + share);
                }
            }
        }
        long tagged = c.integer("workload.tagged-netns", 1000L, 0, MAX_POPULATION);
        long listenersAtOne = (long) Math.floor((userns + init) * share); // see NetnsScaleWorkload#listeners
        if (netns.ok() && c.problems().size() == before && tagged > listenersAtOne) {
            c.problem(
                    "workload.tagged-netns",
                    tagged + " tagged netns, more than the " + listenersAtOne
                            + " netns with a listener (listener-share x netns): each tagged uevent goes to a netns with a listener");
        }
        NetnsScaleWorkload w = new NetnsScaleWorkload((int) userns, (int) init, share, (int) tagged);
        capScaled(
                c,
                scale,
                "workload.netns",
                "userns-owned + init-owned = " + (userns + init) + " ",
                "",
                (userns + init) * scale,
                MAX_POPULATION,
                " netns");
        return w;
    }
}
