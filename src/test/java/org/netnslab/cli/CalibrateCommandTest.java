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
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code calibrate} without probes ({@code --from} a recorded calibration.json): it writes both sets, the fit,
 * the rows, calibrated.conf (which {@code validate} accepts) and report.html; bad options exit 2.
 */
public class CalibrateCommandTest extends JUnitSuite {
  @Rule public final TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void fromARecordedCalibrationWritesEveryFile() throws Exception {
    Path out = tmp.getRoot().toPath().resolve("cal");
    assertEquals(0, Main.execute("calibrate", "--from", "src/test/resources/calibration/calibration-6.18-2cpu.json",
        "--out", out.toString()));
    JsonNode root = new ObjectMapper().readTree(out.resolve("calibration.json").toFile());
    assertTrue(root.path("fit_set").size() > 0);
    assertTrue(root.path("prediction_set").size() > 0);
    assertTrue(root.path("predictions").size() > 0);
    assertTrue(root.path("fit").path("costs").has("costs.uevent.broadcast-per-socket"));
    assertEquals(3, root.path("beyond").size());
    assertTrue(Files.readString(out.resolve("report.html")).contains("predictions within their band"));
    assertEquals(0, Main.execute("validate", "load-tests/uevent-tc1-userns.conf", "--config",
        out.resolve("calibrated.conf").toString()));
  }

  @Test
  public void anUnknownPartIsRefused() {
    assertEquals(2, Main.execute("calibrate", "--only", "uevent,bogus", "--out", tmp.getRoot().toString()));
  }

  @Test
  public void aMissingRecordedCalibrationIsRefused() {
    assertEquals(2, Main.execute("calibrate", "--from", "no/such/calibration.json"));
  }
}
