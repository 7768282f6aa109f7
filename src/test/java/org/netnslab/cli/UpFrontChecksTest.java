package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
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

/** "Check everything up front": what validate and run refuse before any work, exit 2. */
public class UpFrontChecksTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

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
        Files.writeString(
                f,
                String.join(
                        "\n",
                        "name = huge",
                        "description = \"100,000 netns, 100,000 injectors\"",
                        "seed = \"up front\"",
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
        long maxMiB = Runtime.getRuntime().maxMemory() >> 20; // rounded down, the estimate up: never the same figure
        assertEquals(o.stderr(), Main.EXIT_CONFIG, o.exit());
        assertTrue(o.stderr(), o.stderr().contains(f + ": workload: scenario huge at --scale 1"));
        assertTrue(o.stderr(), o.stderr().contains("needs about 5")); // 64 MiB + 2 x 2.64 GB: about 5,101 MiB
        assertTrue(o.stderr(), o.stderr().contains("MiB of heap (2.0 x the population's measured bytes + 64 MiB)"));
        long xmxMiB = Long.parseLong(java.lang.management.ManagementFactory.getPlatformMXBean(
                                com.sun.management.HotSpotDiagnosticMXBean.class)
                        .getVMOption("MaxHeapSize")
                        .getValue())
                >> 20;
        assertTrue(
                o.stderr(),
                o.stderr().contains("more than this JVM's usable heap of " + maxMiB + " MiB (-Xmx" + xmxMiB + "m)"));
        assertTrue(
                o.stderr(),
                java.util.regex.Pattern.compile("NETNS_LAB_JAVA_OPTS=\"-Xmx[5-7]g[^\"]*\" ./netns-lab run")
                        .matcher(o.stderr())
                        .find());
        // per netns 2,100 + 4 x cpus, listener 4,300, injector 20,000 B: the injectors are 2.0 GB of 2.64
        assertTrue(
                o.stderr(),
                java.util.regex.Pattern.compile("or lower the population, which --scale does not shrink \\(it sets the"
                                + " injections\\): most of it is 100000 injectors \\(workload.injectors\\), 7[5-6]% of its"
                                + " bytes")
                        .matcher(o.stderr())
                        .find());
        assertEquals(
                "run refuses it too, before anything runs",
                Main.EXIT_CONFIG,
                cli(
                                "run",
                                f.toString(),
                                "--no-progress",
                                "--out",
                                tmp.getRoot().toPath().resolve("out").toString())
                        .exit());
    }

    /** The launcher's default heap (-Xmx4g) would not hold it either; 8 GiB would. */
    @Test
    public void theEstimateOfTheIssuesCase() throws Exception {
        Scenario s = new ScenarioLoader().load(hundredThousand(), List.of(), 1);
        long bytes = HeapEstimate.bytes(s);
        // per netns 2,100 + 4 x cpus (live: this machine's processors), listener 4,300, injector 20,000 B
        long population = 100_000L * (2_100 + 4L * Runtime.getRuntime().availableProcessors())
                + 100_000L * 4_300
                + 100_000L * 20_000;
        assertEquals(HeapEstimate.BASE_BYTES + 2 * population, bytes);
        try {
            HeapEstimate.check(s, 4L << 30);
            throw new AssertionError("refused under -Xmx4g");
        } catch (ScenarioException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("NETNS_LAB_JAVA_OPTS"));
        }
        HeapEstimate.check(s, 8L << 30);
        // The launcher's -Xmx4g under ParallelGC leaves 3,641 MiB usable: the suggestion scales -Xmx by that share
        // (5g would give 4,551 MiB usable, short of the 5,101 needed; 6g gives 5,462) and keeps the collector option.
        try {
            HeapEstimate.check(s, 3641L << 20, 4096L << 20, List.of("-Xms1g", "-XX:+UseParallelGC"));
            throw new AssertionError("refused under -Xmx4g");
        } catch (ScenarioException e) {
            assertTrue(
                    e.getMessage(),
                    e.getMessage().contains("more than this JVM's usable heap of 3641 MiB (-Xmx4096m)"));
            assertTrue(
                    e.getMessage(),
                    e.getMessage()
                            .contains("NETNS_LAB_JAVA_OPTS=\"-Xmx6g -Xms1g -XX:+UseParallelGC\" ./netns-lab run"));
        }
        // NETNS_LAB_JAVA_OPTS=-Xmx64m replaced the launcher's options: the suggestion brings its collector back
        try {
            HeapEstimate.check(s, 57L << 20, 64L << 20, List.of());
            throw new AssertionError("refused under -Xmx64m");
        } catch (ScenarioException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("-XX:+UseParallelGC\" ./netns-lab run"));
        }
        try {
            HeapEstimate.check(s, 57L << 20, 64L << 20, List.of("-XX:+UseG1GC"));
            throw new AssertionError("refused under -Xmx64m");
        } catch (ScenarioException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(" -XX:+UseG1GC\" ./netns-lab run"));
            assertFalse(e.getMessage(), e.getMessage().contains("UseParallelGC"));
        }
    }

    @Test
    public void aSmallScenarioPassesAndValidateNamesItsHeapEstimate() throws Exception {
        PrintStream before = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        Outcome o;
        try {
            o = cli("validate", "load-tests/uevent-tc1-userns.conf");
        } finally {
            System.setOut(before);
        }
        assertEquals(o.stderr(), 0, o.exit());
        // the estimate the up-front check uses, in MiB rounded up
        long expected = org.netnslab.scenario.HeapEstimate.bytes(new org.netnslab.scenario.ScenarioLoader()
                .load(java.nio.file.Path.of("load-tests/uevent-tc1-userns.conf"), java.util.List.of(), 1.0));
        assertTrue(
                out.toString(StandardCharsets.UTF_8),
                out.toString(StandardCharsets.UTF_8)
                        .contains("; heap estimate " + ((expected + (1L << 20) - 1) >> 20) + " MiB of "
                                + (Runtime.getRuntime().maxMemory() >> 20) + " MiB usable\n"));
    }

    /** With the heap check off, validate still says when the estimate is over the usable heap. */
    @Test
    public void validateSaysAnEstimateOverTheHeapWhenTheCheckIsOff() throws Exception {
        java.nio.file.Path off = java.nio.file.Files.createTempFile("heap-check", ".conf");
        java.nio.file.Files.writeString(off, "netns-lab.run.heap-check = false\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream before = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Main.execute("validate", "load-tests/scale-1m-netns.conf", "--config", off.toString());
        } finally {
            System.setOut(before);
            java.nio.file.Files.delete(off);
        }
        assertEquals(0, exit);
        assertTrue(
                out.toString(StandardCharsets.UTF_8),
                out.toString(StandardCharsets.UTF_8)
                        .contains(" MiB usable, more than it: the run may fail with OutOfMemoryError"
                                + " (netns-lab.run.heap-check is off)\n"));
    }

    @Test
    public void anOptionalSubstitutionThatIsNotSetIsWarnedAbout() {
        Outcome o = cli(
                "validate", "load-tests/proc-filter.conf", "--set", "workload.processes=${?NETNS_LAB_SURELY_UNSET}");
        assertEquals(o.stderr(), 0, o.exit());
        assertTrue(
                o.stderr(),
                o.stderr()
                        .contains("netns-lab: warning: --set workload.processes=${?NETNS_LAB_SURELY_UNSET}:"
                                + " the optional substitution is not defined (no such key or environment variable), so this override sets"
                                + " nothing: workload.processes keeps the scenario's value"));
        assertEquals(
                "a defined one is not",
                "",
                cli("validate", "load-tests/proc-filter.conf", "--set", "workload.processes=${?workload.processes}")
                        .stderr());
    }

    @Test
    public void aMissingRequiredIncludeHasItsLine() throws Exception {
        Path f = tmp.newFile("inc.conf").toPath();
        Files.writeString(f, "name = x\n\ninclude required(\"missing.conf\")\n");
        Outcome o = cli("validate", f.toString());
        assertEquals(Main.EXIT_CONFIG, o.exit());
        assertTrue(o.stderr(), o.stderr().contains(f + ":3: include: included file missing.conf not found"));
        Path c = tmp.newFile("extra.conf").toPath();
        Files.writeString(c, "\ninclude required(file(\"nothere.conf\"))\n");
        o = cli("validate", "load-tests/proc-filter.conf", "--config", c.toString());
        assertEquals(Main.EXIT_CONFIG, o.exit());
        assertTrue(o.stderr(), o.stderr().contains(c + ":2: include: included file nothere.conf not found"));
    }

    @Test
    public void aFolderIsSaidToBeOne() throws Exception {
        Path dir = tmp.newFolder("d").toPath();
        Outcome o = cli("validate", "load-tests/proc-filter.conf", "--config", dir.toString());
        assertEquals(Main.EXIT_CONFIG, o.exit());
        assertTrue(o.stderr(), o.stderr().contains(dir + ": --config: is a directory, not a HOCON file"));
        o = cli("validate", dir.toString());
        assertEquals(Main.EXIT_CONFIG, o.exit());
        assertTrue(o.stderr(), o.stderr().contains(dir + ": is a directory, not a scenario file"));
    }

    @Test
    public void anUnknownEmbeddedDesignIsRefusedByValidate() throws Exception {
        Path c = tmp.newFile("embedded.conf").toPath();
        Files.writeString(c, "netns-lab.embedded.design = \"kernel-9.99\"\n");
        Outcome o = cli("validate", "load-tests/proc-filter.conf", "--config", c.toString());
        assertEquals(Main.EXIT_CONFIG, o.exit());
        assertTrue(
                o.stderr(),
                o.stderr()
                        .contains(c + ":1: netns-lab.embedded.design: unknown design 'kernel-9.99';"
                                + " known designs: [exit-barrier, "));
        assertTrue(o.stderr(), o.stderr().contains("per-netns-2018, "));
    }

    @Test
    public void everyDesignOfAConfigFileIsCheckedWhetherOrNotAScenarioRunsIt() throws Exception {
        Path c = tmp.newFile("designs.conf").toPath();
        Files.writeString(
                c,
                String.join(
                        "\n",
                        "netns-lab.designs.fine { uevent.serialization = lockless }",
                        "netns-lab.designs.share { netns.rtnl { setup-share = 2 } }",
                        "netns-lab.designs.typo { uevent.serialisation = lockless }",
                        "netns-lab.designs.flat = 5",
                        ""));
        Outcome o = cli("validate", "load-tests/proc-filter.conf", "--config", c.toString());
        assertEquals(Main.EXIT_CONFIG, o.exit());
        assertTrue(o.stderr(), o.stderr().contains("3 configuration problems"));
        String share = c + ":2: netns-lab.designs.share.netns.rtnl.setup-share: must be in 0..1, got 2.0";
        String typo = c + ":3: netns-lab.designs.typo.uevent.serialisation: unknown model key";
        String flat = c + ":4: netns-lab.designs.flat: must be an object of model keys";
        assertTrue(
                o.stderr(),
                o.stderr().indexOf(share) >= 0
                        && o.stderr().indexOf(share) < o.stderr().indexOf(typo)
                        && o.stderr().indexOf(typo) < o.stderr().indexOf(flat));
        assertFalse(o.stderr(), o.stderr().contains("designs.fine"));
        Files.writeString(
                c, "netns-lab.designs.fine { uevent.serialization = lockless, netns.rtnl.exit-share = 0.5 }\n");
        assertEquals(
                o.stderr(),
                0,
                cli("validate", "load-tests/proc-filter.conf", "--config", c.toString())
                        .exit());
        // a fault switch is the scenario's, never a design's
        Files.writeString(c, "netns-lab.designs.leaky { sock-inuse.fault = skip-put-net }\n");
        o = cli("validate", "load-tests/proc-filter.conf", "--config", c.toString());
        assertEquals(o.stderr(), Main.EXIT_CONFIG, o.exit());
        assertTrue(
                o.stderr(),
                o.stderr()
                        .contains(c + ":1: netns-lab.designs.leaky.sock-inuse.fault: fault switches are not a"
                                + " design's"));
        // a built-in design keeps its rules; an unquoted dotted name is said to be one
        Files.writeString(
                c,
                String.join(
                        "\n",
                        "netns-lab.designs { \"kernel-4.18\" { uevent.serialization = lockless } }",
                        "netns-lab.designs { host-6.18 { uevent.serialization = lockless } }",
                        ""));
        o = cli("validate", "load-tests/proc-filter.conf", "--config", c.toString());
        assertEquals(o.stderr(), Main.EXIT_CONFIG, o.exit());
        assertTrue(
                o.stderr(),
                o.stderr()
                        .contains(c + ":1: netns-lab.designs.\"kernel-4.18\": redefines the named design"
                                + " 'kernel-4.18' of reference.conf; give your design its own name"));
        assertTrue(
                o.stderr(),
                o.stderr()
                        .contains(c + ":2: netns-lab.designs.host-6: holds no model key but '18': a design"
                                + " name with a dot must be quoted, e.g. \"host-6.18\" { ... }"));
        // a longer dotted name is given whole; a mistyped group is an unknown key, not a dotted name
        Files.writeString(
                c,
                String.join(
                        "\n",
                        "netns-lab.designs { host-6.18.44-fc { uevent.serialization = lockless } }",
                        "netns-lab.designs { mine { ueventt { serialization = lockless } } }",
                        ""));
        o = cli("validate", "load-tests/proc-filter.conf", "--config", c.toString());
        assertTrue(o.stderr(), o.stderr().contains("e.g. \"host-6.18.44-fc\" { ... }"));
        assertTrue(
                o.stderr(),
                o.stderr().contains(c + ":2: netns-lab.designs.mine.ueventt.serialization: unknown model key"));
        // the file is not resolved on its own: optional overrides and substitutions of the rest stay legal
        Files.writeString(
                c,
                String.join(
                        "\n",
                        "netns-lab.model.costs.uevent.recv = 2us",
                        "netns-lab.model.costs.uevent.recv = ${?NETNS_LAB_TEST_NEVER_SET}",
                        "netns-lab.designs { a { uevent.serialization = lockless } }",
                        "netns-lab.designs.b = ${netns-lab.designs.a} { netns.rtnl.setup-share = 0.3 }",
                        ""));
        o = cli("validate", "load-tests/proc-filter.conf", "--config", c.toString());
        assertEquals(o.stderr(), 0, o.exit());
        // a value of the wrong type says what the key takes
        Files.writeString(c, "netns-lab.designs.w { costs.uevent.wake-listener = fast }\n");
        o = cli("validate", "load-tests/proc-filter.conf", "--config", c.toString());
        assertTrue(
                o.stderr(),
                o.stderr()
                        .contains(c + ":1: netns-lab.designs.w.costs.uevent.wake-listener: must be a duration"
                                + " with its unit in 0..10ms (e.g. 5us, 1.5ms), got \"fast\""));
    }

    /** A scenario that calibrate wrote names its design in the calibrated.conf beside it: the error says to add it. */
    @Test
    public void anUnknownDesignBesideACalibratedConfSaysToAddIt() throws Exception {
        Path dir = tmp.newFolder("cal").toPath();
        Files.writeString(
                dir.resolve("calibrated.conf"), "netns-lab.designs.\"host-x\" { uevent.serialization = lockless }\n");
        Path scenario = dir.resolve("scenario.conf");
        Files.writeString(
                scenario,
                Files.readString(Path.of("load-tests/proc-filter.conf"))
                        .replaceAll("(?m)^designs = .*$", "designs = [\"host-x\"]")
                        .replaceAll("(?m)^baseline = .*$", "")
                        .replaceAll("(?s)derived-ratios = \\[.*?\n\\]\n", "")); // of designs it no longer runs
        Outcome o = cli("validate", scenario.toString());
        assertEquals(o.stderr(), Main.EXIT_CONFIG, o.exit());
        assertTrue(o.stderr(), o.stderr().contains("unknown design 'host-x'; named designs: ["));
        assertTrue(
                o.stderr(),
                o.stderr()
                        .contains("; the calibrated.conf beside this file defines it: add --config "
                                + dir.resolve("calibrated.conf")));
        assertEquals(
                o.stderr(),
                0,
                cli(
                                "validate",
                                scenario.toString(),
                                "--config",
                                dir.resolve("calibrated.conf").toString())
                        .exit());
        // a design the calibrated.conf does not define gets no such hint
        Files.writeString(scenario, Files.readString(scenario).replace("\"host-x\"", "\"host-y\""));
        o = cli("validate", scenario.toString());
        assertTrue(
                o.stderr(),
                o.stderr().contains("unknown design 'host-y'") && !o.stderr().contains("beside this file"));
    }
}
