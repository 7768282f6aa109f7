package org.netnslab.workload.injection;

import org.netnslab.settings.HoconChecker;
import org.netnslab.workload.NetnsPopulation;
import org.netnslab.workload.WorkloadParser;

/**
 * Reads a {@code uevent-injection} workload: {@code netns { userns-owned, init-owned }},
 * {@code listeners-per-netns}, {@code injections-per-netns}, {@code warmup-per-netns}, {@code injectors},
 * {@code kernel-uevents-per-netns} (default 0), {@code injectors-privileged} (default true),
 * {@code injector-start-interval} (default 0: all at once; virtual execution only), {@code listeners-woken-at-end}
 * (default false; the fair scheduler only).
 */
public final class UeventInjectionParser extends WorkloadParser {
    /** Reads {@code workload.type = uevent-injection}. */
    public UeventInjectionParser() {
        super(
                "uevent-injection",
                "netns",
                "listeners-per-netns",
                "injections-per-netns",
                "warmup-per-netns",
                "injectors",
                "kernel-uevents-per-netns",
                "injectors-privileged",
                "injector-start-interval",
                "listeners-woken-at-end");
    }

    @Override
    protected UeventInjectionWorkload read(HoconChecker c, double scale) {
        NetnsPopulation.Counts netns = NetnsPopulation.Counts.read(c, MAX_POPULATION);
        long userns = netns.usernsOwned();
        long init = netns.initOwned();
        boolean tooMany = netns.ok() && netns.total() > MAX_POPULATION;
        if (tooMany) {
            c.problem(
                    "workload.netns", "userns-owned + init-owned = " + netns.total() + ", more than " + MAX_POPULATION);
        }
        long listeners = c.integer("workload.listeners-per-netns", 1L, 0, 1024);
        // too many netns alone is said above: the product would blame a listeners-per-netns the user may not have set
        if (!tooMany && netns.total() * listeners > MAX_POPULATION) {
            c.problem(
                    "workload.listeners-per-netns",
                    "netns x listeners-per-netns = " + netns.total() * listeners + " listeners, more than "
                            + MAX_POPULATION);
        }
        long injections = c.integer("workload.injections-per-netns", null, 1, MAX_SCALED);
        long warmup = c.integer("workload.warmup-per-netns", 0L, 0, MAX_SCALED);
        long injectors = c.integer("workload.injectors", null, 1, MAX_POPULATION);
        long kernel = c.integer("workload.kernel-uevents-per-netns", 0L, 0, MAX_SCALED);
        boolean privileged = c.bool("workload.injectors-privileged", true);
        Long interval = c.nanos("workload.injector-start-interval", 0, 60_000_000_000L, "500ms");
        boolean wokenAtEnd = c.bool("workload.listeners-woken-at-end", false);
        UeventInjectionWorkload w = new UeventInjectionWorkload(
                (int) userns,
                (int) init,
                (int) listeners,
                injections,
                warmup,
                (int) injectors,
                kernel,
                privileged,
                interval == null ? 0 : interval,
                wokenAtEnd);
        boolean warmUpTakesItPast = w.injectionsPerNetns() * scale <= MAX_SCALED; // where the limit is passed
        capScaled(
                c,
                scale,
                "workload.injections-per-netns",
                "",
                warmUpTakesItPast ? ", plus workload.warmup-per-netns (" + w.warmupPerNetns() + ")," : "",
                w.injectionsPerNetns() * scale + w.warmupPerNetns(),
                MAX_SCALED,
                " injections per netns");
        capScaled(c, scale, "workload.kernel-uevents-per-netns", w.kernelUeventsPerNetns() * scale, MAX_SCALED, "");
        return w;
    }
}
