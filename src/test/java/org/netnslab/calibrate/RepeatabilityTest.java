package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The model's recorded verdicts beside the host's own repeatability: every other recording's host figure judged by a
 * recording's band, and the median of the others; a scan matched by rank and compared per entry; a row only one
 * recording holds left out; every figure below worked by hand.
 */
public class RepeatabilityTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final ObjectMapper JSON = new ObjectMapper();

    private static void row(ArrayNode a, String load, String measure, double measured, String band, boolean within) {
        ObjectNode r = a.addObject();
        r.put("load", load);
        r.put("measure", measure);
        r.put("measured", measured);
        r.put("predicted", 1.0);
        r.put("band", band);
        r.put("within_band", within);
    }

    /** One recording: tc1 N=10 and N=3000 throughput, one scan, the proc share at 1000, the reorder growth. */
    private Path recording(
            String name,
            double tc10,
            boolean in10,
            double tc3000,
            long entries,
            double scan,
            double share,
            double growth)
            throws IOException {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode p = root.putArray("predictions");
        row(p, "tc1 N=10", "throughput, sends/s", tc10, "+-25%", in10);
        row(p, "tc1 N=3000", "throughput, sends/s", tc3000, "+-25%", false);
        row(p, "/proc scan, " + entries + " entries", "scan CPU, us", scan, "+-25%", false);
        row(p, "proc listeners, 1000 processes", "listener CPU exit / all", share, share < 0.2 ? "2x" : "+-25%", false);
        row(
                p,
                "reorder M=2..16",
                "out-of-order share, largest M / smallest M",
                growth,
                "2x of the host's growth",
                true);
        Path f = tmp.getRoot().toPath().resolve(name + ".json");
        JSON.writeValue(f.toFile(), root);
        return f;
    }

    private List<Path> three() throws IOException {
        Path a = recording("a", 100, true, 10, 2070, 20_700, 0.19, 2.0);
        Path b = recording("b", 115, false, 10, 2050, 22_550, 0.30, 3.0);
        Path c = recording("c", 140, true, 30, 2100, 63_000, 0.32, 4.5);
        // a size of the proc listeners only a holds: its 1000 is not its largest, and the 20000 row is left out
        ObjectNode root = (ObjectNode) JSON.readTree(a.toFile());
        row(
                (ArrayNode) root.get("predictions"),
                "proc listeners, 20000 processes",
                "listener CPU exit / all",
                0.25,
                "+-25%",
                false);
        JSON.writeValue(a.toFile(), root);
        return List.of(a, b, c);
    }

    @Test
    public void eachRowsHostFiguresAreJudgedByEachOthersBands() throws IOException {
        Repeatability.Result r = Repeatability.of(three());
        assertEquals(1, r.rowsOnce());
        assertEquals(5, r.lines().size());
        // 100, 115, 140: 1.15 and 0.87 and 1.22 and 0.82 within; medians 127.5 (1.275 out), 120, 107.5 (0.77) in
        assertEquals(
                new Repeatability.Line("tc1 N=10", "throughput, sends/s", 3, 2, 6, 4, 2, false),
                r.lines().get(0));
        assertEquals(
                new Repeatability.Line("tc1 N=3000", "throughput, sends/s", 3, 0, 6, 2, 0, true),
                r.lines().get(1));
        // 10, 11 and 30 per entry, whatever each sitting's entries
        assertEquals(
                new Repeatability.Line("/proc scan, #1 of 1", "scan CPU, us", 3, 0, 6, 2, 0, true),
                r.lines().get(2));
        // 0.19 by a factor 2 (0.30 and 0.32 within), 0.30 and 0.32 by +-25% (0.19 out); not a's largest size
        assertEquals(
                new Repeatability.Line(
                        "proc listeners, 1000 processes", "listener CPU exit / all", 3, 0, 6, 4, 3, false),
                r.lines().get(3));
        assertEquals(
                new Repeatability.Line(
                        "reorder M=2..16", "out-of-order share, largest M / smallest M", 3, 3, 6, 4, 3, false),
                r.lines().get(4));
        assertEquals(new Repeatability.Tally(5, 2, 2, 2, 0, 0), r.tallies().get(0));
        assertEquals(new Repeatability.Tally(5, 1, 3, 2, 0, 0), r.tallies().get(1));
        assertEquals(new Repeatability.Tally(5, 2, 3, 2, 0, 0), r.tallies().get(2));
    }

    @Test
    public void theTextCountsRowsAndRecordings() throws IOException {
        String t = RepeatabilityTable.text(Repeatability.of(three()));
        assertTrue(t, t.contains("  tc1 N=3000 *"));
        assertTrue(t, t.contains("1 row only one recording holds left out"));
        // 5 of 15 within; pair shares 4,2,2,4,4 of 6 over 3 recordings each: 16/30; medians 2+0+0+3+3 = 8
        assertTrue(
                t,
                t.contains("all rows: the model within on 5 of 15 (33%); another recording's host figure on 53%;"
                        + " the median of the others on 8 (53%)"));
        assertTrue(
                t,
                t.contains("largest sizes: the model within on 0 of 6 (0%); another recording's host figure on"
                        + " 33%; the median of the others on 0 (0%)"));
        assertTrue(
                t,
                t.contains("a recording, median over the 3: the model within on 2 of 5 rows (0 of 2 at the"
                        + " largest sizes); the median of the other recordings' host figures on 3 (0)"));
        String csv = RepeatabilityTable.csv(Repeatability.of(three()));
        assertEquals(
                "\"tc1 N=10\",\"throughput, sends/s\",3,2,0.6667,2,false",
                csv.lines().skip(1).findFirst().get());
    }

    @Test
    public void bandsAreReadAsRecordingsNameThem() {
        assertTrue(Repeatability.holds("+-25%", 100, 125));
        assertFalse(Repeatability.holds("+-25%", 100, 126));
        assertTrue(Repeatability.holds("+-0.1", 0.04, 0.14));
        assertFalse(Repeatability.holds("+-0.1", 0.04, 0.15));
        assertTrue(Repeatability.holds("2x", 0.04, 0.08));
        assertFalse(Repeatability.holds("2x", 0.04, 0.081));
        assertTrue(Repeatability.holds("2x of the host's growth", 2, 1));
        assertFalse(Repeatability.holds("2x", 0, 0));
        assertNull(Repeatability.holds("within reason", 1, 1));
    }

    @Test
    public void aFileThatIsNotARecordingIsNamedWithWhatIsWrong() throws IOException {
        List<Path> ok = three();
        Path notJson = tmp.newFile("notes.txt").toPath();
        Files.writeString(notJson, "ladder 45 of 53\n");
        IOException e =
                org.junit.Assert.assertThrows(IOException.class, () -> Repeatability.of(List.of(ok.get(0), notJson)));
        assertTrue(e.getMessage(), e.getMessage().startsWith(notJson + ": not JSON, so not a calibration.json: "));
        Path empty = tmp.newFile("empty.json").toPath();
        Files.writeString(empty, "{\"predictions\": []}");
        e = org.junit.Assert.assertThrows(IOException.class, () -> Repeatability.of(List.of(ok.get(0), empty)));
        assertEquals(empty + ": predictions is empty: nothing to compare", e.getMessage());
        ObjectNode root = (ObjectNode) JSON.readTree(ok.get(1).toFile());
        ((ObjectNode) root.get("predictions").get(2)).put("band", "about right");
        JSON.writeValue(ok.get(1).toFile(), root);
        e = org.junit.Assert.assertThrows(IOException.class, () -> Repeatability.of(ok));
        assertEquals(
                ok.get(1) + ": predictions[2].band: 'about right' is not a band calibrate writes (+-25%, 2x)",
                e.getMessage());
        ((ObjectNode) root.get("predictions").get(2)).put("band", "+-25%");
        ((ObjectNode) root.get("predictions").get(1)).remove("within_band");
        JSON.writeValue(ok.get(1).toFile(), root);
        e = org.junit.Assert.assertThrows(IOException.class, () -> Repeatability.of(ok));
        assertEquals(ok.get(1) + ": predictions[1].within_band must be true or false, got none", e.getMessage());
        org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> Repeatability.of(List.of(ok.get(0))));
    }

    /**
     * A calibrate output folder is read as its calibration.json; a --quick recording beside a full one is refused (its
     * loads are smaller under the same names); recordings of two machines are compared with a note saying so.
     */
    @Test
    public void foldersQuickRecordingsAndOtherMachines() throws IOException {
        List<Path> ok = three();
        Path folder = tmp.newFolder("calibrate-1").toPath();
        Files.copy(ok.get(1), folder.resolve("calibration.json"));
        assertEquals(
                Repeatability.of(ok).lines(),
                Repeatability.of(List.of(ok.get(0), folder, ok.get(2))).lines());
        Path bare = tmp.newFolder("bare").toPath();
        IOException e =
                org.junit.Assert.assertThrows(IOException.class, () -> Repeatability.of(List.of(ok.get(0), bare)));
        assertEquals(
                bare + ": is a folder without a calibration.json (name a calibrate output folder or the file)",
                e.getMessage());

        ObjectNode root = (ObjectNode) JSON.readTree(ok.get(2).toFile());
        root.put("quick", true);
        JSON.writeValue(ok.get(2).toFile(), root);
        e = org.junit.Assert.assertThrows(IOException.class, () -> Repeatability.of(ok));
        assertEquals(
                ok.get(2) + ": is a --quick calibration and " + ok.get(0)
                        + " a full one: their loads differ, so compare like with like",
                e.getMessage());

        root.put("quick", false);
        root.putObject("host").put("release", "6.12.0").put("cpus", 8);
        JSON.writeValue(ok.get(2).toFile(), root);
        String t = RepeatabilityTable.text(Repeatability.of(ok));
        assertTrue(
                t,
                t.contains(
                        "  note: the recordings come from 2 machines (an unknown kernel on ? CPUs; 6.12.0 on 8 CPUs):"
                                + " a figure that moves between them is not the host repeating itself\n"));
    }
}
