package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.Test;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.MeasureDescriptions;
import org.netnslab.metrics.RunResult;
import org.scalatestplus.junit.JUnitSuite;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

public class HtmlReportTest extends JUnitSuite {

    private static DesignResult design(String name, long base, long outOfOrder) {
        Map<String, LatencyRecorder> m = new LinkedHashMap<>();
        LatencyRecorder tx = new LatencyRecorder();
        LatencyRecorder rx = new LatencyRecorder();
        for (int i = 1; i <= 1000; i++) {
            tx.record(base + i * 37L % 5000);
            rx.record(base * 2 + i * 11L % 3000);
        }
        m.put("uevent.transaction", tx);
        m.put("uevent.delivery", rx);
        return new DesignResult(
                name,
                Map.of("uevent.serialization", "x < y & z"),
                m,
                1000,
                "transactions",
                1.0,
                new Invariants(outOfOrder, 0, 0, 0, 0, 0, 0, 0, 0),
                Map.of("grace_periods", 3L),
                List.of(new double[] {0.5, 900}, new double[] {1.0, 1100}));
    }

    @Test
    public void reportIsWellFormedWithOneChartPerMeasureAndHighlightsNonZeroInvariants() throws Exception {
        DesignResult a = design("kernel-4.18", 50_000, 0);
        DesignResult b = design("kernel-6.9", 20_000, 7);
        List<DesignResult> designs = List.of(a, b);
        RunResult r = new RunResult(
                "tiny",
                "a <tiny> run",
                "seed & thread",
                0.01,
                Instant.parse("2026-11-30T12:00:00Z"),
                2.0,
                designs,
                List.of(Comparison.of("uevent.transaction", a, b)),
                Map.of("kernel-6.9", 0.8),
                List.of("workload.injectors=4"),
                List.of(new RunResult.DerivedRatio("busy(exit) / busy(all)", 0.4, 0.35)),
                TinyRun.oneReplicate(designs),
                null,
                null,
                null);
        RunRecord record = RunRecord.of(r, new RunRecord.Machine(2, "17.0.15", "2.6.21"));
        String html = HtmlReport.render(record);
        Document doc = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
        NodeList svgs = doc.getElementsByTagName("svg");
        assertEquals("two measures and the throughput chart", 3, svgs.getLength());
        assertEquals(3, HtmlReport.chartCount(record));
        assertTrue(html.contains("<td class=\"nonzero\">7</td>"));
        assertTrue(html.contains("out-of-order and duplicate SEQNUMs under <code>per-netns-2018</code> as posted"));
        assertTrue(html.contains("a &lt;tiny&gt; run"));
        // the seed's 0.8 against the model's ratio: a line that disagrees turns the whole box from green to red
        assertTrue(html.contains("<li class=\"disagrees\">"));
        assertTrue(html.contains("<div class=\"verdict disagrees\"><h2>Verdict</h2>"));
        assertTrue(html.contains("<td>0.8000</td>")); // the seed's ratio beside the model's
        assertTrue(html.contains("<code>workload.injectors=4</code>"));
        // each measure says what it times, under its heading and in result.json
        assertTrue(
                html.contains("<h3>uevent.transaction</h3>\n<p>one injected uevent, as its injector times it: from just"
                        + " before the sendmsg to just after the call returns to user space"));
        assertEquals(
                MeasureDescriptions.of("uevent.delivery").orElseThrow(),
                ResultJson.toJson(record)
                        .path("designs")
                        .path(0)
                        .path("measures")
                        .path("uevent.delivery")
                        .path("description")
                        .asText());
        assertTrue(html.contains("<td class=\"l\">busy(exit) / busy(all)</td><td>0.4000</td><td>one run</td>"
                + "<td class=\"l\">0.4000</td><td>0.3500</td>"));
        // one replicate: said plainly, and no test printed as if it meant something
        assertTrue(html.contains("no significance can be claimed from one run"));
        assertTrue(html.contains("<td colspan=\"4\">no test from one run</td>"));
        assertTrue(!html.contains("<h2>Replicates</h2>"));
        for (String remote : List.of("src=\"http", "href=\"http", "src='http", "<script", "<link")) {
            assertTrue("self-contained, no " + remote, !html.contains(remote));
        }
    }

    /**
     * A measure of one value a replicate (a listener's CPU over the run) gets no percentile chart over three replicates
     * either: three points are no distribution; the table gives them.
     */
    @Test
    public void aMeasureOfOneValueAReplicateGetsASentenceNotAChart() throws Exception {
        RunRecord r = RunRecord.of(TinyRun.replicated(), TinyRun.MACHINE);
        assertEquals(3, r.repeat());
        assertEquals(
                3, r.designs().get(0).measures().get("proc.listener_busy.all").count());
        assertTrue(HtmlCharts.hasPercentiles(r, "uevent.transaction"));
        assertEquals(false, HtmlCharts.hasPercentiles(r, "proc.listener_busy.all"));
        java.nio.file.Path page = java.nio.file.Files.createTempFile("report", ".html");
        try {
            HtmlReport.write(r, page);
            String html = java.nio.file.Files.readString(page);
            assertTrue(html.contains("<p>No chart: each design recorded at most one value of proc.listener_busy.all a"
                    + " replicate, a point and not a distribution; the table above gives it.</p>"));
        } finally {
            java.nio.file.Files.delete(page);
        }
    }

    /** A replicate's baseline mean of 0: the row says which zero, 0 / 0 or a denominator of 0. */
    @Test
    public void aReplicateWithoutRatioSaysWhichZero() {
        assertEquals(null, HtmlTables.noRatio(List.of(1.0, 2.0)));
        assertEquals(
                "no ratio: no figure (0 / 0) in a replicate (a baseline's mean of 0)",
                HtmlTables.noRatio(List.of(1.0, Double.NaN)));
        assertEquals(
                "no ratio: no figure (its denominator is 0) in a replicate (a baseline's mean of 0)",
                HtmlTables.noRatio(List.of(Double.POSITIVE_INFINITY, Double.NaN)));
    }
}
