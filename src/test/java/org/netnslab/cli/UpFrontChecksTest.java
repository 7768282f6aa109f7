package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.scenario.HeapEstimate;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.ScenarioLoader;
import org.scalatestplus.junit.JUnitSuite;

/** Issue #11, "check everything up front": what validate and run refuse before any work, exit 2. */
public class UpFrontChecksTest extends JUnitSuite {
  @Rule public final TemporaryFolder tmp = new TemporaryFolder();

  /** What a CLI call printed on stderr, and its exit status. */
  record Outcome(int exit, String stderr) {}

  static Outcome cli(String... args) {
    PrintStream before = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      int exit = Main.execute(args);
      return new Outcome(exit, err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(before);
    }
  }

  /** The issue's case: 100,000 netns with 100,000 injectors, which died with OutOfMemoryError after 54 s. */
  private Path hundredThousand() throws Exception {
    Path f = tmp.newFile("huge.conf").toPath();
    Files.writeString(f, String.join("\n",
        "name = huge",
        "description = \"100,000 netns, 100,000 injectors\"",
        "seed = \"issue 11\"",
        "workload {",
        "  type = uevent-injection",
        "  netns { userns-owned = 100000, init-owned = 0 }",
        "  listeners-per-netns = 1",
        "  injections-per-netns = 100",
        "  warmup-per-netns = 1",
        "  injectors = 100000",
        "}",
        "designs = [kernel-4.18, per-netns-2018]",
        ""));
    return f;
  }

  @Test
  public void aPopulationTooLargeForTheHeapIsRefusedByValidate() throws Exception {
    Path f = hundredThousand();
    Outcome o = cli("validate", f.toString());
    long maxMiB = (Runtime.getRuntime().maxMemory() + (1L << 20) - 1) >> 20;
    assertEquals(o.stderr(), Main.EXIT_CONFIG, o.exit());
    assertTrue(o.stderr(), o.stderr().contains(f + ": workload: scenario huge at --scale 1.0"));
    assertTrue(o.stderr(), o.stderr().contains("needs about 5" )); // 64 MiB + 2 x 2.97 GB: about 5,730 MiB
    assertTrue(o.stderr(), o.stderr().contains("MiB of heap (2.0 x the population's measured bytes + 64 MiB)"));
    assertTrue(o.stderr(), o.stderr().contains("more than this JVM's maximum heap (-Xmx) of " + maxMiB + " MiB"));
    assertTrue(o.stderr(), o.stderr().contains("NETNS_LAB_JAVA_OPTS=\"-Xmx6g\" ./netns-lab run"));
    assertEquals("run refuses it too, before anything runs", Main.EXIT_CONFIG,
        cli("run", f.toString(), "--no-progress", "--out", tmp.getRoot().toPath().resolve("out").toString()).exit());
  }

  /** The launcher's default heap (-Xmx4g) would not hold it either; 8 GiB would. */
  @Test
  public void theEstimateOfTheIssuesCase() throws Exception {
    Scenario s = new ScenarioLoader().load(hundredThousand(), List.of(), 1);
    long bytes = HeapEstimate.bytes(s);
    // per netns 2,700 + 4 x cpus (live: this machine's processors), listener 7,000, injector 20,000 B
    long population = 100_000L * (2_700 + 4L * Runtime.getRuntime().availableProcessors()) + 100_000L * 7_000
        + 100_000L * 20_000;
    assertEquals(HeapEstimate.BASE_BYTES + 2 * population, bytes);
    try {
      HeapEstimate.check(s, 4L << 30);
      throw new AssertionError("refused under -Xmx4g");
    } catch (ScenarioException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("NETNS_LAB_JAVA_OPTS"));
    }
    HeapEstimate.check(s, 8L << 30);
  }

  @Test
  public void aSmallScenarioPasses() {
    Outcome o = cli("validate", "load-tests/uevent-tc1-userns.conf");
    assertEquals(o.stderr(), 0, o.exit());
  }
}
