package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A run compares every design that records the compared measure with the baseline: a comparison deleted from
 * result.json (which took its DISAGREES with it, and left a sentence that the design had no figure to compare) or
 * one given twice is refused, naming the design.
 */
public class ComparisonsCheckTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    /** Three designs as TC3 has them: two compared with kernel-4.18 on uevent.transaction. */
    private Path saved() throws Exception {
        DesignResult a = TinyRun.design("kernel-4.18", 50_000, 0, 12_345_678);
        DesignResult b = TinyRun.design("per-netns-2018", 20_000, 0, 3_456_789);
        DesignResult c = TinyRun.design("kernel-6.9", 21_000, 0, 3_456_789);
        List<DesignResult> designs = List.of(a, b, c);
        RunResult r = TinyRun.run(
                1.0,
                designs,
                List.of(Comparison.of("uevent.transaction", a, b), Comparison.of("uevent.transaction", a, c)),
                Map.of("per-netns-2018", 0.79),
                List.of(),
                List.of(),
                null);
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(r, null, dir);
        return dir;
    }

    private void assertEditRefused(Consumer<ArrayNode> edit, String why) throws Exception {
        Path dir = saved();
        Path json = dir.resolve("result.json");
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = (ObjectNode) mapper.readTree(json.toFile());
        edit.accept((ArrayNode) root.get("comparisons"));
        mapper.writeValue(json.toFile(), root);
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString(), "--check");
        assertEquals(o.err(), 2, o.status());
        assertEquals("netns-lab: " + json + ": " + why + System.lineSeparator(), o.err());
        assertFalse(Files.exists(dir.resolve("report.html")));
    }

    @Test
    public void aDeletedComparisonIsRefusedNamingTheDesign() throws Exception {
        assertEditRefused(
                cs -> cs.remove(0),
                "comparisons: none of per-netns-2018 against kernel-4.18 on uevent.transaction, which both record (a"
                        + " run compares every such design with the baseline)" + ResultJsonReader.EDITED);
    }

    /** Emptied whole, nothing in result.json names the compared measure; result-extra.json's seed ratio does. */
    @Test
    public void comparisonsEmptiedWholeAreRefusedNamingTheSeedsDesign() throws Exception {
        assertEditRefused(
                ArrayNode::removeAll,
                "comparisons: none of per-netns-2018, whose seed ratio (0.79) result-extra.json holds (a run compares"
                        + " every design with the baseline)" + ResultJsonReader.EDITED);
    }

    /**
     * result-extra.json holds each derived ratio's seed: result.json's ratios emptied (which took a DISAGREES with
     * them), one added, one given twice, one's seed edited, or its model edited away from its replicates' mean is
     * refused, naming the ratio.
     */
    @Test
    public void derivedRatiosDeletedAddedOrWithAnEditedSeedAreRefused() throws Exception {
        DesignResult a = TinyRun.design("kernel-4.18", 50_000, 0, 12_345_678);
        DesignResult b = TinyRun.design("per-netns-2018", 20_000, 0, 3_456_789);
        RunResult r = TinyRun.run(
                1.0,
                List.of(a, b),
                List.of(Comparison.of("uevent.transaction", a, b)),
                Map.of(),
                List.of(),
                List.of(new RunResult.DerivedRatio("delivery / transaction, kernel-4.18", 0.96, 0.5)),
                null);
        ObjectMapper mapper = new ObjectMapper();
        String[][] edits = {
            {
                "[]",
                "ratios: none named 'delivery / transaction, kernel-4.18', where result-extra.json holds it with"
                        + " seed 0.5"
            },
            {
                "[{\"name\": \"delivery / transaction, kernel-4.18\", \"model\": 0.96, \"seed\": 0.9}]",
                "ratios: 'delivery / transaction, kernel-4.18' has seed 0.9, where result-extra.json holds it with seed"
                        + " 0.5"
            }
        };
        for (String[] edit : new String[][] {
            {"model", "ratios[0].model: 10.0 is not the mean of replicates (0.96)"},
            {"twice", "ratios: 'delivery / transaction, kernel-4.18' is given twice"}
        }) { // the DISAGREES edited away in result.json alone
            Path dir = tmp.newFolder().toPath();
            ResultsFolder.save(r, null, dir);
            Path json = dir.resolve("result.json");
            ObjectNode root = (ObjectNode) mapper.readTree(json.toFile());
            ArrayNode ratios = (ArrayNode) root.get("ratios");
            if (edit[0].equals("model")) {
                ((ObjectNode) ratios.get(0)).put("model", 10.0);
            } else {
                ratios.add(ratios.get(0).deepCopy());
            }
            mapper.writeValue(json.toFile(), root);
            ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString(), "--check");
            assertEquals(o.err(), 2, o.status());
            assertEquals(
                    "netns-lab: " + json + ": " + edit[1] + ResultJsonReader.EDITED + System.lineSeparator(), o.err());
        }
        for (String[] edit : edits) {
            Path dir = tmp.newFolder().toPath();
            ResultsFolder.save(r, null, dir);
            Path json = dir.resolve("result.json");
            ObjectNode root = (ObjectNode) mapper.readTree(json.toFile());
            ArrayNode ratios = (ArrayNode) mapper.readTree(edit[0]);
            if (ratios.size() > 0) { // the saved ratio, its seed edited
                ObjectNode saved = ((ObjectNode) root.get("ratios").get(0)).deepCopy();
                saved.put("seed", 0.9);
                ratios.set(0, saved);
            }
            root.set("ratios", ratios);
            mapper.writeValue(json.toFile(), root);
            ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString(), "--check");
            assertEquals(o.err(), 2, o.status());
            assertEquals(
                    "netns-lab: " + json + ": " + edit[1] + ResultJsonReader.EDITED + System.lineSeparator(), o.err());
        }
    }

    @Test
    public void aComparisonGivenTwiceIsRefused() throws Exception {
        assertEditRefused(
                cs -> cs.add(cs.get(0).deepCopy()),
                "comparisons[2]: per-netns-2018 is compared on uevent.transaction twice" + ResultJsonReader.EDITED);
    }

    @Test
    public void theRunAsWrittenIsRead() throws Exception {
        assertEquals(2, ResultsFolder.read(saved()).comparisons().size());
    }
}
