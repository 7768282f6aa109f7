package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The unseen shapes are a third set in calibration.json: {@code calibrate --from} replays them apart from the ladder,
 * and nothing is fitted on them. {@code --seed} takes a whole number, and only where probes run.
 */
public class CalibrateUnseenTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The recorded 3-run calibration with two unseen shapes added (a reorder at M = 3 and a /proc scan over 3000 more
     * processes, seed 42) and its ladder's lowered step, the shapes' figures scaled by {@code factor}.
     */
    private Path recording(String name, double factor) throws Exception {
        ObjectNode root = (ObjectNode)
                JSON.readTree(Path.of("src/test/resources/calibration/calibration-6.18-2cpu-2026-12-01.json")
                        .toFile());
        ArrayNode unseen = root.putArray("unseen_set");
        for (JsonNode l : root.path("prediction_set")) {
            if (l.path("load").asText().equals("reorder") && unseen.isEmpty()) {
                unseen.add(((ObjectNode) l.deepCopy())
                        .put("set", "unseen")
                        .put("injectors_into_one_netns", 3)
                        .put("sends", 3 * l.path("sends_per_injector").asLong()) // as the probe prints a line
                        .put("out_of_order_share", 0.02 * factor));
            }
        }
        for (JsonNode l : root.path("prediction_set")) {
            if (l.path("load").asText().equals("proc-scan") && unseen.size() == 1) {
                unseen.add(((ObjectNode) l.deepCopy())
                        .put("set", "unseen")
                        .put("live_requested", 3000)
                        .put("entries", 3068)
                        .put("scan_cpu_p50_ns", 36_000_000 * factor));
            }
        }
        root.putObject("unseen").put("seed", 42);
        root.putObject("ladder")
                .putArray("lowered")
                .addObject()
                .put("text", "host limit pid_max = 20000 lowers proc-scan live processes = 16000 to 14000");
        Path dir = tmp.newFolder(name).toPath();
        Path file = dir.resolve("calibration.json");
        JSON.writeValue(file.toFile(), root);
        return file;
    }

    private JsonNode from(Path recording, String out, List<String> stdout) throws Exception {
        Path dir = tmp.getRoot().toPath().resolve(out);
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        java.io.PrintStream was = System.out;
        System.setOut(new java.io.PrintStream(o, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            UpFrontChecksTest.Outcome r =
                    UpFrontChecksTest.cli("calibrate", "--from", recording.toString(), "--out", dir.toString());
            assertEquals(r.stderr(), 0, r.exit());
        } finally {
            System.setOut(was);
        }
        stdout.add(o.toString(java.nio.charset.StandardCharsets.UTF_8));
        return JSON.readTree(dir.resolve("calibration.json").toFile());
    }

    /** calibrated.conf without its first line (which names the recording and the time). */
    private String conf(String out) throws Exception {
        String c = Files.readString(tmp.getRoot().toPath().resolve(out).resolve("calibrated.conf"));
        return c.substring(c.indexOf('\n') + 1);
    }

    @Test
    public void theUnseenShapesAreADistinctSetThatChangesNoFit() throws Exception {
        List<String> stdout = new java.util.ArrayList<>();
        JsonNode a = from(recording("a", 1), "out-a", stdout);
        JsonNode b = from(recording("b", 3), "out-b", stdout);
        // apart: the ladder's lines and rows, the shapes' lines and rows, the seed
        assertEquals(2, a.path("unseen_set").size());
        for (JsonNode l : a.path("unseen_set")) {
            assertEquals("unseen", l.path("set").asText());
        }
        for (JsonNode l : a.path("prediction_set")) {
            assertEquals("prediction", l.path("set").asText());
        }
        assertEquals(42, a.path("unseen").path("seed").asLong());
        assertEquals(2, a.path("unseen").path("shapes").asInt());
        List<String> loads = new java.util.ArrayList<>();
        a.path("unseen")
                .path("predictions")
                .forEach(r -> loads.add(r.path("load").asText()));
        assertEquals(List.of("reorder M=3", "/proc scan, 3068 entries"), loads);
        a.path("predictions")
                .forEach(r ->
                        assertTrue(r.toString(), !loads.contains(r.path("load").asText())));
        assertEquals(
                "host limit pid_max = 20000 lowers proc-scan live processes = 16000 to 14000",
                a.path("ladder").path("lowered").get(0).path("text").asText());
        // the shapes' figures changed threefold: their rows moved, the fit and the ladder's rows did not
        assertEquals(a.path("fit"), b.path("fit"));
        assertEquals(conf("out-a"), conf("out-b"));
        assertEquals(a.path("predictions"), b.path("predictions"));
        assertNotEquals(a.path("unseen").path("predictions"), b.path("unseen").path("predictions"));
        assertEquals(
                3 * a.path("unseen").path("predictions").get(1).path("measured").asDouble(),
                b.path("unseen").path("predictions").get(1).path("measured").asDouble(),
                1e-6);
        // the console: the shapes' own table and count, after the ladder's
        String out = stdout.get(0);
        assertTrue(out, out.contains("Unseen shapes (2 drawn at random from the ladder's ranges with seed 42"));
        assertTrue(out, out.matches("(?s).*unseen shapes: [0-2] of 2 within band \\(the rows of 2 shapes\\).*"));
        assertTrue(out, out.indexOf("Unseen shapes (") > out.indexOf("Prediction set, the scale ladder"));
        assertTrue(out, out.contains("The ladder: host limit pid_max = 20000 lowers proc-scan"));
        assertTrue(out, out.contains("The ladder by size, rows within band of its rows:\n  tc1 N=10 "));
        String html = Files.readString(tmp.getRoot().toPath().resolve("out-a").resolve("report.html"));
        assertTrue(html.contains("<h2>Unseen shapes: measured vs predicted</h2>"));
    }

    /** A recording made before the unseen shapes loads, and says it has none. */
    @Test
    public void aRecordingWithoutShapesSaysSo() throws Exception {
        List<String> stdout = new java.util.ArrayList<>();
        JsonNode root =
                from(Path.of("src/test/resources/calibration/calibration-6.18-2cpu-2026-12-01.json"), "old", stdout);
        assertEquals(0, root.path("unseen_set").size());
        assertTrue(root.path("unseen").path("seed").isNull());
        assertTrue(stdout.get(0), stdout.get(0).contains("Unseen shapes: none (a recording made before them)"));
    }

    @Test
    public void aSeedThatIsNotAWholeNumberIsOneLineAndExit2() {
        UpFrontChecksTest.Outcome o = UpFrontChecksTest.cli(
                "calibrate",
                "--seed",
                "abc",
                "--out",
                tmp.getRoot().toPath().resolve("x").toString());
        assertEquals(2, o.exit());
        assertEquals(o.stderr(), 1, o.stderr().strip().lines().count());
        assertTrue(o.stderr(), o.stderr().startsWith("netns-lab: --seed: "));
        UpFrontChecksTest.Outcome withFrom = UpFrontChecksTest.cli(
                "calibrate",
                "--from",
                "src/test/resources/calibration/calibration-6.18-2cpu.json",
                "--seed",
                "7",
                "--out",
                tmp.getRoot().toPath().resolve("y").toString());
        assertEquals(2, withFrom.exit());
        assertTrue(withFrom.stderr(), withFrom.stderr().contains("--seed apply to probe runs"));
    }
}
