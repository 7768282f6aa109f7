package org.netnslab.cli;

import static org.junit.Assert.assertEquals;

import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code calibrate --from} takes a calibrate output folder as {@code --compare} does, and names one that holds no
 * calibration.json; a recording without a schema is said to lack one.
 */
public class CalibrateFromFolderTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void aFolderWithoutACalibrationJsonIsNamed() throws Exception {
        Path dir = tmp.newFolder("empty").toPath();
        CommandLineFaultsTest.Printed p = CommandLineFaultsTest.cli("calibrate", "--from", dir.toString());
        assertEquals(Main.EXIT_CONFIG, p.status());
        assertEquals(
                "netns-lab: calibrate --from " + dir
                        + ": is a folder without a calibration.json; name a calibrate output folder or the file\n",
                p.err());
    }

    @Test
    public void aFolderIsReadThroughItsCalibrationJson() throws Exception {
        Path dir = tmp.newFolder("run").toPath();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode recording = (com.fasterxml.jackson.databind.node.ObjectNode)
                json.readTree(Path.of("docs/measurements/calibration-6.18-2cpu-2026-12-06-check256.json")
                        .toFile());
        recording.remove("schema");
        json.writeValue(dir.resolve("calibration.json").toFile(), recording);
        CommandLineFaultsTest.Printed p = CommandLineFaultsTest.cli("calibrate", "--from", dir.toString());
        assertEquals(p.err(), Main.EXIT_CONFIG, p.status());
        assertEquals(
                "netns-lab: calibrate --from " + dir.resolve("calibration.json")
                        + ": schema: missing; this netns-lab reads schema 1 (a whole number)\n",
                p.err());
    }
}
