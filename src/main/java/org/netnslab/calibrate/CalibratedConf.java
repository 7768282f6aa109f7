package org.netnslab.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.netnslab.machine.HostBackground;

/**
 * {@code DIR/calibrated.conf}: a HOCON file for {@code --config} holding this host's machine (the fair scheduler
 * with the host's preemption model, HZ, base slice and the fitted task switch, under {@code netns-lab.machine})
 * and the costs {@link CostFit} fitted on it (under {@code netns-lab.model}), so every design run with it runs on
 * this calibrated machine, and a design era named after the kernel release ({@link HostFacts#eraName}) with the
 * model's rules for it: the lockless uevent path with one atomic SEQNUM (lib/kobject_uevent.c since v6.9; before,
 * uevent_sock_mutex), pernet_ops_rwsem (net/core/net_namespace.c since v4.17; before, net_mutex), cleanup_net's
 * expedited grace period (v6.9+) and the struct net freed by the next cleanup_net (v6.13+, 0f6ede9fbc74), each only
 * where the release has it.
 */
public final class CalibratedConf {
    /** {@code netns.rtnl.setup-share} of the host era: 168 / 510 samples (see {@link #text}'s comment). */
    static final double RTNL_SETUP_SHARE = 0.33;
    /** {@code netns.rtnl.exit-share} of the host era: 105 / 302 samples. */
    static final double RTNL_EXIT_SHARE = 0.35;
    /**
     * @return {@code costs.netns.unshare-process-user}, which no probe can fit: reference.conf's value, ns (the console
     *     and report.html say it beside the fitted costs)
     */
    static long unshareProcessUserNanos() {
        return com.typesafe.config.ConfigFactory.defaultReference()
                .getDuration("netns-lab.model.costs.netns.unshare-process-user")
                .toNanos();
    }

    /** Where the RTNL shares come from, for the report. */
    static final String RTNL_SOURCE = "the shares of setup_net's and the exits' CPU under rtnl_mutex, from a perf"
            + " profile of the serial unshare loop on 6.18.44 (docs/calibrate.md); no probe can time a lock's hold here";

    private CalibratedConf() {}

    /**
     * @param host the host's facts
     * @param fit the fitted costs
     * @return the file's text, for probes run now
     */
    public static String text(HostFacts host, CostFit fit) {
        return text(host, fit, null);
    }

