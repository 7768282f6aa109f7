package org.netnslab.report;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.cli.Main;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.SensitivityResult;
import org.netnslab.scenario.TinyScenario;
import org.scalatestplus.junit.JUnitSuite;

public class ReportCommandTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final String SCENARIO = TinyScenario.tc2("kernel-4.18, per-netns-2018");

    /** What a command printed and returned. */
    record Output(int status, String out, String err) {}

    static synchronized Output execute(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int status;
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            status = Main.execute(args);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return new Output(status, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    /** Runs {@code args} (a {@code run} command writing to {@code out}), then rebuilds its report. */
    private static void assertReportRebuiltAsTheRunWroteIt(Path out, String... args) throws Exception {
        Output run = execute(args);
        assertEquals(run.err(), 0, run.status());
        byte[] written = Files.readAllBytes(out.resolve("report.html"));
        Files.delete(out.resolve("report.html"));

        Output report = execute("report", out.toString());
        assertEquals(report.err(), 0, report.status());
        assertEquals("", report.err());
        assertArrayEquals("report.html rebuilt byte for byte", written, Files.readAllBytes(out.resolve("report.html")));
        // the same summary; the run also names its result.json
        assertEquals(
                run.out().replace("results: " + out.resolve("result.json") + System.lineSeparator(), ""), report.out());
    }

    @Test
    public void reportRebuildsAUeventRunsPageAndSummaryExactly() throws Exception {
        Path file = tmp.newFile("tiny.conf").toPath();
        Files.writeString(file, SCENARIO);
        Path out = tmp.getRoot().toPath().resolve("uevent-out");
        assertReportRebuiltAsTheRunWroteIt(
                out,
                "run",
                file.toString(),
                "--scale",
                "0.01",
                "--out",
                out.toString(),
                "--no-progress",
                "--set",
                "workload.injectors=2",
                "--repeat",
                "2");
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("<h2>Replicates</h2>"));
        assertTrue(html.contains("<p>Over 2 replicates,"));
        RunRecord record = ResultsFolder.read(out);
        assertEquals(
                List.of(List.of("kernel-4.18", "per-netns-2018"), List.of("per-netns-2018", "kernel-4.18")),
                record.replicates().stream().map(ReplicateRecord::order).toList());
        assertEquals(2, record.comparisons().get(0).replicateMeansB().size());
        assertTrue(html.contains("<code>workload.injectors=2</code>"));
        assertTrue(html.contains("<td>0.9000</td>")); // the seed's ratio, from result-extra.json
        assertTrue(html.contains("transactions/s"));
    }

    @Test
    public void reportRebuildsAProcEventsRunWithItsDerivedRatiosExactly() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("proc-out");
        assertReportRebuiltAsTheRunWroteIt(
                out,
                "run",
                "load-tests/proc-filter.conf",
                "--scale",
                "0.01",
                "--out",
                out.toString(),
                "--no-progress",
                "--repeat",
                "2");
        assertTrue(ResultsFolder.read(out).ratios().stream()
                .allMatch(r -> r.replicates().size() == 2));
        assertTrue(Files.readString(out.resolve("report.html")).contains("<h2>The seed's ratios</h2>"));
    }

    private static String resource(String name) throws Exception {
        try (InputStream in = ReportCommandTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    public void resultJsonIsTheSchema2FileOfAReplicatedRun() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultJson.write(RunRecord.of(TinyRun.replicated(), TinyRun.MACHINE), dir.resolve("result.json"));
        assertEquals(resource("/report/result-schema2.json"), Files.readString(dir.resolve("result.json")));
    }

    /**
     * Saves {@code run} to a fresh folder and reads it back, asserting that the record read renders
     * result.json, report.html and the console summary exactly as the record written did.
     */
    private record RoundTrip(RunRecord written, RunRecord read) {}

    private RoundTrip savedAndReadBack(org.netnslab.metrics.RunResult run) throws Exception {
        Path dir = tmp.newFolder().toPath();
        RunRecord written = ResultsFolder.save(run, null, dir);
        RunRecord read = ResultsFolder.read(dir);
        assertEquals(List.of(), read.notes());
        assertEquals(ResultJson.toJson(written), ResultJson.toJson(read));
        assertEquals(HtmlReport.render(written), HtmlReport.render(read));
        assertEquals(ConsoleReport.render(written), ConsoleReport.render(read));
        return new RoundTrip(written, read);
    }

    @Test
    public void aReplicatedRunReadsBackToTheRecordItRendered() throws Exception {
        RoundTrip trip = savedAndReadBack(TinyRun.replicated());
        RunRecord written = trip.written();
        RunRecord read = trip.read();
        assertEquals(3, read.repeat());
        assertEquals(
                List.of("per-netns-2018", "kernel-4.18"),
                read.replicates().get(1).order());
        assertEquals(written.comparisons().get(0), read.comparisons().get(0));
        assertEquals(3, read.ratios().get(0).replicates().size());
        // the baseline's transaction means were about 52.5, 49.5 and 55.5 us (base + mean of i * 37 % 5000)
        assertEquals(
                List.of(52.4185, 49.4185, 55.4185),
                read.comparisons().get(0).replicateMeansA().stream()
                        .map(v -> Math.round(v * 1e4) / 1e4)
                        .toList());
        String console = ConsoleReport.render(read);
        assertTrue(console, console.contains("Welch's test over the replicate means (n = 3 per design):"));
        assertTrue(console, console.contains("ratio 95% interval: "));
        assertFalse(console, console.contains("no significance can be claimed"));
        assertTrue(HtmlReport.render(read).contains("<h2>Replicates</h2>"));
    }

    /** A live run's result.json says which threads its figures were measured on, and reads back to the same. */
    @Test
    public void aLiveRunsDispatcherIsWrittenAndReadBack() throws Exception {
        RunResult.DispatcherInfo pool = new RunResult.DispatcherInfo("my-pool", "thread-pool-executor", 1);
        RunResult r = TinyRun.result();
        RoundTrip trip = savedAndReadBack(new RunResult(
                r.scenario(),
                r.description(),
                r.seed(),
                r.scale(),
                r.started(),
                r.wallSeconds(),
                r.designs(),
                r.comparisons(),
                r.seedRatios(),
                r.overrides(),
                r.ratios(),
                r.replicates(),
                new RunResult.ExecutionInfo("live", List.of(2), false, 0.1, 1, null, pool, null),
                r.shape(),
                r.minScale()));
        assertEquals(pool, trip.read().execution().dispatcher());
        com.fasterxml.jackson.databind.JsonNode d =
                ResultJson.toJson(trip.written()).path("execution").path("dispatcher");
        assertEquals("my-pool", d.path("id").asText());
        assertEquals("thread-pool-executor", d.path("executor").asText());
        assertEquals(1, d.path("threads").asInt());
    }

    @Test
    public void aSchema1FileStillReportsAsOneRunWithoutItsPerSampleTest() throws Exception {
        Path dir = savedFolder();
        Files.writeString(dir.resolve("result.json"), resource("/report/result-schema1.json"));
        Files.delete(dir.resolve(SummaryCsv.FILE)); // a schema 1 folder has none: its version did not write one
        Output o = execute("report", dir.toString());
        assertEquals(o.err(), 0, o.status());
        assertTrue(o.out(), o.out().contains("One run (repeat = 1): no significance can be claimed from one run."));
        assertFalse(o.out(), o.out().contains("p-value")); // schema 1's Welch test took every sample as independent
        RunRecord read = ResultsFolder.read(dir);
        assertEquals(1, read.repeat());
        assertNull(read.comparisons().get(0).welch());
        assertEquals(
                List.of(read.comparisons().get(0).meanA()),
                read.comparisons().get(0).replicateMeansA());
    }

    @Test
    public void aMissingSummaryPassesTheCheckButIsSaid() throws Exception {
        Path dir = savedFolder();
        int whole = execute("report", dir.toString(), "--check").status(); // its verdict's, whatever it is
        Files.delete(dir.resolve(SummaryCsv.FILE));
        Output o = execute("report", dir.toString(), "--check");
        assertEquals(o.err(), whole, o.status());
        assertTrue(o.err(), o.err().contains(SummaryCsv.FILE + ": missing (a folder written before runs wrote it, or"));
        assertFalse("the check writes nothing", Files.exists(dir.resolve(SummaryCsv.FILE)));
    }

    @Test
    public void savedFolderReadsBackToTheRecordTheRunRendered() throws Exception {
        RoundTrip trip = savedAndReadBack(TinyRun.result());
        RunRecord written = trip.written();
        RunRecord read = trip.read();

        assertEquals("seed & thread", read.seed());
        assertEquals(Map.of("per-netns-2018", 0.8), read.seedRatios());
        assertTrue(Double.isNaN(read.ratios().get(1).model())); // saved as null
        assertNull(read.comparisons().get(1).welch()); // one run: no test
        assertNull(read.comparisons().get(0).welch());
        assertTrue(ConsoleReport.render(read).contains("no significance can be claimed from one run"));
        assertFalse(ConsoleReport.render(read).contains("p-value"));
        assertEquals(
                written.comparisons().get(0).welch(), read.comparisons().get(0).welch());
        DesignRecord b = read.designs().get(1);
        assertEquals("transactions", b.throughputUnit());
        assertEquals(1100.25, b.throughputSeries().get(1)[1], 0);
        assertEquals(7L, (long) b.invariants().get("seqnum_out_of_order"));
        assertEquals(
                List.of("uevent.transaction", "uevent.delivery", "proc.listener_busy.all", "netns.cleanup"),
                List.copyOf(b.percentiles().keySet()));
        assertEquals(List.of(), b.percentiles().get("netns.cleanup").points());
        // the one busy value, 3,456,789 ns, in ms at the .hgrm's 3 decimals
        assertEquals(
                new PercentileDistribution.Point(0, 3.457),
                b.percentiles().get("proc.listener_busy.all").points().get(0));
    }

    /**
     * A study of {@link TinyRun#result()}'s first comparison over three samples, one ratio not finite: two are left,
     * too few for a rank correlation.
     */
    private static SensitivityResult study() {
        Map<String, Double> rho = new java.util.LinkedHashMap<>();
        rho.put("uevent.recv", Double.NaN);
        rho.put("uevent.return", Double.NaN);
        return new SensitivityResult(
                3,
                0.5,
                0.1,
                7L,
                List.of("uevent.recv", "uevent.return"),
                List.of(List.of(0.6, 1.2), List.of(1.0, 0.7), List.of(1.4, 1.0)),
                List.of(new SensitivityResult.Entry(
                        "uevent.transaction",
                        "kernel-4.18",
                        "per-netns-2018",
                        TinyRun.result().comparisons().get(0).ratioBOverA(),
                        0.8,
                        List.of(0.4, 0.6, Double.NaN),
                        "b faster than a",
                        2.0 / 3,
                        0.0,
                        rho)));
    }

    @Test
    public void aSensitivityStudyIsSavedReadBackAndRenderedWithTheRest() throws Exception {
        Path dir = tmp.newFolder().toPath();
        RunRecord written = ResultsFolder.write(TinyRun.result(), study(), dir);
        RunRecord read = ResultsFolder.read(dir);
        assertEquals(study(), read.sensitivity());
        assertEquals(ResultJson.toJson(written), ResultJson.toJson(read));
        String html = Files.readString(dir.resolve("report.html"));
        assertEquals(html, HtmlReport.render(read));
        assertEquals(ConsoleReport.render(written), ConsoleReport.render(read));

        com.fasterxml.jackson.databind.JsonNode json = ResultJson.toJson(read);
        List<String> keys = new java.util.ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertEquals("the study last, beside the base run's keys", "sensitivity", keys.get(keys.size() - 1));
        assertTrue(json.at("/sensitivity/comparisons/0/ratios/2").isNull()); // the NaN
        assertEquals("latin-hypercube", json.at("/sensitivity/design").asText());
        // the study's section after the comparisons and seed ratios, before the invariants; one scatter chart
        assertTrue(html.indexOf("<h2>The seed's ratios</h2>") < html.indexOf("<h2>Sensitivity to the costs</h2>"));
        assertTrue(html.indexOf("<h2>Sensitivity to the costs</h2>") < html.indexOf("<h2>Invariants</h2>"));
        assertEquals(HtmlReport.chartCount(read), html.split("<svg ", -1).length - 1);
        assertEquals(
                HtmlReport.chartCount(RunRecord.of(TinyRun.result(), TinyRun.MACHINE)) + 1,
                HtmlReport.chartCount(read));
        // the console: the summary, the overrides, then the study's section and a blank line
        String console = ConsoleReport.render(read);
        assertTrue(
                console,
                console.endsWith("overrides: workload.injectors=4\n\n" + SensitivityReport.console(study()) + "\n"));
        assertTrue(console, console.contains("\nsensitivity: 3 samples of the cost block, each cost x [0.50, 1.50]"));
    }

    @Test
    public void aSensitivityStudyThatDoesNotAddUpNamesItsPath() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(TinyRun.result(), study(), dir);
        Path json = dir.resolve("result.json");
        String good = Files.readString(json);
        Files.writeString(json, good.replace("\"conclusion\" : \"b faster than a\",", ""));
        assertRefused(dir, json + ": sensitivity.comparisons[0].conclusion: missing");
        Files.writeString(json, good.replace("\"samples\" : 3,", "\"samples\" : 4,"));
        assertRefused(dir, json + ": sensitivity.factors: 3 rows, but 4 samples are said");
        Files.writeString(json, good.replace("\"uevent.recv\" : null", "\"uevent.send\" : null"));
        assertRefused(dir, json + ": sensitivity.comparisons[0].spearman[\"uevent.send\"]: not one of the keys varied");
        Files.writeString(json, good.replace("\"latin-hypercube\"", "\"grid\""));
        assertRefused(dir, json + ": sensitivity.design: 'grid' is not a design this version knows (latin-hypercube)");
    }

    private Path savedFolder() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(TinyRun.result(), null, dir);
        return dir;
    }

    /** Asserts exit status 2, that stderr says {@code message}, and that no report was written. */
    /** A folder where report.html cannot be written still gets its summary, read from result.json. */
    @Test
    public void aReportThatCannotBeWrittenStillPrintsTheSummary() throws Exception {
        Path dir = savedFolder();
        // the page's temporary file is in the way (a folder with an entry): its write fails as on a read-only copy
        Path temp = dir.resolve(".report.html." + ProcessHandle.current().pid() + ".tmp");
        Files.createDirectories(temp.resolve("in-the-way"));
        Output o = execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        assertTrue(o.out(), o.out().contains("verdict:"));
        assertTrue(o.err(), o.err().contains("netns-lab: cannot write " + dir.resolve("report.html") + " ("));
        assertTrue(
                o.err(),
                o.err()
                        .contains("; the summary above is read from " + dir.resolve("result.json")
                                + ": copy the folder somewhere writable for the page"));
        assertFalse(Files.exists(dir.resolve("report.html")));
    }

    private static void assertRefused(Path dir, String message) {
        Output o = execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        assertTrue(o.err(), o.err().contains(message));
        assertFalse(Files.exists(dir.resolve("report.html")));
    }

    @Test
    public void aRepeatBelowOneIsRefusedBeforeAnythingRuns() throws Exception {
        Path file = tmp.newFile("tiny.conf").toPath();
        Files.writeString(file, SCENARIO);
        Path out = tmp.getRoot().toPath().resolve("never-written");
        Output o = execute("run", file.toString(), "--repeat", "0", "--out", out.toString(), "--no-progress");
        assertEquals(o.err(), 2, o.status());
        assertTrue(o.err(), o.err().contains("netns-lab: --repeat: must be in 1..1000, got 0"));
        assertFalse(Files.exists(out.resolve("result.json")));
    }

    @Test
    public void reportOfAFolderThatIsNotThereExitsTwoNamingIt() throws Exception {
        Path dir = tmp.getRoot().toPath().resolve("never-ran");
        assertRefused(dir, "netns-lab: " + dir + ": no such folder");
        assertRefused(tmp.newFile("a-file").toPath(), "a-file: not a folder");
    }

    @Test
    public void reportWithoutResultJsonExitsTwoNamingIt() throws Exception {
        Path dir = tmp.newFolder().toPath();
        assertRefused(dir, dir.resolve("result.json") + ": no such file");
    }

    /** A calibrate folder (calibration.json, no result.json) is said to be one, with the command that reports it. */
    @Test
    public void reportOfACalibrateFolderSaysWhatWritesItsReport() throws Exception {
        Path dir = tmp.newFolder().toPath();
        Files.writeString(dir.resolve("calibration.json"), "{}");
        assertRefused(
                dir,
                dir.resolve("result.json") + ": no such file (" + dir + " holds a calibrate run: its report.html is"
                        + " written by calibrate; calibrate --from " + dir.resolve("calibration.json")
                        + " writes it again)");
    }

    @Test
    public void resultJsonThatDoesNotParseExitsTwoNamingFileAndLine() throws Exception {
        Path dir = savedFolder();
        Files.writeString(dir.resolve("result.json"), "{\n  \"schema\" : 1,\n  \"scenario\" : \n");
        assertRefused(dir, dir.resolve("result.json") + ": not valid JSON (line 4, column 1)");
        Files.writeString(dir.resolve("result.json"), "[1, 2]");
        assertRefused(dir, dir.resolve("result.json") + ": expected a JSON object at the top");
        Files.writeString(dir.resolve("result.json"), "");
        assertRefused(dir, dir.resolve("result.json") + ": is empty, so not the JSON a netns-lab run writes");
    }

    @Test
    public void resultJsonOfAnUnknownSchemaExitsTwo() throws Exception {
        Path dir = savedFolder();
        Path json = dir.resolve("result.json");
        Files.writeString(json, Files.readString(json).replace("\"schema\" : 2,", "\"schema\" : 3,"));
        assertRefused(dir, json + ": schema: schema 3 is not one this version reads (it reads 1 and 2)");
        Files.writeString(json, "{ \"scenario\": \"x\" }");
        assertRefused(dir, json + ": no \"schema\" key, so not a netns-lab result");
    }

    @Test
    public void resultJsonWithAFieldMissingOrOfTheWrongTypeNamesItsPath() throws Exception {
        Path dir = savedFolder();
        Path json = dir.resolve("result.json");
        String good = Files.readString(json);
        Files.writeString(json, good.replaceFirst("\"count\" : 1000,", ""));
        assertRefused(dir, json + ": designs[0].measures[\"uevent.transaction\"].count: missing");
        Files.writeString(json, good.replace("\"scale\" : 0.01,", "\"scale\" : \"0.01\","));
        assertRefused(dir, json + ": scale: expected a number above 0, found \"0.01\"");
        Files.writeString(json, good.replace("\"scale\" : 0.01,", "\"scale\" : null,"));
        assertRefused(dir, json + ": scale: expected a number above 0, found null");
        Files.writeString(json, good.replaceFirst("\"count\" : 1000,", "\"count\" : -5,"));
        assertRefused(
                dir,
                json + ": designs[0].measures[\"uevent.transaction\"].count: expected a count (0 or more), found -5");
        Files.writeString(json, good.replaceFirst("\"seqnum_duplicates\" : 0", "\"seqnum_duplicates\" : -7"));
        assertRefused(
                dir,
                json
                        + ": replicates[0].designs[0].invariants.seqnum_duplicates: expected a count (0 or more), found -7");
        // in every design and replicate, as a run writes it: a sum, whose sign says which way it was miscounted
        Files.writeString(json, good.replace("\"sock_inuse_sum\" : 0", "\"sock_inuse_sum\" : -2"));
        assertEquals(0, execute("report", dir.toString()).status());
        Files.delete(dir.resolve("report.html"));
        // the second design renamed as the first: its tables would be printed twice
        int at = good.indexOf("\n  \"designs\" : [");
        Files.writeString(
                json,
                good.substring(0, at)
                        + good.substring(at)
                                .replaceFirst("\"name\" : \"per-netns-2018\"", "\"name\" : \"kernel-4.18\""));
        assertRefused(dir, json + ": designs[1].name: 'kernel-4.18' is listed twice");
        // a derived figure edited alone: it would print beside the figures it came from
        Files.writeString(json, good.replaceFirst("\"mean_b\" : [0-9.]+", "\"mean_b\" : 60"));
        assertRefused(dir, ".mean_b: 60.0 is not the mean of replicate_means_b (");
        Files.writeString(json, good.replaceFirst("\"ratio_b_over_a\" : [0-9.]+", "\"ratio_b_over_a\" : 0.5"));
        assertRefused(dir, ".ratio_b_over_a: 0.5 is not mean_b / mean_a (");
        // a measure's unit edited in one design: one quantity, one unit
        Files.writeString(json, good.replaceFirst("\"unit\" : \"us\"", "\"unit\" : \"parsecs\""));
        assertRefused(dir, "].unit: 'us', where an earlier design's uevent.transaction is in 'parsecs'");
        // a percentile of a measure with values edited to null: said as null, not as NaN
        Files.writeString(json, good.replaceFirst("\"p50\" : [0-9.]+", "\"p50\" : null"));
        assertRefused(dir, ".p50: null, though the measure has ");
        // a figure edited past what a run writes: a mean above its own max
        Files.writeString(json, good.replaceFirst("\"mean\" : [0-9.]+", "\"mean\" : 1e308"));
        assertRefused(dir, ": mean 1.0E308, p50 ");
        assertRefused(dir, " above max ");
        assertRefused(dir, ": not the figures a run wrote (was the file edited?)");
        Files.writeString(json, good.replaceFirst("\"mean\" : [0-9.]+", "\"mean\" : NaN"));
        assertRefused(dir, json + ": not valid JSON (line ");
        org.junit.Assert.assertFalse(execute("report", dir.toString()).err().contains("ALLOW_NON_NUMERIC"));
        assertTrue(execute("report", dir.toString())
                .err()
                .contains("NaN is not a JSON number (JSON has no NaN or"
                        + " Infinity: netns-lab writes a figure it does not have as null)"));
        Files.writeString(
                json, good.replace("\"started\" : \"2026-11-30T12:00:00.123456Z\"", "\"started\" : \"noon\""));
        assertRefused(dir, json + ": started: not an ISO-8601 instant");
    }

    @Test
    public void aMissingOrBrokenHgrmLeavesItsLineOutWithANoteAndExitsTwo() throws Exception {
        Path dir = savedFolder();
        Path missing = dir.resolve("per-netns-2018.uevent.delivery.hgrm");
        Files.delete(missing);
        Path broken = dir.resolve("kernel-4.18.uevent.transaction.hgrm");
        Files.writeString(broken, "not a histogram\n");
        Path csv = dir.resolve(SummaryCsv.FILE);
        String written = Files.readString(csv);
        Files.delete(csv); // the summary is still written again beside the notes
        Output o = execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        assertEquals(written, Files.readString(csv));
        assertTrue(o.err(), o.err().contains(csv + ": written again from result.json (it was missing)"));
        String missingNote =
                missing + ": no such file; the uevent.delivery percentile chart has no line for" + " per-netns-2018";
        String brokenNote = broken + ": line 1: expected HdrHistogram's header";
        assertTrue(o.err(), o.err().contains("netns-lab: " + missingNote));
        assertTrue(o.err(), o.err().contains("netns-lab: " + brokenNote));
        assertFalse("said once, on stderr: " + o.out(), o.out().contains(missingNote));
        assertEquals(o.err(), 1, o.err().split(java.util.regex.Pattern.quote(missingNote), -1).length - 1);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("<li>" + missingNote + "</li>"));
        assertTrue(html.contains(brokenNote.replace("\"", "&quot;")));
        RunRecord record = ResultsFolder.read(dir);
        // every measure's chart is still drawn, one line short, but netns.cleanup's, which has no value, and
        // proc.listener_busy.all's, one value a design (no empty chart: a sentence instead); and the throughput chart
        assertTrue(html.contains("<p>No chart: no design recorded a value of netns.cleanup in its counted phase.</p>"));
        assertTrue(html.contains("<p>No chart: each design recorded at most one value of proc.listener_busy.all, a"
                + " point and not a distribution; the table above gives it.</p>"));
        assertEquals(3, HtmlReport.chartCount(record));
        assertEquals(3, html.split("<svg ", -1).length - 1);
        assertFalse(record.designs().get(1).percentiles().containsKey("uevent.delivery"));
        assertTrue(record.designs().get(1).percentiles().containsKey("uevent.transaction"));
    }

    /** A .hgrm cut at a row's end parses row by row; its missing summary lines say it was cut. */
    @Test
    public void anHgrmCutAtARowsEndIsNoted() throws Exception {
        Path dir = savedFolder();
        Path cut = dir.resolve("kernel-4.18.uevent.transaction.hgrm");
        List<String> lines = Files.readAllLines(cut);
        Files.writeString(cut, String.join("\n", lines.subList(0, 4)) + "\n");
        Output o = execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        assertTrue(
                o.err(),
                o.err()
                        .contains("netns-lab: " + cut + ": ends before HdrHistogram's closing \"#[Buckets = ...]\" line"
                                + " (cut short?)"));
        // its rows cut at the end but its summary lines kept: the last row's count falls short of the total
        List<String> kept = new java.util.ArrayList<>(lines.subList(0, 4));
        kept.addAll(lines.subList(lines.size() - 3, lines.size()));
        Files.writeString(cut, String.join("\n", kept) + "\n");
        o = execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        assertTrue(
                o.err(),
                o.err()
                        .matches("(?s).*netns-lab: " + java.util.regex.Pattern.quote(cut.toString())
                                + ": its last row's count \\(\\d+\\) is not its Total count \\(\\d+\\): rows are missing at its"
                                + " end.*"));
    }

    @Test
    public void aMissingResultExtraJsonLeavesSeedAndThroughputOutWithANoteAndExitsTwo() throws Exception {
        Path dir = savedFolder();
        Path extra = dir.resolve("result-extra.json");
        Files.delete(extra);
        Output o = execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        assertTrue(
                o.err(),
                o.err()
                        .contains("netns-lab: " + extra + ": no such file; the report has no seed, seed"
                                + " ratios, throughput units or throughput chart"));
        assertTrue(o.out(), o.out().contains("seed: (not saved with these results)"));
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("The throughput series was not saved with these results"));
        assertTrue(html.contains("<td>1,001 /s (arrival-bound)</td>"));
    }
}
