package org.netnslab.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code report.html}, self-contained: the host, the measured-vs-predicted table (prediction set) with each row's
 * band and verdict, a miss with its whole reason, the fitted costs (fit set), the designs this kernel lacks
 * (predicted). The console's shorter form: {@link CalibrationConsole}.
 */
public final class CalibrationReport {
    private CalibrationReport() {}

    /**
     * @param file where to write report.html
     * @param host the host
     * @param fit the fit
     * @param rows measured vs predicted, the ladder
     * @param beyond other designs
     * @param unseen the unseen shapes
     * @param lowered a line for each ladder step a host limit lowered or left out
     * @throws IOException it cannot be written
     */
    public static void html(
            Path file,
            HostFacts host,
            CostFit fit,
            List<Predictions.Row> rows,
            List<Beyond.Figure> beyond,
            Calibration.Unseen unseen,
            List<String> lowered)
            throws IOException {
        long met = rows.stream().filter(Predictions.Row::within).count();
        StringBuilder b = new StringBuilder(
                        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>netns-lab calibrate: ")
                .append(esc(host.release()))
                .append("</title><style>body{font-family:sans-serif;margin:2em;max-width:1300px}"
                        + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}"
                        + "td.n{text-align:right;font-family:monospace;white-space:nowrap}tr.miss{background:#fde2e2}tr.ok{background:#e3f6e3}"
                        + "h2{margin-top:1.6em}.note{color:#555}</style></head><body>");
        b.append("<h1>")
                .append(met)
                .append(" of ")
                .append(rows.size())
                .append(" predictions within their band</h1><p><b>")
                .append(esc(CalibrationConsole.headline(host, rows) + CalibrationConsole.unmeasured(fit)))
                .append("</b></p>")
                .append("<p>Host: kernel ")
                .append(esc(host.release()))
                .append(", ")
                .append(host.cpus())
                .append(" CPUs, HZ ")
                .append(host.hz())
                .append(", preemption ")
                .append(esc(host.preempt()))
                .append(", base slice ")
                .append(String.format("%.2f ms", host.baseSliceNs() / 1e6))
                .append(" (")
                .append(esc(host.baseSliceSource()))
                .append(")")
                .append(
                        host.taskGroup() == null
                                ? ""
                                : ", the probes' task group " + esc(host.taskGroup()) + " ("
                                        + esc(host.taskGroupSource()) + ")")
                .append(", load average at start ")
                .append(host.loadAverage1())
                .append(".</p>")
                .append(
                        host.busy()
                                ? "<p style=\"color:#a00\"><b>The machine was busy</b> (load average "
                                        + host.loadAverage1() + " over " + host.cpus() + " CPUs" + busyText(host)
                                        + "): the measurements are noisy; run calibrate again on"
                                        + " a quiet machine before trusting a figure.</p>"
                                : "")
                .append(
                        host.busyDuring()
                                ? "<p style=\"color:#a00\"><b>The machine was busy during the probes</b> ("
                                        + esc(host.busyDuringProbes().text())
                                        + "): the measurements are noisy; run calibrate again on a quiet machine before"
                                        + " trusting a figure.</p>"
                                : "")
                .append(
                        "<p class=\"note\">The costs below were fitted on the <b>fit set</b> (nothing contending) only. The"
                                + " <b>prediction set</b> (contended loads) was never used in the fit: each row is the model's prediction"
                                + " beside the host's measurement. A miss names the mechanism the model lacks.</p>");
        b.append("<h2>Prediction set, the scale ladder: measured vs predicted</h2><p class=\"note\">A load the host ran"
                + " several times is compared by its median; its runs' lowest and highest figures show how much the host"
                + " itself varies. The model's figure is the median of its " + PredictionRuns.SEEDS + " runs (random"
                + " seeds 1 to " + PredictionRuns.SEEDS + "), its lowest and highest beside it.</p>");
        for (String l : lowered) {
            b.append("<p class=\"note\">The ladder: ").append(esc(l)).append(".</p>");
        }
        rowsTable(b, rows);
        b.append("<p>The ladder by size, rows within band of its rows:</p><ul>");
        CalibrationConsole.bySizeLines(rows)
                .forEach(l -> b.append("<li>").append(esc(l)).append("</li>"));
        b.append("</ul>");
        b.append("<h2>Unseen shapes: measured vs predicted</h2><p class=\"note\">")
                .append(
                        unseen.seed() == null && unseen.rows().isEmpty()
                                ? "None: a recording made before them."
                                : unseen.shapes() + " loads drawn at random from the ladder's ranges with seed "
                                        + unseen.seed() + ", each run once on the host; never fitted on, never used to"
                                        + " choose anything. " + esc(CalibrationConsole.unseenCount(unseen)) + ".")
                .append("</p>");
        if (!unseen.rows().isEmpty()) {
            rowsTable(b, unseen.rows());
        }
        b.append("<h2>Fit set: fitted costs</h2><table><tr><th>key (netns-lab.model.)</th><th>value</th>"
                + "<th>residual</th><th>source</th></tr>");
        for (Map<String, CostFit.Fitted> m : List.of(fit.costs(), fit.extras())) {
            for (Map.Entry<String, CostFit.Fitted> e : m.entrySet()) {
                CostFit.Fitted f = e.getValue();
                b.append(row(
                        null,
                        td(esc(e.getKey()) + (m == fit.extras() ? " <i>(measured, not charged)</i>" : "")),
                        figure(value(e.getKey(), f.value())),
                        figure(Double.isNaN(f.residual()) ? "" : String.format("%.1f%%", 100 * f.residual())),
                        td(esc(f.source()))));
            }
        }
        fit.unfitted()
                .forEach((k, why) -> b.append(row(
                        "miss", td(esc(k)), "<td colspan=\"3\">NOT FITTED: " + esc(why) + "; the default stays</td>")));
        if (fit.lifecycle()) {
            b.append(row(
                    null,
                    td("netns.rtnl.setup-share / exit-share <i>(not fitted)</i>"),
                    figure(CalibratedConf.RTNL_SETUP_SHARE + " / " + CalibratedConf.RTNL_EXIT_SHARE),
                    td(""),
                    td(esc(CalibratedConf.RTNL_SOURCE))));
            b.append(
                    row( // as the console's line: the fit leaves it at reference.conf's value
                            null,
                            td("costs.netns.unshare-process-user <i>(not fitted)</i>"),
                            figure(ns(CalibratedConf.unshareProcessUserNanos())),
                            td(""),
                            td("no probe can; reference.conf's value")));
        }
        b.append("</table>");
        if (!beyond.isEmpty()) {
            b.append(
                    "<h2>Beyond this kernel (predicted, never measured)</h2><p class=\"note\">The same calibrated machine"
                            + " running designs this kernel lacks, on the TC1 shape with "
                            + String.format(
                                    "%,d", Beyond.sendsPerInjector(beyond.get(0).injectors()))
                            + " sends per injector (not the ladder's row of that N).</p><table><tr><th>design</th><th>N</th>"
                            + "<th>send mean, us</th><th>vs host era</th><th>p99, us</th><th>sends/s</th></tr>");
            double base = beyond.get(0).meanMicros();
            for (Beyond.Figure f : beyond) {
                b.append(row(
                        null,
                        td(esc(f.design())),
                        figure(String.valueOf(f.injectors())),
                        figure(String.format("%.2f", f.meanMicros())),
                        figure(String.format("x%.2f", f.meanMicros() / base)),
                        figure(String.format("%.2f", f.p99Micros())),
                        figure(String.format("%,.0f", f.throughputPerSec()))));
            }
            b.append("</table>");
        }
        b.append(
                "<p class=\"note\">Files: calibration.json (the three sets, the fit, these rows), calibrated.conf (use with"
                        + " --config), scenario-*.conf (the model's side of every row, runnable with --config calibrated.conf).</p>"
                        + "</body></html>\n");
        Files.writeString(file, b.toString());
    }

