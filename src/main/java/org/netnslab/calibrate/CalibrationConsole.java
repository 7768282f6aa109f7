package org.netnslab.calibrate;

import static org.netnslab.calibrate.CalibrationReport.num;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code calibrate} prints when it is done, for a reader new to it: a headline that says what the count of rows
 * within their band means for this kernel, the fitted costs, the measured-vs-predicted table with one line per row
 * (a miss carries its reason's code, the codes explained under the table; the whole reasons are in report.html) and
 * the designs this kernel lacks. Every figure is named with its unit, in its column's header or beside it.
 */
public final class CalibrationConsole {
    private CalibrationConsole() {}

    /**
     * @param result what a calibration found
     * @return the console text
     */
    public static String text(Calibration.Result result) {
        HostFacts host = result.host();
        List<Predictions.Row> rows = result.rows();
        StringBuilder b = new StringBuilder(headline(host, rows) + unmeasured(result.fit())).append('\n');
        b.append(String.format(
                "Host: kernel %s, %d CPUs, HZ %d, preempt %s%s.%n",
                host.release(),
                host.cpus(),
                host.hz(),
                host.preempt(),
                host.taskGroup() == null ? "" : ", task group " + host.taskGroup()));
        if (host.busy()) {
            b.append(String.format(
                    "The machine was busy (load average %.2f over %d CPUs%s): the measurements are noisy.%n",
                    host.loadAverage1(), host.cpus(), CalibrationReport.busyText(host)));
        }
        result.lowered().forEach(l -> b.append("The ladder: ").append(l).append(".\n"));
        b.append('\n');
        fitted(b, result.fit());
        b.append("\nPrediction set, the scale ladder (contended loads, never fitted on): the host's figure, the median"
                + " of its runs, against the model's; each in the unit its measure names\n");
        table(b, rows);
        bySize(b, rows);
        unseen(b, result.unseen());
        beyond(b, result.beyond());
        return b.toString();
    }

    /**
     * The ladder by size: for each kind of load, each size's rows within band of its rows.
     */
    private static void bySize(StringBuilder b, List<Predictions.Row> rows) {
        b.append("The ladder by size, rows within band of its rows:\n");
        bySizeLines(rows).forEach(l -> b.append("  ").append(l).append('\n'));
    }

    /** @return the ladder by size, a line for each kind of load: each size's rows within band of its rows */
    static List<String> bySizeLines(List<Predictions.Row> rows) {
        Map<String, Map<String, long[]>> kinds = new java.util.LinkedHashMap<>(); // kind -> load -> {within, all}
        for (Predictions.Row r : rows) {
            long[] n = kinds.computeIfAbsent(r.load().replaceAll("[0-9][0-9.]*", "#"), k -> new LinkedHashMap<>())
                    .computeIfAbsent(r.load(), k -> new long[2]);
            n[0] += r.within() ? 1 : 0;
            n[1]++;
        }
        return kinds.values().stream()
                .map(loads -> String.join(
                        " | ",
                        loads.entrySet().stream()
                                .map(e -> e.getKey() + " " + e.getValue()[0] + "/" + e.getValue()[1])
                                .toList()))
                .toList();
    }

    /** The unseen shapes: their own table and count. */
    private static void unseen(StringBuilder b, Calibration.Unseen unseen) {
        if (unseen.seed() == null && unseen.rows().isEmpty()) {
            b.append("\nUnseen shapes: none (a recording made before them)\n");
            return;
        }
        b.append(String.format(
                "%nUnseen shapes (%d drawn at random from the ladder's ranges with seed %s, each run once on the host;"
                        + " never fitted on, never used to choose anything)%n",
                unseen.shapes(),
                unseen.seed() == null ? "unknown" : unseen.seed().toString()));
        if (!unseen.rows().isEmpty()) {
            table(b, unseen.rows());
        }
        b.append(unseenCount(unseen)).append('\n');
    }

    /** @return "unseen shapes: X of Y within band" and what they are rows of */
    static String unseenCount(Calibration.Unseen unseen) {
        long within = unseen.rows().stream().filter(Predictions.Row::within).count();
        return "unseen shapes: " + within + " of " + unseen.rows().size() + " within band (the rows of "
                + unseen.shapes() + " shape" + (unseen.shapes() == 1 ? "" : "s") + ")";
    }

    /**
     * @param host the host (its kernel; how busy the probes found it)
     * @param rows measured vs predicted
     * @return one sentence: how many rows are within their band, and what that says about trusting the model here
     */
    static String headline(HostFacts host, List<Predictions.Row> rows) {
        long within = rows.stream().filter(Predictions.Row::within).count();
        int all = rows.size();
        long missed = all - within;
        String busy = host.busyDuring()
                ? ", measured on a busy machine (" + host.busyDuringProbes().text() + ")"
                : "";
        if (all == 0) {
            return "No prediction rows on kernel " + host.release() + busy + ": the probes ran no contended load, so"
                    + " nothing here says how far to trust the model on this kernel.";
        }
        String count = (missed == 0 ? "All " + all : within + " of " + all) + " predictions within their band on"
                + " kernel " + host.release() + busy + ": ";
        String misses = missed == 1 ? "the measure marked MISS" : "the " + missed + " measures marked MISS";
        if (missed == 0) {
            return count + "the calibrated model reproduces every contended load it was not fitted on, so its figures"
                    + " for this kernel can be trusted within these bands.";
        }
        if (within * 4 >= all * 3L) {
            return count + "the calibrated model reproduces most contended loads it was not fitted on; trust its"
                    + " figures for this kernel, except on " + misses + ".";
        }
        if (within * 2 >= all) {
            return count + "the calibrated model follows this kernel only in part; trust its figures only on the"
                    + " measures marked within.";
        }
        return count + "the calibrated model does not reproduce this kernel's contended loads; do not rely on its"
                + " figures for this kernel.";
    }

    /** Each part calibrate runs, by the prefix of the costs its fit-set probes give. */
    private static final Map<String, String> PART_COSTS = partCosts();

    private static Map<String, String> partCosts() {
        Map<String, String> m = new java.util.LinkedHashMap<>(); // in ProbeSet.PARTS' order: the sentence's
        m.put("uevent", "costs.uevent.");
        m.put("proc", "costs.proc.");
        m.put("lifecycle", "costs.netns.");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * @param fit a calibration's fit
     * @return "" when every part was measured; else a sentence naming the parts that were not (calibrate --only): the
     *     headline's trust covers the parts run, and their costs in calibrated.conf are reference.conf's
     */
    static String unmeasured(CostFit fit) {
        List<String> not = PART_COSTS.entrySet().stream()
                .filter(e -> fit.costs().keySet().stream().noneMatch(k -> k.startsWith(e.getValue()))
                        && fit.unfitted().keySet().stream().noneMatch(k -> k.startsWith(e.getValue())))
                .map(Map.Entry::getKey)
                .toList();
        return not.isEmpty() || not.size() == PART_COSTS.size()
                ? ""
                : " Not measured (calibrate --only): the " + String.join(" and ", not) + " loads; what this says holds"
                        + " for the parts run, and calibrated.conf keeps reference.conf's costs for the others.";
    }

    static void fitted(StringBuilder b, CostFit fit) {
        b.append("Fitted on the fit set (nothing contending), the model's cost of each operation (a line saying NOT"
                + " FITTED or not fitted keeps another source):\n");
        for (Map.Entry<String, CostFit.Fitted> e : fit.costs().entrySet()) {
            b.append(String.format(
                    "  %-38s %12s%s%s%s%n",
                    e.getKey(),
                    CalibrationReport.value(e.getKey(), e.getValue().value()),
                    residual(e.getValue()),
                    CalibrationReport.rounded(e.getKey(), e.getValue().value()),
                    e.getValue().source().contains(JitterFit.WIDEST)
                            ? "  (the model's widest: the fit gave more)"
                            : ""));
        }
        for (Map.Entry<String, CostFit.Fitted> e : fit.extras().entrySet()) {
            b.append(String.format(
                    "  %-38s %12s%s  (measured, not charged)%n",
                    e.getKey(), CalibrationReport.value(e.getKey(), e.getValue().value()), residual(e.getValue())));
        }
        fit.unfitted()
                .forEach((k, why) -> b.append(String.format(
                        "  %-38s NOT FITTED, the default stays: %s (in full in report.html)%n", k, shortly(why))));
        if (!fit.lifecycle()) {
            return;
        }
        b.append(String.format(
                "  %-38s %12s  (not fitted: from a perf profile of this kernel, docs/calibrate.md)%n",
                "netns.rtnl.setup-share / exit-share",
                CalibratedConf.RTNL_SETUP_SHARE + " / " + CalibratedConf.RTNL_EXIT_SHARE + " of the CPU"));
        b.append(String.format(
                "  %-38s %12s  (not fitted: no probe can; reference.conf's value)%n",
                "costs.netns.unshare-process-user", CalibrationReport.ns(CalibratedConf.unshareProcessUserNanos())));
    }

    /** A table of rows: one line a row, a miss's reason as its code, the codes explained under the table. */
    private static void table(StringBuilder b, List<Predictions.Row> rows) {
        // the columns as wide as their longest entry (a load such as "proc listeners, 8000 processes")
        int loadWidth = Math.max(
                26, rows.stream().mapToInt(r -> r.load().length()).max().orElse(0));
        int measureWidth = Math.max(
                34, rows.stream().mapToInt(r -> r.measure().length()).max().orElse(0));
        int bandWidth =
                Math.max(6, rows.stream().mapToInt(r -> r.band().length()).max().orElse(0));
        // two spaces between columns, so the longest entry of one never runs into the next
        String row =
                "  %-" + loadWidth + "s  %-" + measureWidth + "s %12s  %-29s %12s %10s  %-" + bandWidth + "s  %s%n";
        b.append(String.format(
                row,
                "load",
                "measure",
                "host",
                "host runs: lowest..highest",
                "model",
                "model/host",
                "band",
                "verdict"));
        Set<String> reasons = new LinkedHashSet<>();
        for (Predictions.Row r : rows) {
            if (!r.within()) {
                reasons.add(r.reason());
            }
            b.append(String.format(
                    row,
                    r.load(),
                    r.measure(),
                    num(r.measured()),
                    r.runs() > 1
                            ? r.runs() + " runs: " + num(r.low()) + ".." + num(r.high())
                            : CalibrationReport.oneRun(r),
                    num(r.predicted()),
                    ratio(r),
                    r.band(),
                    r.within() ? "within" : "MISS " + r.reason()));
        }
        b.append("  within: the model's figure is inside the band around the host's (+-25%: that far either way;"
                + " 2x: up to twice or half)\n");
        b.append("  model: the median of its " + PredictionRuns.SEEDS + " runs (random seeds 1 to "
                + PredictionRuns.SEEDS + "), as host is of the host's; report.html gives their lowest..highest\n");
        if (!reasons.isEmpty()) {
            b.append("  MISS: outside it, for the reason its code names (each in full in report.html):\n");
            for (String code : reasons) {
                b.append(String.format("    %-6s %s%n", code, Predictions.Row.legend(code)));
            }
        }
    }

    private static void beyond(StringBuilder b, List<Beyond.Figure> beyond) {
        if (beyond.isEmpty()) {
            return;
        }
        b.append(String.format(
                "%nBeyond this kernel (PREDICTED on this host's calibrated machine; never measured), the TC1 shape with"
                        + " %d injectors started at once, %,d sends each (not the ladder's row of that N):%n",
                beyond.get(0).injectors(), Beyond.sendsPerInjector(beyond.get(0).injectors())));
        String row = "  %-28s %14s %22s %13s %20s%n";
        b.append(String.format(
                row, "design", "send mean, us", "mean / the host era's", "send p99, us", "throughput, sends/s"));
        double base = beyond.get(0).meanMicros();
        for (Beyond.Figure f : beyond) {
            b.append(String.format(
                    row,
                    f.design(),
                    String.format("%.2f", f.meanMicros()),
                    String.format("%.2fx", f.meanMicros() / base),
                    String.format("%.2f", f.p99Micros()),
                    String.format("%,.0f", f.throughputPerSec())));
        }
    }

    /** @return why a key was not fitted, to its first aside or clause (at most 100 characters) */
    private static String shortly(String why) {
        int cut = why.length();
        for (String at : new String[] {" (", ": ", "; "}) {
            cut = why.indexOf(at) > 0 ? Math.min(cut, why.indexOf(at)) : cut;
        }
        cut = Math.min(cut, 100);
        return why.substring(0, cut) + (cut < why.length() ? " ..." : "");
    }

    private static String residual(CostFit.Fitted f) {
        return Double.isNaN(f.residual()) ? "" : String.format("  residual %.1f%%", 100 * f.residual());
    }

    /**
     * @param r a row
     * @return its model/host as the tables show it: two decimals, or up to four where two would put it on its band's
     *     edge (1.2502 shows as 1.2502x beside "+-25%", not as 1.25x beside its MISS)
     */
    static String ratio(Predictions.Row r) {
        return Double.isFinite(r.ratio()) ? ratioFigure(r) + "x" : "n/a";
    }

    /** @return {@link #ratio}'s figure without its "x" (report.html's column), "n/a" when not finite */
    static String ratioFigure(Predictions.Row r) {
        double ratio = r.ratio();
        if (!Double.isFinite(ratio)) {
            return "n/a";
        }
        String two = String.format(java.util.Locale.ROOT, "%.2f", ratio);
        List<String> edges = switch (r.band()) {
            case "+-25%" -> List.of("0.75", "1.25");
            case "2x", RecordedRows.GROWTH -> List.of("0.50", "2.00");
            default -> List.of(); // an absolute band's edges are not in the ratio
        };
        // on an edge, up to four decimals, as few as tell it from the edge (at least three)
        return edges.contains(two)
                ? String.format(java.util.Locale.ROOT, "%.4f", ratio).replaceAll("(\\.\\d{3}\\d*?)0+$", "$1")
                : two;
    }
}
