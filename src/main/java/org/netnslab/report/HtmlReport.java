package org.netnslab.report;

import static org.netnslab.report.Html.esc;
import static org.netnslab.report.Html.fmt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.netnslab.metrics.MeasureDescriptions;
import org.netnslab.metrics.MinScale;
import org.netnslab.metrics.RunResult;

/**
 * report.html: one self-contained, well-formed XHTML page (inline SVG charts, no network) rendered from a
 * {@link RunRecord} only, so the page a run writes and the one {@code netns-lab report} rebuilds are the same byte
 * for byte (the SVG ids are numbered, not drawn from the clock). Its sections, top to bottom:
 * docs/reading-results.md.
 */
public final class HtmlReport {
    private HtmlReport() {}

    /**
     * Writes the page to a temporary file beside {@code file}, then renames it to {@code file}: a link of that name is
     * replaced, never followed, and no reader ever sees half a page.
     *
     * @param r the run
     * @param file where to write
     * @throws IOException when it cannot be written (the temporary file is then removed)
     */
    public static void write(RunRecord r, Path file) throws IOException {
        Path temp = file.resolveSibling(
                "." + file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        Files.deleteIfExists(temp); // left by an earlier process of this pid: a link is deleted, not followed
        try {
            Files.writeString(temp, render(r), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
            try {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * @param r the run
     * @return the page
     */
    public static String render(RunRecord r) {
        StringBuilder h = new StringBuilder();
        h.append(
                        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>")
                .append("<title>netns-lab: ")
                .append(esc(r.scenario()))
                .append("</title><style>")
                .append("body{font-family:sans-serif;margin:2em;color:#222}")
                .append(
                        "table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{border:1px solid #bbb;padding:3px 8px;")
                .append("text-align:right}th{background:#eee}td.l,th.l{text-align:left}td.nonzero{background:#f8c8c8;")
                .append("font-weight:bold}.chart{margin:0.5em 0 2em}code{background:#f4f4f4}")
                .append(".verdict{border-left:4px solid #4a7;padding:0.2em 1em;background:#f4faf6}")
                .append(".verdict.disagrees{border-left-color:#c33;background:#fbf4f4}")
                .append(".verdict li{margin:0.3em 0}li.disagrees{color:#a00;font-weight:bold}</style></head><body>\n");
        h.append("<h1>")
                .append(esc(r.scenario()))
                .append("</h1>\n<p>")
                .append(
                        r.overrides().isEmpty()
                                ? ""
                                : Character.toUpperCase(ConsoleReport.AS_THE_FILE.charAt(0))
                                        + ConsoleReport.AS_THE_FILE.substring(1) + ": ")
                .append(esc(r.description()))
                .append("</p>\n");
        if (ConsoleReport.showsShape(r)) { // the description gives the file's counts at scale 1
            h.append("<p>This run, at scale ")
                    .append(MinScale.text(r.scale()))
                    .append(r.overrides().isEmpty() ? "" : " with its overrides (--set, --sweep)")
                    .append(": ")
                    .append(esc(r.shape()))
                    .append("</p>\n");
        }
        Verdict verdict = Verdict.of(r); // the answer first: everything below is its evidence
        // a box the colour of agreement only when every seed figure agrees
        boolean disagrees = verdict.lines().stream().anyMatch(l -> Boolean.FALSE.equals(l.agrees()));
        h.append(disagrees ? "<div class=\"verdict disagrees\">" : "<div class=\"verdict\">")
                .append("<h2>Verdict</h2>\n<ul>");
        for (Verdict.Line l : verdict.lines()) {
            h.append(Boolean.FALSE.equals(l.agrees()) ? "<li class=\"disagrees\">" : "<li>")
                    .append(esc(l.text()))
                    .append("</li>\n");
        }
        h.append("<li>").append(esc(verdict.invariants())).append("</li></ul></div>\n");
        facts(r, h);

        int charts = 0; // a sweep's charts first: where each design stops scaling is the run's headline
        if (r.isSweep()) {
            h.append(SweepCharts.section(r, comparedMeasure(r), charts + 1));
            charts += SweepCharts.charts();
        }
        HtmlTables.designs(r, h);

        h.append("<h2>Measures</h2>\n");
        for (String m : HtmlCharts.measures(r)) {
            h.append("<h3>").append(esc(m)).append("</h3>\n");
            MeasureDescriptions.of(m)
                    .ifPresent(text -> h.append("<p>").append(esc(text)).append("</p>\n"));
            HtmlTables.measure(r, m, h);
            if (HtmlCharts.hasPercentiles(r, m)) {
                h.append("<div class=\"chart\">")
                        .append(HtmlCharts.percentileChart(m, r, ++charts))
                        .append("</div>\n");
            } else if (HtmlCharts.recorded(r, m)) {
                h.append("<p>No chart: each design recorded at most one value of ")
                        .append(esc(m))
                        .append(r.repeat() > 1 ? " a replicate" : "")
                        .append(", a point and not a distribution; the table above gives it.</p>\n");
            } else {
                h.append("<p>No chart: no design recorded a value of ")
                        .append(esc(m))
                        .append(" in its counted phase.</p>\n");
            }
        }

        h.append("<h2>Throughput over time</h2>\n");
        if (r.designs().stream().anyMatch(d -> d.throughputUnit() == null)) {
            h.append("<p>The throughput series was not saved with these results (see the list at the top).</p>\n");
        } else if (r.designs().stream().allMatch(d -> d.throughputSeries().size() < 2)) {
            h.append("<p>No curve to draw: only uevent injection and netns churn runs record a throughput series,")
                    .append(" and theirs needs a counted phase of two samples or more (one per")
                    .append(" netns-lab.run.progress-interval; run at a larger --scale for one).</p>\n");
        }
        if (HtmlCharts.hasThroughputCurve(r)) {
            h.append("<div class=\"chart\">")
                    .append(HtmlCharts.throughputChart(r, ++charts))
                    .append("</div>\n");
        }

        HtmlTables.comparisons(r, h);
        if (r.repeat() > 1) {
            HtmlTables.replicates(r, h);
        }
        if (!r.ratios().isEmpty()) {
            HtmlTables.seedRatios(r, h);
        }
        if (r.sensitivity() != null) {
            h.append(SensitivityReport.html(r.sensitivity(), charts + 1)); // the next chart's number: ids stay unique
        }
        HtmlTables.invariants(r, h);
        if (r.designs().stream().anyMatch(d -> !d.counters().isEmpty())) {
            HtmlTables.counters(r, h);
        }
        h.append(
                r.execution() != null && r.execution().isVirtual()
                        ? "<p>Virtual execution: every measure, throughput and counted phase is in simulated time on the"
                                + " simulated machine; only the run's wall time is real.</p>\n"
                        : "<p>Live execution on this machine: compare designs by ratio within one run, not by absolute"
                                + " values.</p>\n");
        h.append("</body></html>\n");
        return h.toString();
    }

    /** The run's seed, scale, clocks, host and simulated machine, the notes of a rebuilt page, the overrides. */
    private static void facts(RunRecord r, StringBuilder h) {
        RunResult.ExecutionInfo ex = r.execution();
        h.append("<p>Seed: ")
                .append(esc(ConsoleReport.seed(r)))
                .append("<br/>Scale ")
                .append(r.scale())
                .append(", started ")
                .append(esc(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
                        .withZone(ZoneOffset.UTC)
                        .format(r.started())))
                .append(", wall ")
                .append(fmt(r.wallSeconds()))
                .append(" s<br/>Host (where the JVM ran): ")
                .append(r.machine().cpus())
                .append(" CPUs, Java ")
                .append(esc(r.machine().java()))
                .append(", Akka ")
                .append(esc(r.machine().akka()))
                .append("<br/>")
                .append(
                        ex == null
                                ? ""
                                : ex.isVirtual()
                                        ? "Simulated machine (what the figures are of): "
                                                + (ex.sweep()
                                                        ? "CPUs swept over " + ex.cpus()
                                                        : ex.cpus().get(0) + " CPUs")
                                                + ", jitter " + ex.jitter()
                                                + ", random-seed " + ex.randomSeed()
                                                + esc(scheduler(ex.scheduling())) + "<br/>"
                                        : "Live execution: the figures are of the host<br/>")
                .append(esc(ConsoleReport.clocks(r)))
                .append("</p>\n");
        if (!r.notes().isEmpty()) {
            h.append("<p><b>Rebuilt from saved results, some of which could not be read:</b></p>\n<ul>");
            r.notes().forEach(n -> h.append("<li>").append(esc(n)).append("</li>"));
            h.append("</ul>\n");
        }
        if (!r.overrides().isEmpty()) {
            h.append("<p>Overrides (the description above does not include them): <code>")
                    .append(esc(String.join(" ", r.overrides())))
                    .append("</code></p>\n");
        }
        if (!(r.execution() != null && r.execution().isVirtual()) // virtual time has no noise to warn of
                && r.designs().stream().anyMatch(d -> d.wallSeconds() < 2)) {
            h.append("<p><b>Note:</b> a counted phase took under 2 s; at this scale JIT warm-up and scheduling noise")
                    .append(
                            " dominate, so its rates (and any ratio between designs) can change from run to run. Raise --scale until every counted phase lasts a few seconds, and use --repeat 5 for intervals.</p>\n");
        }
        h.append("<p>The page's wall time is the whole run (netns creation, warm-up, every design); a design's")
                .append(" counted phase is the part its throughput and percentiles cover.</p>\n");
    }

    /** @return the number of charts a report of {@code r} holds */
    public static int chartCount(RunRecord r) {
        return (int) HtmlCharts.measures(r).stream()
                        .filter(m -> HtmlCharts.hasPercentiles(r, m))
                        .count()
                + (HtmlCharts.hasThroughputCurve(r) ? 1 : 0)
                + (r.isSweep() ? SweepCharts.charts() : 0)
                + (r.sensitivity() == null ? 0 : r.sensitivity().comparisons().size());
    }

    /** @return the measure the comparisons compare (a sweep's mean chart shows it), else the first measure */
    private static String comparedMeasure(RunRecord r) {
        return !r.comparisons().isEmpty()
                ? r.comparisons().get(0).measure()
                : HtmlCharts.measures(r).stream().findFirst().orElse(null);
    }

    /** @return the simulated machine's scheduler as result.json's execution.machine holds it, or "" */
    static String scheduler(RunResult.SchedulingInfo s) {
        if (s == null || s.scheduler() == null) {
            return "";
        }
        return "fair".equals(s.scheduler())
                ? ", scheduler fair (preempt " + s.preempt() + ", HZ " + s.hz() + ", task-group " + s.taskGroup()
                        + ", context switch " + s.contextSwitchNanos() + " ns)"
                : ", scheduler " + s.scheduler();
    }
}