    /** A table of measured-vs-predicted rows, a miss with its whole reason. */
    private static void rowsTable(StringBuilder b, List<Predictions.Row> rows) {
        b.append("<table><tr><th>load</th><th>measure</th><th>measured (median)</th><th>host runs: low..high</th>"
                + "<th>predicted (median)</th><th>model seeds: low..high</th><th>ratio</th><th>band</th>"
                + "<th>verdict</th></tr>");
        for (Predictions.Row r : rows) {
            b.append(row(
                    r.within() ? "ok" : "miss",
                    td(esc(r.load())),
                    td(esc(r.measure())),
                    figure(num(r.measured())),
                    figure(esc(range(r))),
                    figure(num(r.predicted())),
                    figure(esc(modelRange(r))),
                    figure(CalibrationConsole.ratioFigure(r)),
                    td(esc(r.band())),
                    td(r.within() ? "within" : "MISS " + esc(r.reason()) + ": " + esc(r.whyMissed()))));
        }
        b.append("</table>");
    }

    /**
     * @param cls the row's class ({@code ok}, {@code miss}), or null
     * @param cells its cells ({@link #td}, {@link #figure})
     * @return the table row
     */
    private static String row(String cls, String... cells) {
        return (cls == null ? "<tr>" : "<tr class=\"" + cls + "\">") + String.join("", cells) + "</tr>";
    }

