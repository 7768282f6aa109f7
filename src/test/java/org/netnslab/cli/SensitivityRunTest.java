package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.SensitivityResult;
import org.netnslab.report.ResultsFolder;
import org.netnslab.report.SensitivityReport;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code run --sensitivity N}: the study lands in result.json (beside the base run's keys), in report.html
 * (a tornado and a scatter chart per comparison), and {@code report DIR} rebuilds that section; a live
 * scenario or a bad N is refused with exit 2.
 */
public class SensitivityRunTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void theStudyIsSavedShownAndRebuiltByReport() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("s");
        assertEquals(
                0,
                Main.execute(
                        "run",
                        "load-tests/uevent-tc1-userns.conf",
                        "--scale",
                        "0.002",
                        "--no-progress",
                        "--out",
                        out.toString(),
                        "--set",
                        "workload.netns.userns-owned=40",
                        "--set",
                        "workload.injectors=40",
                        "--set",
                        "workload.injector-start-interval=20ms",
                        "--sensitivity",
                        "4",
                        "--jobs",
                        "2"));
        JsonNode root = new ObjectMapper()
                .readTree(out.resolve(ResultsFolder.RESULT_JSON).toFile());
        JsonNode s = root.get("sensitivity");
        assertEquals(4, s.get("samples").asInt());
        assertEquals(4, s.get("factors").size());
        assertEquals(s.get("keys").size(), s.get("factors").get(0).size());
        assertEquals(2, s.get("comparisons").size());
        assertEquals(4, s.at("/comparisons/0/ratios").size());
        assertEquals(0.82, s.at("/comparisons/0/seed_ratio").asDouble(), 0);
        assertEquals(
                root.at("/comparisons/0/ratio_b_over_a").asDouble(),
                s.at("/comparisons/0/base_ratio").asDouble(),
                0);
        assertEquals(1, root.get("replicates").size()); // the base run's keys hold the base run only
        SensitivityResult study = ResultsFolder.read(out).sensitivity();
        // the run's wall holds the samples; its simulated time and events are the replicates' alone, and say so
        assertTrue(org.netnslab.report.ConsoleReport.clocks(ResultsFolder.read(out))
                .endsWith(" (simulated time and events: the replicates', not the study's samples)"));
        String console = SensitivityReport.console(study);
        assertTrue(
                console,
                console.contains("  only 4 samples: the 'holds in' shares, the spread and the rank"
                        + " correlations below say little before 10 or more (--sensitivity N)\n"));
        double[] r = new double[4];
        for (int i = 0; i < 4; i++) {
            r[i] = s.at("/comparisons/0/ratios/" + i).asDouble();
        }
        java.util.Arrays.sort(r);
        // an even count's median is the middle two's mean, not the upper one
        assertTrue(console, console.contains(String.format(java.util.Locale.ROOT, "median %.3f,", (r[1] + r[2]) / 2)));
        String html = Files.readString(out.resolve(ResultsFolder.REPORT_HTML));
        assertTrue(html.contains("<h2>Sensitivity to the costs</h2>"));
        assertEquals(study.comparisons().size(), html.split("tornado</th>", -1).length - 1);

        Files.writeString(out.resolve(ResultsFolder.REPORT_HTML), "stale");
        assertEquals(0, Main.execute("report", out.toString()));
        assertEquals(html, Files.readString(out.resolve(ResultsFolder.REPORT_HTML)));

        // a share, the conclusion or a rho edited alone no longer follows from the ratios: refused, exit 2
        Path json = out.resolve(ResultsFolder.RESULT_JSON);
        String good = Files.readString(json);
        ObjectMapper mapper = new ObjectMapper();
        for (String[] edit : new String[][] {
            {"holds_share", "1.5"},
            {"conclusion", "\"a faster than b\""},
            {"seed_band_share", "0.123"},
            {"base_ratio", "0.5"},
            {"seed_ratio", "0.5"}
        }) {
            com.fasterxml.jackson.databind.node.ObjectNode edited =
                    (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(good);
            ((com.fasterxml.jackson.databind.node.ObjectNode) edited.at("/sensitivity/comparisons/0"))
                    .set(edit[0], mapper.readTree(edit[1]));
            mapper.writeValue(json.toFile(), edited);
            assertEquals(edit[0], Main.EXIT_CONFIG, Main.execute("report", out.toString()));
        }
        com.fasterxml.jackson.databind.node.ObjectNode wide =
                (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(good);
        ((com.fasterxml.jackson.databind.node.ObjectNode) wide.get("sensitivity")).put("spread", 0.1);
        mapper.writeValue(json.toFile(), wide);
        assertEquals("spread", Main.EXIT_CONFIG, Main.execute("report", out.toString()));
        Files.writeString(json, good);
        assertEquals(0, Main.execute("report", out.toString()));
    }

    @Test
    public void aLiveScenarioOrABadCountIsRefused() {
        assertEquals(
                Main.EXIT_CONFIG,
                Main.execute("run", "load-tests/unshare-loop.conf", "--set", "execution=live", "--sensitivity", "3"));
        assertEquals(Main.EXIT_CONFIG, Main.execute("run", "load-tests/uevent-tc1-userns.conf", "--sensitivity", "-1"));
    }

    /** --sensitivity 0 turns off the scenario's own study, as its block's samples = 0 does. */
    @Test
    public void sensitivityZeroTurnsTheScenariosStudyOff() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("off");
        assertEquals(
                0,
                Main.execute(
                        "run",
                        "load-tests/uevent-tc1-userns.conf",
                        "--scale",
                        "0.001",
                        "--no-progress",
                        "--out",
                        out.toString(),
                        "--set",
                        "sensitivity.samples=3",
                        "--sensitivity",
                        "0"));
        assertTrue(new ObjectMapper()
                .readTree(out.resolve(ResultsFolder.RESULT_JSON).toFile())
                .path("sensitivity")
                .isMissingNode());
    }
}
