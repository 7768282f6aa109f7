package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/** An output folder the results cannot go to is refused before anything runs (exit 2), never after. */
public class OutputFolderTest extends JUnitSuite {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static int run(String out) {
    return Main.execute("run", "load-tests/uevent-tc1-userns.conf", "--scale", "0.01", "--no-progress", "--out", out);
  }

  @Test
  public void anEmptyOutIsRefused() {
    assertEquals(Main.EXIT_CONFIG, run(""));
  }

  @Test
  public void aFolderThatCannotBeCreatedIsRefusedBeforeTheRun() throws Exception {
    Path file = tmp.newFile("plain-file").toPath();
    assertEquals(Main.EXIT_CONFIG, run(file.resolve("sub").toString()));
    Path tooLong = tmp.getRoot().toPath().resolve("x".repeat(300)); // NAME_MAX is 255 on Linux file systems
    assertEquals(Main.EXIT_CONFIG, run(tooLong.toString()));
    assertFalse(Files.exists(tooLong));
  }

  @Test
  public void theWriteCheckLeavesNothingBehind() throws Exception {
    Path dir = tmp.newFolder("out").toPath();
    assertEquals(0, Main.execute("run", "load-tests/uevent-tc1-userns.conf", "--scale", "0.001", "--no-progress",
        "--out", dir.toString(), "--set", "workload.netns.userns-owned=2", "--set", "workload.injectors=2",
        "--set", "designs=[kernel-6.9]", "--set", "baseline=kernel-6.9"));
    try (var files = Files.list(dir)) {
      assertEquals(0, files.filter(f -> f.getFileName().toString().startsWith(".netns-lab-write-check")).count());
    }
    assertTrue(Files.exists(dir.resolve("result.json")));
  }
}
