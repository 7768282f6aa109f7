package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A measure that recorded nothing (every injection refused) has no figures: null in result.json, empty in
 * summary.csv, never a mean or a percentile of 0; replicates over it give no test or interval, and {@code report
 * --check} takes the nulls and refuses a figure written in.
 */
public class EmptyMeasureTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void nothingRecordedHasNoFigures() throws Exception {
        Path f = tmp.newFile("refused.conf").toPath();
        Files.writeString(
                f,
                String.join(
                        "\n",
                        "name = refused",
                        "description = \"every injection refused\"",
                        "seed = none",
                        "workload { type = uevent-injection, netns { userns-owned = 0, init-owned = 2 },",
                        "  injectors-privileged = false, injections-per-netns = 20, injectors = 2 }",
                        "designs = [kernel-4.18, kernel-6.9]",
                        ""));
        Path out = tmp.getRoot().toPath().resolve("out");
        CommandLineFaultsTest.Printed run = CommandLineFaultsTest.cli(
                "run", f.toString(), "--repeat", "2", "--no-progress", "--out", out.toString());
        assertEquals(run.err(), 0, run.status());
        assertFalse(run.out(), run.out().contains("counted phase 0.00 s")); // a short phase keeps three figures
        ObjectMapper json = new ObjectMapper();
        JsonNode r = json.readTree(out.resolve("result.json").toFile());
        JsonNode m = r.at("/designs/0/measures/uevent.transaction");
        assertEquals(0, m.get("count").asLong());
        for (String k : List.of("mean", "sd", "p50", "p90", "p99", "p999", "max")) {
            assertTrue(k + " " + m, m.get(k).isNull());
        }
        assertTrue(
                m.toString(),
                m.get("ci95").get(0).isNull() && m.get("ci95").get(1).isNull());
        assertTrue(
                r.toString(),
                r.at("/replicates/1/designs/1/means/uevent.transaction").isNull());
        JsonNode c = r.at("/comparisons/0");
        assertTrue(
                c.toString(),
                c.get("mean_a").isNull() && c.get("ratio_b_over_a").isNull());
        assertTrue(c.toString(), c.get("ratio_ci95").isNull() && c.get("welch").isNull());
        assertEquals(
                "kernel-4.18,uevent.transaction,us,0,,,,,,,,0.0,transactions",
                Files.readAllLines(out.resolve("summary.csv")).get(1));
        assertEquals(
                0,
                CommandLineFaultsTest.cli("report", out.toString(), "--check").status());
        String html = Files.readString(out.resolve("report.html"));
        assertFalse(html.contains("NaN"));
        assertTrue(html.contains("<td colspan=\"8\">no figure: a design recorded none of this measure</td>"));
        assertTrue(html.contains("uevent.transaction -; "));

        ((ObjectNode) m).put("p99", 0.5);
        json.writeValue(out.resolve("result.json").toFile(), r);
        CommandLineFaultsTest.Printed edited = CommandLineFaultsTest.cli("report", out.toString(), "--check");
        assertEquals(edited.err(), 2, edited.status());
        assertTrue(
                edited.err(),
                edited.err()
                        .contains("designs[0].measures[\"uevent.transaction\"]: figures for a measure of count 0,"
                                + " which recorded none"));
    }
}