    /**
     * @param host the host's facts
     * @param fit the fitted costs
     * @param recording the calibration.json whose measurements were fitted ({@code calibrate --from}), or null when
     *     the probes ran now
     * @return the file's text
     */
    public static String text(HostFacts host, CostFit fit, Path recording) {
        StringBuilder b = new StringBuilder();
        String from = recording == null ? "" : " --from " + comment(recording.toString());
        String whose = recording == null ? "." : " (the recording's host).";
        b.append("# Written by `netns-lab calibrate" + from + "` on "
                + Instant.now().toString().substring(0, 19)
                + "Z for kernel " + comment(host.release()) + ", " + host.cpus() + " CPUs, HZ " + host.hz()
                + ", preempt " + host.preempt() + whose + "\n");
        b.append("# Costs fitted on the fit set only (calibration.json fit_set); each comment names its source.\n");
        String unmeasured = CalibrationConsole.unmeasured(fit);
        if (!unmeasured.isEmpty()) {
            b.append("#").append(unmeasured).append("\n");
        }
        b.append("# Use: ./netns-lab run SCENARIO --config THIS_FILE --set machine.cpus=" + host.cpus()
                + " --set 'designs=[\"" + host.eraName() + "\"]' --set baseline=" + host.eraName() + "\n");
        b.append("# (or keep the scenario's designs: they all run on these costs, e.g. kernel-4.18 on this host).\n");
        b.append("netns-lab {\n");
        // the machine of this host: Linux's fair scheduler with its preemption model, tick and base slice
        b.append("  machine {\n    scheduler = fair\n");
        String preempt = switch (host.preempt()) {
            case "none", "voluntary", "full" -> host.preempt();
            case "lazy" -> "full"; // PREEMPT_LAZY preempts as full at the tick: the nearest the model has
            default -> null;
        };
        b.append(
                preempt == null
                        ? "    # preemption model unknown on this host: the default stays\n"
                        : "    preempt = " + preempt
                                + (host.preempt().equals("lazy") ? "   # the host's lazy, as full" : "") + "\n");
        if (host.hz() >= 100 && host.hz() <= 1000) {
            b.append("    hz = ").append(host.hz()).append("\n");
        }
        setting(b, comment(host.baseSliceSource()), "base-slice", host.baseSliceNs() + "ns");
        if (host.taskGroup()
                != null) { // the probes' processes against the kernel threads, e.g. the cleanup_net kworker
            setting(
                    b,
                    host.taskGroupSource() == null
                            ? "the probes' task group (its source not recorded)"
                            : comment(host.taskGroupSource()),
                    "task-group",
                    host.taskGroup());
        } else {
            b.append(
                    "    # task group not recorded (a calibration.json older than the task-group field): the default stays\n");
        }
        CostFit.Fitted csw = fit.costs().get(CostFit.CONTEXT_SWITCH);
        if (csw != null) {
            setting(b, comment(csw.source()), "context-switch", Math.round(csw.value()) + "ns");
        } else if (fit.unfitted().containsKey(CostFit.CONTEXT_SWITCH)) {
            notFitted(b, "context-switch", fit.unfitted().get(CostFit.CONTEXT_SWITCH));
        }
        CostFit.Fitted coldBase = fit.costs().get(SwitchFit.BASE);
        if (coldBase != null) {
            setting(
                    b,
                    comment(coldBase.source()),
                    "cold-switch",
                    "{ base = " + Math.round(coldBase.value()) + "ns, evicted = "
                            + Math.round(fit.costs().get(SwitchFit.EVICTED).value()) + "ns, cached-tasks = "
                            + Math.round(fit.costs().get(SwitchFit.CACHED).value()) + " }");
        } else if (fit.unfitted().containsKey(SwitchFit.BASE)) {
            notFitted(b, "cold-switch", fit.unfitted().get(SwitchFit.BASE));
        }
        CostFit.Fitted perNetns = fit.extras().get(BackgroundFit.PER_NETNS);
        if (perNetns != null) { // measured, not charged: kept out by the rule (docs/calibrate-ladder.md)
            b.append(
                            "    # host-background measured, not charged (it moved TC1 N=3000's throughput into band and its p99")
                    .append(" and mean out on four calibrations): ")
                    .append(comment(perNetns.source()))
                    .append("\n    # to charge it, uncomment: host-background = { period = ")
                    .append(HostBackground.NONE.periodNanos() / 1_000_000)
                    .append("ms, per-netns = ")
                    .append(Math.round(perNetns.value()))
                    .append("ns, doubling-netns = ")
                    .append(Math.round(fit.extras().get(BackgroundFit.DOUBLING).value()))
                    .append(" }\n");
        } else if (fit.unfitted().containsKey(BackgroundFit.PER_NETNS)) {
            notFitted(b, "host-background", fit.unfitted().get(BackgroundFit.PER_NETNS));
        }
        CostFit.Fitted jitter = fit.costs().get(CostFit.JITTER);
        if (jitter != null) {
            setting(
                    b,
                    comment(jitter.source()),
                    "jitter",
                    String.format(java.util.Locale.ROOT, "%.3f", jitter.value()));
        } else if (fit.unfitted().containsKey(CostFit.JITTER)) {
            notFitted(b, "jitter", fit.unfitted().get(CostFit.JITTER));
        }
        b.append("  }\n  model {\n");
        for (Map.Entry<String, CostFit.Fitted> e : fit.costs().entrySet()) {
            if (e.getKey().startsWith("machine.")) {
                continue;
            }
            CostFit.Fitted f = e.getValue();
            String residual = Double.isNaN(f.residual()) ? "" : String.format("; residual %.1f%%", 100 * f.residual());
            setting(b, comment(f.source()) + residual, e.getKey(), CostFit.hocon(e.getKey(), f.value()));
        }
        for (Map.Entry<String, String> e : fit.unfitted().entrySet()) { // a model key left at its default says why
            if (e.getKey().startsWith("costs.") || e.getKey().startsWith("rcu.")) {
                notFitted(b, e.getKey(), e.getValue());
            }
        }
        b.append("  }\n  designs {\n");
        b.append("    \"" + host.eraName() + "\" {\n");
        boolean lockless = host.kernelAtLeast(6, 9); // lib/kobject_uevent.c: uevent_sock_mutex before v6.9
        boolean rwsem = host.kernelAtLeast(4, 17); // net/core/net_namespace.c: net_mutex before v4.17
        b.append("      description = "
                + com.typesafe.config.ConfigUtil.quoteString("this host (" + comment(host.release()) + ", "
                        + host.cpus() + " CPUs): "
                        + (lockless
                                ? "kernel-6.9+ rules (lockless uevent path, atomic SEQNUM"
                                : "kernel-4.18..6.8 rules (uevent_sock_mutex, one global SEQNUM")
                        + (rwsem ? ", pernet_ops_rwsem)" : ", net_mutex)") + " on the costs calibrate fitted")
                + "\n");
        b.append("      uevent { serialization = " + (lockless ? "lockless" : "global-owner")
                + ", seqnum-scope = global }\n");
        b.append("      netns.lifecycle-lock = " + (rwsem ? "rwsem" : "net-mutex") + "\n");
        if (host.kernelAtLeast(6, 9)) {
            b.append(
                    "      # v6.9+: cleanup_net waits with synchronize_rcu_expedited\n      netns.cleanup-rcu = expedited\n");
        }
        if (host.kernelAtLeast(6, 13)) {
            b.append("      # v6.13+ (0f6ede9fbc74): a batch's struct net is freed by the next cleanup_net\n"
                    + "      netns.struct-net-free = next-cleanup\n");
        }
        // not fitted: no probe can time a lock's hold here (lockdown refuses the function tracer); a profile can
        b.append(
                        "      # RTNL holds in the lifecycle: shares of setup-net and exit-per-netns under rtnl_mutex, from perf\n"
                                + "      # record -g of netns_probe serial 1000 on 6.18.44, 2 vCPUs: 168 of setup_net's 510\n"
                                + "      # samples in loopback_net_init's register_netdev, 105 of cleanup_net's 302 in\n"
                                + "      # default_device_exit_batch and the ip(6)mr exit_batch, lock calls left out\n"
                                + "      netns.rtnl { setup-share = ")
                .append(RTNL_SETUP_SHARE)
                .append(", exit-share = ")
                .append(RTNL_EXIT_SHARE)
                .append(" }\n");
        b.append("    }\n  }\n}\n");
        return b.toString();
    }

