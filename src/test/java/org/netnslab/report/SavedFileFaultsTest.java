package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code report} on saved files a run never writes: JSON beyond the parser's limits, a file that is not a regular
 * file (a device, a pipe, a folder), a byte order mark; and on what stands at report.html: a link, replaced and never
 * followed, or a folder. Each fault is said in one line naming the file, exit status 2.
 */
public class SavedFileFaultsTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private Path saved() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(TinyRun.result(), null, dir);
        return dir;
    }

    /** Asserts exit status 2, exactly {@code line} on stderr, and no report.html. */
    private static void assertRefused(Path dir, String line) {
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        assertEquals("netns-lab: " + line + System.lineSeparator(), o.err());
        assertFalse(Files.exists(dir.resolve("report.html")));
    }

    /** Writes {@code text} as result.json and asserts that report refuses it as {@code not valid JSON (where): why}. */
    private void assertNotValid(String text, String whereAndWhy) throws Exception {
        Path dir = saved();
        Path json = dir.resolve("result.json");
        Files.writeString(json, text);
        assertRefused(dir, json + ": not valid JSON " + whereAndWhy);
    }

    /** Rewrites result.json through {@code edit} and asserts that report refuses it with {@code json: why}. */
    private void assertEditRefused(
            java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> edit, String why)
            throws Exception {
        Path dir = saved();
        Path json = dir.resolve("result.json");
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var root = (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(json.toFile());
        edit.accept(root);
        mapper.writeValue(json.toFile(), root);
        assertRefused(dir, json + ": " + why);
    }

    /**
     * Designs and comparisons that do not fit together are refused in one line, exit 2: no design, a design name that
     * would reach outside the folder for its .hgrm files, a comparison of a design or a measure the file lacks.
     */
    @Test
    public void designsAndComparisonsThatDoNotFitTogetherAreRefused() throws Exception {
        assertEditRefused(r -> r.putArray("designs"), "designs: no design saved (a run has at least one)");
        assertEditRefused(
                r -> ((com.fasterxml.jackson.databind.node.ObjectNode)
                                r.get("designs").get(0))
                        .put("name", "../../x"),
                "designs[0].name: '../../x' is not a design name");
        assertEditRefused(
                r -> ((com.fasterxml.jackson.databind.node.ObjectNode)
                                r.get("comparisons").get(0))
                        .put("b", "ghost"),
                "comparisons[0]: compares design 'ghost', which designs does not hold");
        assertEditRefused(
                r -> ((com.fasterxml.jackson.databind.node.ArrayNode)
                                r.get("replicates").get(0).get("order"))
                        .remove(0),
                "replicates[0].order: [per-netns-2018] is not its designs, each once" + ResultJsonReader.EDITED);
        assertEditRefused(
                r -> {
                    var ci = (com.fasterxml.jackson.databind.node.ArrayNode) r.get("designs")
                            .get(0)
                            .get("measures")
                            .get("proc.listener_busy.all")
                            .get("ci95");
                    ci.removeAll();
                    ci.add(1.0);
                    ci.add(30.0);
                },
                "designs[0].measures[\"proc.listener_busy.all\"].ci95: [1.0, 30.0] around a single value, which has none"
                        + ResultJsonReader.EDITED);
        Path dir = saved();
        var root = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("result.json").toFile());
        String a = root.get("comparisons").get(0).get("a").asText();
        String measure = root.get("comparisons").get(0).get("measure").asText();
        assertEditRefused(
                r -> {
                    for (var d : r.get("designs")) {
                        if (d.get("name").asText().equals(a)) {
                            ((com.fasterxml.jackson.databind.node.ObjectNode) d).putObject("measures");
                        }
                    }
                },
                "comparisons[0]: compares " + measure + ", which design '" + a + "' has no measure of");
    }

    /**
     * A replicate's mean edited without the comparison's replicate mean, or a one-replicate design's mean edited
     * without its replicate's, is refused: each is what the run wrote from the same recorder.
     */
    @Test
    public void aReplicateMeanOrADesignMeanEditedAloneIsRefused() throws Exception {
        Path dir = saved();
        var root = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("result.json").toFile());
        double a =
                root.get("comparisons").get(0).get("replicate_means_a").get(0).asDouble();
        assertEditRefused(
                r -> ((com.fasterxml.jackson.databind.node.ObjectNode)
                                r.get("replicates").get(0).get("designs").get(0).get("means"))
                        .put("uevent.transaction", 99.0),
                "comparisons[0].replicate_means_a[0]: " + a + " is not replicates[0]'s mean of uevent.transaction in"
                        + " kernel-4.18 (99.0): not the figures a run wrote (was the file edited?)");
        assertEditRefused(
                r -> ((com.fasterxml.jackson.databind.node.ObjectNode)
                                r.get("designs").get(0).get("measures").get("uevent.transaction"))
                        .put("mean", 10.0)
                        .set(
                                "ci95",
                                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                                        .arrayNode()
                                        .add(9.0)
                                        .add(11.0)),
                "designs[0].measures[\"uevent.transaction\"].mean: 10.0 is not its mean in replicates[0], the run's one ("
                        + a + "): not the figures a run wrote (was the file edited?)");
    }

    /**
     * A ratio set to null, a ratio interval or Welch's t edited without the replicate means they follow from: each is
     * refused, where it printed "NaN%" or an interval the replicates do not give, and --check passed.
     */
    @Test
    public void aRatioOrAnIntervalEditedAloneIsRefused() throws Exception {
        assertEditRefused(
                r -> ((com.fasterxml.jackson.databind.node.ObjectNode)
                                r.get("comparisons").get(0))
                        .putNull("ratio_b_over_a"),
                "comparisons[0].ratio_b_over_a: NaN is not mean_b / mean_a ("
                        + TinyRun.result().comparisons().get(0).ratioBOverA()
                        + "): not the figures a run wrote (was the file edited?)");
        for (String field : new String[] {"ratio_ci95", "welch", "welch.p", "welch.df"}) {
            Path dir = tmp.newFolder().toPath();
            ResultsFolder.save(TinyRun.replicated(), null, dir);
            Path json = dir.resolve("result.json");
            var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
            var root = (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(json.toFile());
            var node = (com.fasterxml.jackson.databind.node.ObjectNode)
                    root.get("comparisons").get(0).get(field.replaceFirst("\\..*", ""));
            String key = field.equals("welch") ? "t" : field.startsWith("welch.") ? field.substring(6) : "low";
            field = field.replaceFirst("\\..*", "");
            node.put(key, node.get(key).asDouble() * 1.5);
            mapper.writeValue(json.toFile(), root);
            ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString(), "--check");
            assertEquals(o.err(), 2, o.status());
            assertTrue(
                    o.err(), o.err().startsWith("netns-lab: " + json + ": comparisons[0]." + field + "." + key + ": "));
            assertTrue(o.err(), o.err().contains(": not the figures a run wrote (was the file edited?)"));
        }
    }

    /**
     * A comparison's seed edited in result.json is refused (the verdict beside it was judged against another); without
     * result-extra.json the seed ratios judged are result.json's, so the verdict still names the seed.
     */
    @Test
    public void theSeedOfAComparisonIsReadAndChecked() throws Exception {
        assertEditRefused(
                r -> ((com.fasterxml.jackson.databind.node.ObjectNode)
                                r.get("comparisons").get(0))
                        .put("seed", 0.5),
                "comparisons[1].seed: 0.8, but an earlier comparison of per-netns-2018 has 0.5: not the figures a run"
                        + " wrote (was the file edited?)");
        assertEditRefused(
                r -> {
                    for (var c : r.get("comparisons")) {
                        ((com.fasterxml.jackson.databind.node.ObjectNode) c).put("seed", 0.5);
                    }
                },
                "comparisons[0].seed: 0.5 is not the seed ratio of per-netns-2018 in result-extra.json (0.8): not the"
                        + " figures a run wrote (was the file edited?)");
        Path dir = saved();
        Files.delete(dir.resolve(ResultsFolder.RESULT_EXTRA_JSON));
        RunRecord r = ResultsFolder.read(dir);
        assertEquals(Double.valueOf(0.8), r.seedRatio("per-netns-2018"));
        assertTrue(
                Verdict.of(r).lines().get(0).text(),
                Verdict.of(r).lines().get(0).text().contains("seed 0.8"));
    }

    @Test
    public void jsonBeyondTheParsersLimitsIsSaidInWordsNamingTheFile() throws Exception {
        String beyond = " this reader takes (no netns-lab run writes one)";
        assertNotValid(
                "{\"schema\": 2, \"wall_s\": 1" + "0".repeat(1500) + "}",
                "(line 1, column 1526): a number 1501 characters long, more than the 1000" + beyond);
        assertNotValid(
                "{\"schema\": 2, \"wall_s\": " + "[".repeat(1200) + "]".repeat(1200) + "}",
                "(line 1, column 1025): arrays or objects nested 1001 deep, more than the 1000" + beyond);
    }

    @Test
    public void textAfterTheJsonValueOrOutOfPlaceIsSaidInWords() throws Exception {
        assertNotValid(
                "{\"schema\": 2}\n{\"a\": 1}\n",
                "(line 2, column 1): more after the end of the JSON value (a file holds one value, here one object)");
        assertNotValid("{\"schema\": 2, // two\n}", "(line 1, column 15): a comment, which JSON does not have");
        assertNotValid(
                "{\"schema\": 2, \"schema\": 1}",
                "(line 1, column 23): the key \"schema\" appears twice in one object (which one would count?)");
        assertNotValid(
                "{\"schema\": 2, \"a\" 1}",
                "(line 1, column 19): unexpected '1' (was expecting a colon to separate field name and value)");
    }

    @Test
    public void aTruncatedFileSaysWhereTheUnclosedObjectOpenedWithoutJacksonsSourceNote() throws Exception {
        assertNotValid(
                "{\"schema\": 2,\n \"a\": {\"b\": 1",
                "(line 2, column 14): Unexpected end-of-input: expected close marker for Object (start marker at"
                        + " [line: 2, column: 7])");
    }

    @Test
    public void resultExtraJsonBeyondTheLimitsIsANoteAndTheReportIsStillWritten() throws Exception {
        Path dir = saved();
        Path extra = dir.resolve("result-extra.json");
        Files.writeString(extra, "{\"schema\": 1, \"seed\": 1" + "0".repeat(1500) + "}");
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        assertEquals(
                "netns-lab: " + extra + ": not valid JSON (line 1, column 1524): a number 1501 characters long, more"
                        + " than the 1000 this reader takes (no netns-lab run writes one); the report has no seed, seed"
                        + " ratios, throughput units or throughput chart" + System.lineSeparator(),
                o.err());
        assertTrue(Files.exists(dir.resolve("report.html")));
    }

    @Test
    public void aResultJsonThatIsADeviceAPipeOrAFolderIsNotRead() throws Exception {
        Path dir = saved();
        Path json = dir.resolve("result.json");
        Files.delete(json);
        Files.createSymbolicLink(json, Path.of("/dev/zero"));
        assertRefused(dir, json + ": not a regular file (a device, pipe or socket), so not one netns-lab wrote");
        Files.delete(json);
        mkfifo(json);
        assertRefused(dir, json + ": not a regular file (a device, pipe or socket), so not one netns-lab wrote");
        Files.delete(json);
        Files.createDirectory(json);
        assertRefused(dir, json + ": is a folder, not a file");
    }

    @Test
    public void anHgrmOrResultExtraJsonThatIsAPipeIsANote() throws Exception {
        Path dir = saved();
        Path extra = dir.resolve("result-extra.json");
        Path hgrm = dir.resolve("kernel-4.18.uevent.transaction.hgrm");
        Files.delete(extra);
        mkfifo(extra);
        Files.delete(hgrm);
        Files.createSymbolicLink(hgrm, Path.of("/dev/zero"));
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        String notRegular = ": not a regular file (a device, pipe or socket), so not one netns-lab wrote";
        assertTrue(o.err(), o.err().contains("netns-lab: " + extra + notRegular + "; the report has no seed"));
        assertTrue(
                o.err(),
                o.err().contains("netns-lab: " + hgrm + notRegular + "; the uevent.transaction percentile chart"));
        assertTrue(Files.exists(dir.resolve("report.html")));
    }

    @Test
    public void aByteOrderMarkBeforeResultJsonIsSkipped() throws Exception {
        Path dir = saved();
        Path json = dir.resolve("result.json");
        Files.writeString(json, "\uFEFF" + Files.readString(json));
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString());
        assertEquals(o.err(), 0, o.status());
    }

    @Test
    public void aLinkNamedReportHtmlIsReplacedNeverFollowed() throws Exception {
        Path dir = saved();
        Path users = tmp.newFile("users.txt").toPath();
        Files.writeString(users, "the user's own file");
        Path html = dir.resolve("report.html");
        Files.createSymbolicLink(html, users);
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString());
        assertEquals(o.err(), 0, o.status());
        assertEquals("the user's own file", Files.readString(users));
        assertFalse(Files.isSymbolicLink(html));
        assertTrue(Files.readString(html).startsWith("<!DOCTYPE html>"));
        try (var names = Files.list(dir)) {
            assertFalse(
                    "no temporary file left",
                    names.anyMatch(p -> p.getFileName().toString().endsWith(".tmp")));
        }
    }

    @Test
    public void aFolderInTheWayOfReportHtmlIsRefusedInWords() throws Exception {
        Path dir = saved();
        Path html = dir.resolve("report.html");
        Files.createDirectories(html.resolve("kept"));
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        assertEquals(
                "netns-lab: " + html + ": a folder is in the way of the report this writes there; move it away"
                        + System.lineSeparator(),
                o.err());
        assertTrue(Files.isDirectory(html.resolve("kept")));
    }

    /** Empty, the folder would have been replaced by the file; with --check too, the same words. */
    @Test
    public void aFolderInTheWayOfSummaryCsvIsRefusedInWordsAndKept() throws Exception {
        for (List<String> flags : List.of(List.<String>of(), List.of("--check"))) {
            Path dir = saved();
            Path csv = dir.resolve("summary.csv");
            Files.delete(csv);
            Files.createDirectories(csv);
            List<String> args = new java.util.ArrayList<>(List.of("report"));
            args.addAll(flags);
            args.add(dir.toString());
            ReportCommandTest.Output o = ReportCommandTest.execute(args.toArray(String[]::new));
            assertEquals(o.err(), 2, o.status());
            assertEquals(
                    "netns-lab: " + csv + ": a folder is in the way of the summary this writes there; move it away"
                            + System.lineSeparator(),
                    o.err());
            assertTrue(flags.toString(), Files.isDirectory(csv));
        }
    }

    private static void mkfifo(Path p) throws Exception {
        assertEquals(
                0,
                new ProcessBuilder("mkfifo", p.toString()).inheritIO().start().waitFor());
    }
}
