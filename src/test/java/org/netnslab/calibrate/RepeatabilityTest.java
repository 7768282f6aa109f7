package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
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

    /** A row as calibrate writes it: the prediction is the host's figure when within, ten times it when not. */
    private static void row(ArrayNode a, String load, String measure, double measured, String band, boolean within) {
        ObjectNode r = a.addObject();
        r.put("load", load);
        r.put("measure", measure);
        r.put("measured", measured);
        r.put("predicted", within ? measured : 10 * measured);
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
        root.putObject("host")
                .put("release", "6.18.44")
                .put("cpus", 2)
                .put("hz", 250)
                .put("preempt", "none");
        root.putArray("prediction_set").addObject().put("sitting", name);
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
        return List.of(a, b, c);
    }

    @Test
    public void eachRowsRunsFiguresAreJudgedByEachOthersBands() throws IOException {
        Repeatability.Result r = Repeatability.of(three());
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
                new Repeatability.Line("/proc scan, size 1 of 1", "scan CPU, us", 3, 0, 6, 2, 0, true),
                r.lines().get(2));
        // 0.19 by a factor 2 (0.30 and 0.32 within), 0.30 and 0.32 by +-25% (0.19 out)
        assertEquals(
                new Repeatability.Line(
                        "proc listeners, 1000 processes", "listener CPU exit / all", 3, 0, 6, 4, 3, true),
                r.lines().get(3));
        assertEquals(
                new Repeatability.Line(
                        "reorder M=2..16", "out-of-order share, largest M / smallest M", 3, 3, 6, 4, 3, false),
                r.lines().get(4));
        assertEquals(new Repeatability.Tally(5, 2, 2, 3, 0, 1), r.tallies().get(0));
        assertEquals(new Repeatability.Tally(5, 1, 3, 3, 0, 1), r.tallies().get(1));
        assertEquals(new Repeatability.Tally(5, 2, 3, 3, 0, 1), r.tallies().get(2));
    }

    /**
     * A growth without a figure (the host reordered nothing at the smallest M: calibrate writes null) is read as a
     * miss that no other host figure is within of; null elsewhere is refused.
     */
    @Test
    public void aGrowthWithoutARunsFigureIsReadAsAMiss() throws IOException {
        List<Path> ok = three();
        Path b = ok.get(1);
        edit(b, r -> pred(r, 4).putNull("measured").put("within_band", false));
        Repeatability.Result r = Repeatability.of(ok);
        Repeatability.Line growth = r.lines().get(4);
        assertEquals("reorder M=2..16", growth.load());
        assertEquals(2, growth.modelWithin());
        assertEquals(6, growth.pairs());
        // 2.0 and 4.5 judged by each other (out, 2.25x) and by b's missing figure (out); b's own band holds nothing
        assertEquals(0, growth.pairsWithin());
        edit(b, r2 -> pred(r2, 0).putNull("measured"));
        assertEquals(b + ": predictions[0].measured must be a finite number, 0 or more, got null", refused(ok));
    }

    @Test
    public void theTextCountsRowsAndRecordings() throws IOException {
        String t = RepeatabilityTable.text(Repeatability.of(three()));
        assertTrue(t, t.contains("  tc1 N=3000 *"));
        // 5 of 15 within; pair shares 4,2,2,4,4 of 6 over 3 recordings each: 16/30; medians 2+0+0+3+3 = 8; the
        // largest sizes (N=3000, the scan, the listeners' only size): pairs 2,2,4 of 6, medians 0+0+3
        assertTrue(
                t,
                t.contains("all rows: the model within on 5 of 15 (33%); another recording's host figure on 53%;"
                        + " the median of the others on 8 (53%)"));
        assertTrue(
                t,
                t.contains("largest sizes: the model within on 0 of 9 (0%); another recording's host figure on"
                        + " 44%; the median of the others on 3 (33%)"));
        assertTrue(
                t,
                t.contains("a recording, median over the 3: the model within on 2 of 5 rows (0 of 3 at the"
                        + " largest sizes); the median of the other recordings' host figures on 3 (1)"));
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
        assertTrue(Repeatability.holds("2x", 0, 0)); // two zeros agree, as calibrate judges them
        org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> Repeatability.holds("within reason", 1, 1));
    }

    /** @return what {@link Repeatability#of} refuses {@code files} with */
    private static String refused(List<Path> files) {
        return org.junit.Assert.assertThrows(IOException.class, () -> Repeatability.of(files))
                .getMessage();
    }

    /** Edits {@code f}'s JSON in place. */
    private static void edit(Path f, java.util.function.Consumer<ObjectNode> change) throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(f.toFile());
        change.accept(root);
        JSON.writeValue(f.toFile(), root);
    }

    private static ObjectNode pred(ObjectNode root, int i) {
        return (ObjectNode) root.get("predictions").get(i);
    }

    @Test
    public void aFileThatIsNotARecordingIsNamedWithWhatIsWrong() throws IOException {
        List<Path> ok = three();
        Path notJson = tmp.newFile("notes.txt").toPath();
        Files.writeString(notJson, "ladder 45 of 53\n");
        assertEquals(
                notJson + ": not valid JSON (line 1, column 7): found 'ladder' where a JSON value belongs (a string in"
                        + " double quotes, a number, an array, an object, true, false or null), so not a"
                        + " calibration.json (the JSON calibrate writes)",
                refused(List.of(ok.get(0), notJson)));
        Path empty = tmp.newFile("empty.json").toPath();
        assertEquals(
                empty + ": is empty, so not a calibration.json (the JSON calibrate writes)",
                refused(List.of(ok.get(0), empty)));
        Path old = tmp.newFile("old.json").toPath();
        Files.writeString(old, "{\"prediction_set\": [], \"fit_set\": []}");
        assertEquals(
                old + ": holds measurements but no stored predictions (recorded before calibrate stored them): re-fit"
                        + " it with calibrate --from " + old + " --out DIR and compare DIR",
                refused(List.of(ok.get(0), old)));
        org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> Repeatability.of(List.of(ok.get(0))));
    }

    /**
     * A row is refused as calibrate would not write it: a band of another width, a share's band that does not follow
     * its size, a verdict its figures do not give, a negative figure, a row twice; and the same row judged by two
     * bands in two recordings.
     */
    @Test
    public void anEditedRowIsRefusedByFileRowAndField() throws IOException {
        List<Path> ok = three();
        Path b = ok.get(1);
        edit(b, r -> pred(r, 0).put("band", "10x"));
        assertEquals(
                b + ": predictions[0].band: '10x' is not a band calibrate writes (+-25%, 2x, 2x of the host's growth;"
                        + " +-0.1 in older recordings)",
                refused(ok));
        edit(b, r -> pred(r, 0).put("band", "2x"));
        assertEquals(
                b + ": tc1 N=10, throughput, sends/s is judged by 2x, in " + ok.get(0) + " by +-25%: an edited band?",
                refused(ok));
        edit(b, r -> pred(r, 0).put("band", "+-25%").put("within_band", true));
        assertEquals(
                b + ": predictions[0].within_band is true, but 1150.0 is outside +-25% of 115.0: an edited figure?",
                refused(ok));
        edit(b, r -> pred(r, 0).put("within_band", false).put("measured", -5));
        assertEquals(b + ": predictions[0].measured must be a finite number, 0 or more, got -5", refused(ok));
        edit(b, r -> pred(r, 0).put("measured", 115));
        edit(b, r -> pred(r, 3).put("band", "2x"));
        assertEquals(b + ": predictions[3].band: a share of 0.3 is judged by +-25%, not 2x", refused(ok));
        edit(b, r -> pred(r, 3).put("band", "+-25%"));
        edit(b, r -> ((ArrayNode) r.get("predictions")).add(pred(r, 0).deepCopy()));
        assertEquals(b + ": predictions[5] repeats tc1 N=10, throughput, sends/s: a row is recorded once", refused(ok));
    }

    /**
     * Recordings that cannot tell how the host repeats are refused: a file twice (also as its folder), a re-fit of the
     * same measurements, another machine, a --quick one beside a full one, other rows.
     */
    @Test
    public void recordingsThatCannotBeComparedAreRefused() throws IOException {
        List<Path> ok = three();
        Path folder = tmp.newFolder("calibrate-a").toPath();
        Files.copy(ok.get(0), folder.resolve("calibration.json"));
        assertEquals(
                3,
                Repeatability.of(List.of(folder, ok.get(1), ok.get(2)))
                        .tallies()
                        .size());
        assertEquals(
                ok.get(0) + ": is " + ok.get(0) + " again: each recording is compared once",
                refused(List.of(ok.get(0), ok.get(1), ok.get(0))));
        assertEquals(
                folder + ": holds the measurements of " + ok.get(0) + " (a calibrate --from re-fit of it?): one sitting"
                        + " would be compared with itself",
                refused(List.of(ok.get(0), folder)));
        Path bare = tmp.newFolder("bare").toPath();
        assertEquals(
                bare + ": is a folder without a calibration.json (name a calibrate output folder or the file)",
                refused(List.of(ok.get(0), bare)));

        Path c = ok.get(2);
        edit(c, r -> ((ObjectNode) r.get("host")).put("release", "6.12.0").put("cpus", 8));
        assertEquals(
                c + ": was measured on 6.12.0 on 8 CPUs (HZ 250, preempt none), " + ok.get(0)
                        + " on 6.18.44 on 2 CPUs (HZ 250, preempt none): the host's repeatability needs recordings of"
                        + " one host",
                refused(ok));
        // another build of the version is the same host, but not a realtime one, nor another HZ
        edit(
                c,
                r -> ((ObjectNode) r.get("host"))
                        .put("release", "6.18.44-fc-v1272")
                        .put("cpus", 2));
        assertEquals(3, Repeatability.of(ok).tallies().size());
        edit(c, r -> ((ObjectNode) r.get("host")).put("release", "6.18.44-rt12"));
        assertTrue(refused(ok), refused(ok).contains("was measured on 6.18.44-rt12 on 2 CPUs"));
        edit(c, r -> ((ObjectNode) r.get("host")).put("release", "6.18.44-284.11.1.rt14.el9"));
        assertTrue(refused(ok), refused(ok).contains("was measured on 6.18.44-284.11.1.rt14.el9 on 2 CPUs"));
        edit(c, r -> ((ObjectNode) r.get("host")).put("release", "6.18.44").put("cpus", 4294967298L));
        assertEquals(c + ": host.cpus must be a whole number, 1 or more, got 4294967298", refused(ok));
        edit(c, r -> ((ObjectNode) r.get("host")).put("cpus", 2).put("hz", "250"));
        assertEquals(c + ": host.hz must be a whole number, got \"250\"", refused(ok));
        edit(c, r -> ((ObjectNode) r.get("host")).put("release", "6.18.44").put("hz", 1000));
        assertTrue(refused(ok), refused(ok).contains("(HZ 1000, preempt none)"));
        edit(c, r -> ((ObjectNode) r.get("host")).put("hz", 250));
        edit(c, r -> r.put("quick", true));
        assertEquals(
                c + ": is a --quick calibration and " + ok.get(0)
                        + " a full one: their loads differ, so compare like with like",
                refused(ok));
        edit(c, r -> r.put("quick", false));
        edit(c, r -> ((ArrayNode) r.get("predictions")).remove(4));
        assertEquals(
                c + ": lacks reorder M=2..16, out-of-order share, largest M / smallest M, which " + ok.get(0)
                        + " has: recordings of other probe sets or ladders; compare like with like",
                refused(ok));
    }

    /**
     * Two zeros agree, and a recording made before they did (its row a miss) is read as recorded, not refused as an
     * edited figure; a recorded within for a zero beside a figure is still refused.
     */
    @Test
    public void zerosRecordedAsAMissAreReadAsRecorded() throws IOException {
        List<Path> ok = three();
        Path b = ok.get(1);
        edit(
                b,
                r -> pred(r, 3)
                        .put("measured", 0.0)
                        .put("predicted", 0.0)
                        .put("band", "2x")
                        .put("within_band", false));
        Repeatability.Line share = Repeatability.of(ok).lines().get(3);
        assertEquals("proc listeners, 1000 processes", share.load());
        assertEquals(0, share.modelWithin());
        edit(b, r -> pred(r, 3).put("predicted", 0.01).put("within_band", true));
        assertTrue(
                refused(ok), refused(ok).contains("predictions[3].within_band is true, but 0.01 is outside 2x of 0.0"));
    }
}