    /** @return a table cell holding {@code html} (escaped already) */
    private static String td(String html) {
        return "<td>" + html + "</td>";
    }

    /** @return a table cell for a figure: aligned right, in monospace */
    private static String figure(String html) {
        return "<td class=\"n\">" + html + "</td>";
    }

    /** @return ", CPUs 80% busy at the start" where the busy share was sampled, else "" */
    static String busyText(HostFacts host) {
        return host.busyAtStart() == null
                ? ""
                : String.format(", CPUs %.0f%% busy at the start", 100 * host.busyAtStart());
    }

    /**
     * @return a fitted key's value with its unit, as the console and the page both show it: the walk's knee in sockets,
     *     the jitter as a share of each cost, else ns, us or ms
     */
    static String value(String key, double v) {
        return CostFit.count(key)
                ? String.format(
                        "%.0f %s",
                        v,
                        SwitchFit.CACHED.equals(key)
                                ? "tasks"
                                : BackgroundFit.DOUBLING.equals(key) ? "netns" : "sockets")
                : CostFit.dimensionless(key) ? String.format("+-%.1f%%", 100 * v) : ns(v);
    }

    /** @return a cost as calibrated.conf writes it and the model charges it: in whole ns */
    static String ns(double v) {
        long written = Math.round(v);
        return written >= 1_000_000
                ? String.format("%.3f ms", written / 1e6)
                : written >= 1_000 ? String.format("%.3f us", written / 1e3) : written + " ns";
    }

    /**
     * @return for a cost in ns that whole-ns rounding moved by 1% or more, the fit's own figure (e.g. {@code "  (the
     *     fit gave 6.6 ns; the model charges whole ns)"}); else ""
     */
    static String rounded(String key, double v) {
        boolean ns = !CostFit.count(key) && !CostFit.dimensionless(key);
        long written = Math.round(v);
        return ns && written != 0 && Math.abs(v - written) >= 0.01 * Math.abs(written)
                ? String.format("  (the fit gave %.1f ns; the model charges whole ns)", v)
                : "";
    }

    /** @return "3: low..high" for a load the host ran several times, "" for one run */
    static String range(Predictions.Row r) {
        return r.runs() > 1 ? r.runs() + ": " + num(r.low()) + ".." + num(r.high()) : oneRun(r);
    }

    /** @return "5: low..high" over the model's seeds, "1 run" for a figure without its spread */
    static String modelRange(Predictions.Row r) {
        return Double.isNaN(r.predictedLow())
                ? "1 run"
                : PredictionRuns.SEEDS + ": " + num(r.predictedLow()) + ".." + num(r.predictedHigh());
    }

    /** @return the host-runs cell of a row with one figure: a growth row's is a ratio of two sizes' medians */
    static String oneRun(Predictions.Row r) {
        return r.band().equals(RecordedRows.GROWTH) ? "two sizes' ratio" : "1 run";
    }

    /** One style for every figure: thousands grouped from 1,000 on, three significant digits below. */
    static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        return a == 0
                ? "0"
                : a >= 1000
                        ? String.format("%,.0f", v)
                        : a >= 100
                                ? String.format("%.1f", v)
                                : a >= 10
                                        ? String.format("%.2f", v)
                                        : a >= 0.01 ? String.format("%.3f", v) : String.format("%.2e", v);
    }

    private static String esc(String s) {
        if (s == null) {
            return ""; // a recording's missing text (e.g. a task group without its source)
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