    /** Appends a setting of the machine or model block, with its source in the comment line above it. */
    private static void setting(StringBuilder b, String source, String key, String value) {
        b.append("    # ")
                .append(source)
                .append("\n    ")
                .append(key)
                .append(" = ")
                .append(value)
                .append("\n");
    }

    /** Appends the comment that says why {@code key} was not fitted and keeps its default. */
    private static void notFitted(StringBuilder b, String key, String why) {
        b.append("    # ")
                .append(key)
                .append(" not fitted (")
                .append(comment(why))
                .append("): the default (reference.conf or an earlier --config) applies\n");
    }

    /**
     * @param text a source or a host fact, from a probe or a recording
     * @return it on one line: a comment in calibrated.conf ends at its line's end, and a line break in a recording's
     *     text must not become a setting
     */
    static String comment(String text) {
        return text == null ? "" : text.replaceAll("[\\r\\n]+", " ");
    }

    /**
     * @param file where to write
     * @param host the host's facts
     * @param fit the fitted costs
     * @throws IOException the file cannot be written
     */
    public static void write(Path file, HostFacts host, CostFit fit) throws IOException {
        write(file, host, fit, null);
    }

    /**
     * @param file where to write
     * @param host the host's facts
     * @param fit the fitted costs
     * @param recording the calibration.json fitted ({@code --from}), or null
     * @throws IOException the file cannot be written
     */
    public static void write(Path file, HostFacts host, CostFit fit, Path recording) throws IOException {
        Files.writeString(file, text(host, fit, recording));
    }
}
