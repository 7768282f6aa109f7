package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A recording's ladder lines are its recorded steps and its unseen lines the draw of its recorded seed; a cut step, an
 * edited size or an edited seed is refused, naming what is at fault.
 */
public class RecordedLadderTest extends JUnitSuite {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    public void everyRecordingsUnseenLinesAreItsSeedsDraw() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("docs/measurements"))) {
            files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        int drawn = 0;
        for (Path f : files) {
            ObjectNode root = (ObjectNode) JSON.readTree(f.toFile());
            assertNull(f.toString(), RecordedLadder.problem(root));
            drawn += root.path("unseen").path("seed").isIntegralNumber() ? 1 : 0;
        }
        assertEquals("recordings with a seed, all checked", 87, drawn);
    }

    @Test
    public void anEditedSeedIsRefusedNamingTheLine() throws Exception {
        ObjectNode root =
                (ObjectNode) JSON.readTree(Path.of("docs/measurements/calibration-6.18-2cpu-2026-12-07-pair277.json")
                        .toFile());
        assertNull(RecordedLadder.problem(root));
        ((ObjectNode) root.path("unseen")).put("seed", 278);
        assertEquals(
                "unseen_set[0] (tc1 of 1947) is not a shape unseen.seed 278 draws over ladder.sizes (it draws [tc1 "
                        + UnseenShapes.draw(278, plan(root)).get(0).size() + ",",
                RecordedLadder.problem(root)
                        .substring(0, RecordedLadder.problem(root).indexOf(',') + 1));
    }

    /** A whole step cut out, or a line's size edited, no longer reads as a ladder of other steps. */
    @Test
    public void aCutStepOrAnEditedSizeIsRefused() throws Exception {
        ObjectNode root =
                (ObjectNode) JSON.readTree(Path.of("docs/measurements/calibration-6.18-2cpu-2026-12-07-pair277.json")
                        .toFile());
        com.fasterxml.jackson.databind.node.ArrayNode lines =
                (com.fasterxml.jackson.databind.node.ArrayNode) root.path("prediction_set");
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).path("load").asText().equals("tc1")
                    && lines.get(i).path("injectors").asLong() == 3000) {
                lines.remove(i);
            }
        }
        assertEquals(
                "prediction_set's tc1 lines are of N [10, 100, 1000], where ladder.sizes.tc1 says [10, 100, 1000,"
                        + " 3000] ran: a cut or edited recording",
                RecordedLadder.problem(root));
        ((ObjectNode) lines.get(0)).put("injectors", 11);
        assertEquals(
                "prediction_set's tc1 lines are of N [10, 11, 100, 1000], where ladder.sizes.tc1 says [10, 100, 1000,"
                        + " 3000] ran: a cut or edited recording",
                RecordedLadder.problem(root));
    }

    private static Ladder.Plan plan(ObjectNode root) {
        java.util.Map<Ladder.Kind, List<Long>> sizes = new java.util.EnumMap<>(Ladder.Kind.class);
        for (Ladder.Kind k : Ladder.Kind.values()) {
            List<Long> s = new java.util.ArrayList<>();
            root.path("ladder").path("sizes").path(k.load).forEach(v -> s.add(v.asLong()));
            sizes.put(k, s);
        }
        return new Ladder.Plan(sizes, List.of(), null, false);
    }
}
