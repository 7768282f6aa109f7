package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * summary.csv holds result.json's figures of each design and measure, a row each; an edit of either is named by
 * {@code report} (exit 2), and a folder without it (an older version's) is read as before.
 */
public class SummaryCsvTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void eachRowIsResultJsonsFiguresOfADesignsMeasure() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(TinyRun.replicated(), null, dir);
        List<String> rows = Files.readAllLines(dir.resolve(SummaryCsv.FILE));
        assertEquals(SummaryCsv.HEADER.trim(), rows.get(0));
        JsonNode json = new ObjectMapper()
                .readTree(dir.resolve(ResultsFolder.RESULT_JSON).toFile());
        JsonNode d = json.at("/designs/0");
        JsonNode m = d.at("/measures/uevent.transaction");
        assertEquals(
                String.join(
                        ",",
                        "kernel-4.18",
                        "uevent.transaction",
                        "us",
                        m.get("count").asText(),
                        m.get("mean").asText(),
                        m.get("sd").asText(),
                        m.get("p50").asText(),
                        m.get("p90").asText(),
                        m.get("p99").asText(),
                        m.get("p999").asText(),
                        m.get("max").asText(),
                        d.get("throughput_per_s").asText(),
                        "transactions"),
                rows.get(1));
        int measures = 0;
        for (JsonNode x : json.get("designs")) {
            measures += x.get("measures").size();
        }
        assertEquals(1 + measures, rows.size());
    }

    /**
     * {@code report --check} names an edited summary's first differing line and the row result.json has there; plain
     * {@code report} writes it again from result.json, as it does report.html, and says what it replaced.
     */
    @Test
    public void anEditedSummaryIsNamedByTheCheckAndWrittenAgainByReport() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(TinyRun.replicated(), null, dir);
        Path csv = dir.resolve(SummaryCsv.FILE);
        String good = Files.readString(csv);
        Files.writeString(csv, good.replaceFirst(",us,", ",ms,"));
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString(), "--check");
        assertEquals(o.err(), 2, o.status());
        assertTrue(
                o.err(),
                o.err()
                        .contains(csv + ": line 2: unit is 'ms', where result.json's row 1 (kernel-4.18,"
                                + " uevent.transaction) has us: not result.json's figures (was one of them edited?);"
                                + " report without --check writes it again from them"));
        ReportCommandTest.Output rebuilt = ReportCommandTest.execute("report", dir.toString());
        assertEquals(rebuilt.err(), 0, rebuilt.status());
        assertEquals(
                "netns-lab: " + csv + ": written again from result.json (it differed: line 2: unit is 'ms', where"
                        + " result.json's row 1 (kernel-4.18, uevent.transaction) has us)" + System.lineSeparator(),
                rebuilt.err());
        assertEquals(good, Files.readString(csv));
        // rows in another order hold the same figures (a result.json re-saved with sorted keys lists them so); a row
        // of another pair in the place of one is named by its line and the row result.json has there
        String[] sorted = good.split("\n");
        String swapped = sorted[0] + "\n" + sorted[2] + "\n" + sorted[1] + "\n"
                + String.join("\n", java.util.Arrays.copyOfRange(sorted, 3, sorted.length)) + "\n";
        Files.writeString(csv, swapped);
        ReportCommandTest.Output inOrder = ReportCommandTest.execute("report", dir.toString(), "--check");
        assertFalse(inOrder.err(), inOrder.err().contains(SummaryCsv.FILE));
        // an edit in the reordered file is named by its line, and the row result.json has it at
        Files.writeString(csv, swapped.replaceFirst(",us,", ",ms,"));
        String reordered =
                ReportCommandTest.execute("report", dir.toString(), "--check").err();
        assertTrue(reordered, reordered.contains(csv + ": line 2: unit is 'ms', where result.json's row 2 ("));
        Files.writeString(
                csv,
                sorted[0] + "\n" + sorted[2] + "\n" + sorted[2] + "\n"
                        + String.join("\n", java.util.Arrays.copyOfRange(sorted, 3, sorted.length)) + "\n");
        String err =
                ReportCommandTest.execute("report", dir.toString(), "--check").err();
        assertTrue(err, err.contains(csv + ": line 2: measure is '"));
        assertTrue(err, err.contains("where result.json's row 1 (kernel-4.18, uevent.transaction) has"));
        Files.writeString(csv, good);
        // a spreadsheet's re-save: a byte order mark, CRLF, quoted names, trailing zeros; the same figures
        String resaved = "\uFEFF"
                + good.replace("\n", "\r\n")
                        .replaceFirst("kernel-4.18,", "\"kernel-4.18\",")
                        .replaceFirst(",us,(\\d+),([0-9.]+),", ",us,$1,$20000,");
        Files.writeString(csv, resaved);
        Files.deleteIfExists(dir.resolve(ResultsFolder.REPORT_HTML));
        ReportCommandTest.Output same = ReportCommandTest.execute("report", dir.toString());
        assertEquals(same.err(), 0, same.status());
        // a spreadsheet's 15 significant digits are the same values
        Files.writeString(csv, rounded(good, "\\d+\\.\\d{10,}", 15));
        Files.deleteIfExists(dir.resolve(ResultsFolder.REPORT_HTML));
        assertEquals(0, ReportCommandTest.execute("report", dir.toString()).status());
        // a column added, and a blank line: the line named is the file's own
        String[] lines = good.split("\n");
        Files.writeString(
                csv,
                lines[0] + "\n\n" + lines[1] + ",x\n"
                        + String.join("\n", java.util.Arrays.copyOfRange(lines, 2, lines.length)) + "\n");
        ReportCommandTest.Output extra = ReportCommandTest.execute("report", dir.toString(), "--check");
        assertEquals(extra.err(), 2, extra.status());
        assertTrue(
                extra.err(),
                extra.err()
                        .contains(csv + ": line 3: 14 columns, where result.json's row 1 (kernel-4.18,"
                                + " uevent.transaction) has 13"));
        // a missing one: the check passes an older folder's absence and says it, report writes it
        Files.delete(csv);
        Files.delete(dir.resolve(ResultsFolder.REPORT_HTML));
        ReportCommandTest.Output checked = ReportCommandTest.execute("report", dir.toString(), "--check");
        assertTrue(checked.err(), checked.err().contains(csv + ": missing (a folder written before runs wrote it"));
        assertFalse(Files.exists(csv));
        ReportCommandTest.Output missing = ReportCommandTest.execute("report", dir.toString());
        assertEquals(0, missing.status());
        assertEquals(
                "netns-lab: " + csv + ": written again from result.json (it was missing)" + System.lineSeparator(),
                missing.err());
        assertEquals(good, Files.readString(csv));
    }

    /**
     * A summary.csv that is a link, or a pipe, is not read (a pipe would block the check) and not written through:
     * report puts a file of its own in its place, and the file a link named is untouched.
     */
    @Test
    public void aLinkOrAPipeIsNeitherReadNorWrittenThrough() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(TinyRun.replicated(), null, dir);
        Path csv = dir.resolve(SummaryCsv.FILE);
        String good = Files.readString(csv);
        Path elsewhere = tmp.newFile("elsewhere.txt").toPath();
        Files.writeString(elsewhere, "keep me\n");
        Files.delete(csv);
        Files.createSymbolicLink(csv, elsewhere);
        ReportCommandTest.Output checked = ReportCommandTest.execute("report", dir.toString(), "--check");
        assertEquals(checked.err(), 2, checked.status());
        assertTrue(checked.err(), checked.err().contains(csv + ": not a file a run writes (a link, a pipe"));
        assertEquals(0, ReportCommandTest.execute("report", dir.toString()).status());
        assertEquals("keep me\n", Files.readString(elsewhere));
        assertFalse(Files.isSymbolicLink(csv));
        assertEquals(good, Files.readString(csv));
        Files.delete(csv);
        assertEquals(0, new ProcessBuilder("mkfifo", csv.toString()).start().waitFor());
        assertEquals(
                2,
                ReportCommandTest.execute("report", dir.toString(), "--check").status()); // did not block
        assertEquals(0, ReportCommandTest.execute("report", dir.toString()).status());
        assertEquals(good, Files.readString(csv));
    }

    /** Values rounded to 12 significant digits are the same values, as the docs say. */
    @Test
    public void twelveSignificantDigitsAreTheSameValues() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(TinyRun.replicated(), null, dir);
        Path csv = dir.resolve(SummaryCsv.FILE);
        Files.writeString(csv, rounded(Files.readString(csv), "\\d+\\.\\d+", 12));
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString(), "--check");
        assertFalse(o.err(), o.err().contains(SummaryCsv.FILE));
    }

    /** @return {@code csv} with each number matching {@code decimals} rounded to {@code digits} significant digits */
    private static String rounded(String csv, String decimals, int digits) {
        java.util.regex.Matcher num = java.util.regex.Pattern.compile(decimals).matcher(csv);
        StringBuilder out = new StringBuilder();
        while (num.find()) {
            num.appendReplacement(
                    out,
                    new java.math.BigDecimal(num.group())
                            .round(new java.math.MathContext(digits))
                            .toPlainString());
        }
        num.appendTail(out);
        return out.toString();
    }

    /** A result.json re-saved with its keys sorted (jq -S) lists each design's measures in another order: it passes. */
    @Test
    public void aResultJsonWithSortedKeysStillMatchesItsSummary() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(TinyRun.replicated(), null, dir);
        Path json = dir.resolve("result.json");
        ReportCommandTest.Output asSaved = ReportCommandTest.execute("report", dir.toString(), "--check");
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode sortedKeys = sortKeys(mapper.readTree(json.toFile()));
        mapper.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), sortedKeys);
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString(), "--check");
        assertFalse(o.err(), o.err().contains(SummaryCsv.FILE));
        assertEquals(o.err(), asSaved.status(), o.status()); // the run's own verdict (3: a broken invariant)
        assertEquals(asSaved.err(), o.err());
    }

    private static com.fasterxml.jackson.databind.JsonNode sortKeys(com.fasterxml.jackson.databind.JsonNode n) {
        if (n.isObject()) {
            com.fasterxml.jackson.databind.node.ObjectNode o =
                    com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            java.util.List<String> names = new java.util.ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            java.util.Collections.sort(names);
            names.forEach(k -> o.set(k, sortKeys(n.get(k))));
            return o;
        }
        if (n.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode a =
                    com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
            n.forEach(e -> a.add(sortKeys(e)));
            return a;
        }
        return n;
    }
}
