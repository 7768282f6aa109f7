package org.netnslab.report;

import static org.junit.Assert.assertEquals;
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

    @Test
    public void anEditedSummaryIsNamedAndAMissingOneIsNot() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(TinyRun.replicated(), null, dir);
        Path csv = dir.resolve(SummaryCsv.FILE);
        String good = Files.readString(csv);
        Files.writeString(csv, good.replaceFirst(",us,", ",ms,"));
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString());
        assertEquals(o.err(), 2, o.status());
        assertTrue(
                o.err(),
                o.err()
                        .contains(
                                csv + ": line 2 (kernel-4.18, uevent.transaction): unit is 'ms', result.json's us: not"
                                        + " result.json's figures (was one of them edited?)"));
        // a spreadsheet's re-save: a byte order mark, CRLF, quoted names, trailing zeros; the same figures
        String resaved = "\uFEFF"
                + good.replace("\n", "\r\n")
                        .replaceFirst("kernel-4.18,", "\"kernel-4.18\",")
                        .replaceFirst(",us,(\\d+),([0-9.]+),", ",us,$1,$20000,");
        Files.writeString(csv, resaved);
        Files.deleteIfExists(dir.resolve(ResultsFolder.REPORT_HTML));
        ReportCommandTest.Output same = ReportCommandTest.execute("report", dir.toString());
        assertEquals(same.err(), 0, same.status());
        Files.delete(csv);
        Files.delete(dir.resolve(ResultsFolder.REPORT_HTML));
        assertEquals(0, ReportCommandTest.execute("report", dir.toString()).status());
    }
}
