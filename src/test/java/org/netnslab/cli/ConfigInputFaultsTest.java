package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.cli.CommandLineFaultsTest.Printed;
import org.netnslab.settings.HoconSyntax;
import org.scalatestplus.junit.JUnitSuite;

/**
 * What a new user typed wrong in a scenario, a {@code --config} file, a {@code --set} or an option's value, and
 * what they are told: one line naming the file, line and key (or the option) and what to do, exit 2, no Java class
 * name; and the run's header, which gives the counts the run made.
 */
public class ConfigInputFaultsTest extends JUnitSuite {
    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    static final String UNSHARE = "load-tests/unshare-loop.conf";
    private static final String SEED_RATIOS = "seed-ratios { \"exit-barrier-4.16\" = 1.067 }";

    private static Printed cli(String... args) {
        return CommandLineFaultsTest.cli(args);
    }

    /** @return unshare-loop with its seed-ratios line replaced, written to a temporary file */
    private Path unshareWithSeedRatios(String line) throws Exception {
        String text = Files.readString(Path.of(UNSHARE));
        assertTrue(text.contains(SEED_RATIOS));
        Path f = tmp.getRoot().toPath().resolve("unshare-loop.conf");
        Files.writeString(f, text.replace(SEED_RATIOS, line));
        return f;
    }

    /** @return the line of {@code f} that starts with {@code start}, counted from 1 */
    private static int lineOf(Path f, String start) throws Exception {
        List<String> lines = Files.readAllLines(f);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(start)) {
                return i + 1;
            }
        }
        throw new AssertionError(start + " not in " + f);
    }

    private Path write(String name, String text) throws Exception {
        Path f = tmp.getRoot().toPath().resolve(name);
        Files.writeString(f, text);
        return f;
    }

    /** @return unshare-loop run at {@code --scale 0.01} on one lane into {@code out}, with more options */
    static Printed unshareRun(Path out, String... more) {
        List<String> args = new java.util.ArrayList<>(
                List.of("run", UNSHARE, "--scale", "0.01", "--jobs", "1", "--out", out.toString(), "--no-progress"));
        args.addAll(List.of(more));
        return cli(args.toArray(String[]::new));
    }

    static void assertOneProblem(Printed p, String problem) {
        assertEquals(p.err(), Main.EXIT_CONFIG, p.status());
        assertEquals("netns-lab: 1 configuration problem:\n  " + problem + "\n", p.err());
    }

    @Test
    public void aSeedRatioOfTheBaselineOrOfADesignNotRunIsRefusedByValidateAndRun() throws Exception {
        Path f = unshareWithSeedRatios("seed-ratios { \"net-free-4.16\" = 1.0, owner-exit = 1.1 }");
        int line = lineOf(f, "seed-ratios");
        String expected = "netns-lab: 2 configuration problems:\n  " + f + ":" + line
                + ": seed-ratios.\"net-free-4.16\": 'net-free-4.16' is the baseline: a seed ratio is another"
                + " design's mean over the baseline's, and the baseline is never compared with itself; remove it,"
                + " or set baseline to the design the seed measured it against\n  " + f + ":" + line
                + ": seed-ratios.owner-exit: 'owner-exit' is not one of the designs this scenario runs"
                + " [owner-exit-4.16, net-free-4.16, exit-barrier-4.16, exit-unsafe-4.16, net-free-rwsem], so its"
                + " ratio would never be shown; add it to designs or remove it\n";
        Printed validate = cli("validate", f.toString());
        assertEquals(Main.EXIT_CONFIG, validate.status());
        assertEquals(expected, validate.err());
        Path out = tmp.getRoot().toPath().resolve("out");
        Printed run = cli("run", f.toString(), "--scale", "0.01", "--out", out.toString(), "--no-progress");
        assertEquals(Main.EXIT_CONFIG, run.status());
        assertEquals(expected, run.err());
        assertFalse(Files.exists(out));
    }

    /** A --set that leaves the seed ratio's design out, or makes it the baseline, drops the ratio, as documented. */
    @Test
    public void aSeedRatioThatASetLeavesOutIsDropped() throws Exception {
        Path f = unshareWithSeedRatios(SEED_RATIOS);
        assertEquals(
                0,
                cli("validate", f.toString(), "--set", "designs=[net-free-4.16, owner-exit-4.16]")
                        .status());
        assertEquals(
                0,
                cli("validate", f.toString(), "--set", "baseline=exit-barrier-4.16")
                        .status());
    }

    /** A fault switch a --config file sets that the workload does not take names where it came from. */
    @Test
    public void aFaultSwitchFromAConfigFileSaysItCameFromThere() throws Exception {
        Path cfg = write("faults.conf", "netns-lab.model.faults.proc-connector = 5\n");
        Printed p = cli("validate", "load-tests/proc-filter.conf", "--config", cfg.toString());
        assertEquals(p.err(), 2, p.status());
        assertTrue(
                p.err(),
                p.err()
                        .contains("model.faults.proc-connector: a proc-events run does not apply it (its proc connector"
                                + " runs without a NamespaceSupervisor, whose switches these are; isolation-soak applies"
                                + " faults.proc-connector); it takes none (set as netns-lab.model.faults.proc-connector in a"
                                + " --config file or conf/application.conf)"));
    }

    @Test
    public void aMissingIncludeAFolderIncludedAndACycleAreOneLineEachAtTheInclude() throws Exception {
        Path dir = tmp.getRoot().toPath();
        Files.createDirectory(dir.resolve("folder"));
        Path missing = write("missing.conf", "name = x\ninclude required(\"nope.conf\")\n");
        assertOneProblem(
                cli("validate", missing.toString()),
                missing + ":2: include: included file nope.conf not found (no " + dir.resolve("nope.conf")
                        + "; include required(...) needs it)");
        Path folder = write("with-folder.conf", "include required(\"folder\")\n");
        assertOneProblem(
                cli("validate", UNSHARE, "--config", folder.toString()),
                folder + ":1: include: included folder is a folder (" + dir.resolve("folder")
                        + "): include a HOCON file");
        // a folder named as a file is opened, and fails there
        Files.createDirectory(dir.resolve("adir.conf"));
        Path named = write("with-adir.conf", "name = x\ninclude required(\"adir.conf\")\n");
        assertOneProblem(
                cli("validate", named.toString()),
                named + ":2: include: included adir.conf is a folder (" + dir.resolve("adir.conf")
                        + "): include a HOCON file");
        Path a = write("a.conf", "x = 1\ninclude \"b.conf\"\n");
        write("b.conf", "include \"a.conf\"\n");
        assertOneProblem(
                cli("validate", a.toString()),
                a + ":2: include: a cycle of includes: a.conf -> b.conf -> a.conf (a file that includes itself,"
                        + " directly or through others); remove one of them");
        Path into = write("into.conf", "name = q\ninclude \"a.conf\"\n");
        assertOneProblem(
                cli("validate", into.toString()),
                into + ":2: include: a cycle of includes: a.conf -> b.conf -> a.conf (a file that includes itself,"
                        + " directly or through others); remove one of them");
        assertEquals(Path.of("./x.conf"), HoconSyntax.withFolder(Path.of("x.conf"))); // its includes are found
        assertEquals(Path.of("d/x.conf"), HoconSyntax.withFolder(Path.of("d/x.conf")));
    }

    @Test
    public void aSyntaxErrorInAnIncludedFileIsSaidAtThatFilesLine() throws Exception {
        Path syn1 = write("syn1.conf", "a = 1\nb {\n  c = 2\n}\nd {\n");
        Path inc = write("incsyn.conf", "x = 1\ninclude \"syn1.conf\"\n");
        assertOneProblem(
                cli("validate", UNSHARE, "--config", inc.toString()),
                syn1 + ":5: --config: the '{' opened here is never closed: a '}' is missing (the file ends at line 5)");
        Path syn2 = write("syn2.conf", "injectors = [1\n");
        Path scenario = write("incsyn2.conf", "name = x\ninclude \"syn2.conf\"\n");
        assertOneProblem(
                cli("validate", scenario.toString()),
                syn2 + ":1: the '[' opened here is never closed: a ']' is missing (the file ends at line 1)");
        // Typesafe Config's own words here run to five lines of advice about .properties files
        Path quote = write("quote.conf", "name = x\ndescription = \"an open quote\nseed = 1\n");
        assertOneProblem(cli("validate", quote.toString()), quote + ":2: the '\"' is never closed: a '\"' is missing");
        Path colon = write("colon.conf", "name : : 3\n");
        assertOneProblem(cli("validate", colon.toString()), colon + ":1: Expecting a value but got wrong token: ':'");
        Path bin = tmp.getRoot().toPath().resolve("bin.conf");
        Files.write(bin, new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, '@', '@'});
        Path incBin = write("incbin.conf", "include \"bin.conf\"\n");
        assertOneProblem(
                cli("validate", UNSHARE, "--config", incBin.toString()),
                bin + ": --config: is not a text file (byte 7 is NUL): a scenario or configuration is a HOCON text"
                        + " file");
    }

    @Test
    public void anIncludedFileWithoutAnExtensionIsSaidToExist() throws Exception {
        Path noext = write("noext", "akka.loglevel = INFO\n");
        Path inc = write("incnoext.conf", "include required(file(\"" + noext + "\"))\n");
        assertOneProblem(
                cli("validate", UNSHARE, "--config", inc.toString()),
                inc + ":1: include: included file " + noext + " exists, but an include looks only for " + noext
                        + ".conf, " + noext + ".json and " + noext + ".properties when the name does not end in one"
                        + " of those: rename it, e.g. to noext.conf");
        Path txt = write("part.txt", "akka.loglevel = INFO\n");
        Path incTxt = write("inctxt.conf", "include required(\"part.txt\")\n");
        assertOneProblem(
                cli("validate", UNSHARE, "--config", incTxt.toString()),
                incTxt + ":1: include: included file part.txt exists, but an include looks only for part.txt.conf,"
                        + " part.txt.json and part.txt.properties when the name does not end in one of those: rename"
                        + " it, e.g. to part.conf");
        assertTrue(Files.exists(txt));
    }

    @Test
    public void reportOfABinaryResultJsonSaysItIsNotText() throws Exception {
        Path dir = tmp.newFolder("run").toPath();
        Files.write(dir.resolve("result.json"), new byte[] {'{', (byte) 0xff, (byte) 0xfe, 0x7f});
        Printed p = cli("report", dir.toString());
        assertEquals(Main.EXIT_CONFIG, p.status());
        assertEquals(
                "netns-lab: " + dir.resolve("result.json")
                        + ": is not a text file (byte 1 is not UTF-8), so not the JSON a netns-lab run writes\n",
                p.err());
    }

    @Test
    public void anOptionValueOfTheWrongKindIsOneLineInWords() {
        Printed scale = cli("run", UNSHARE, "--scale", "abc");
        assertEquals(Main.EXIT_CONFIG, scale.status());
        assertEquals(
                "netns-lab: --scale: 'abc' is not a number (netns-lab run --help lists the options)\n", scale.err());
        assertEquals("", scale.out());
        for (String odd : new String[] {"NaN", "nan", "Infinity"}) { // Java reads two of them: as one, not a number
            Printed p = cli("run", UNSHARE, "--scale", odd);
            assertEquals(
                    "netns-lab: --scale: '" + odd + "' is not a number (netns-lab run --help lists the options)\n",
                    p.err());
        }
        assertEquals(
                "netns-lab: --jobs: 'two' is not a whole number (netns-lab run --help lists the options)\n",
                cli("run", UNSHARE, "--jobs", "two").err());
        assertEquals(
                "netns-lab: --repeat: 99999999999 is too large (netns-lab run --help lists the options)\n",
                cli("run", UNSHARE, "--repeat", "99999999999").err());
        assertEquals( // a number past a double's range is one, too large, where Java reads Infinity
                "netns-lab: --scale: 1e400 is too large (netns-lab run --help lists the options)\n",
                cli("run", UNSHARE, "--scale", "1e400").err());
        assertEquals(
                "netns-lab: --timeout: '5s' is not a whole number (netns-lab calibrate --help lists the options)\n",
                cli("calibrate", "--timeout", "5s").err());
    }

    /** A --config substitution of a variable the environment lacks (a TLS password's) says which, in words. */
    @Test
    public void aConfigSubstitutionOfAnUnsetVariableIsNamed() throws Exception {
        Path conf = write(
                "tls.conf",
                "akka.remote.artery.ssl.config-ssl-engine.key-store-password = ${NETNS_LAB_TEST_UNSET_PASSWORD}\n");
        assertOneProblem(
                cli("validate", UNSHARE, "--config", conf.toString()),
                conf + ":1: --config: ${NETNS_LAB_TEST_UNSET_PASSWORD} is neither a key of the configuration nor a"
                        + " variable set in the environment");
    }

    @Test
    public void aLogLevelAkkaDoesNotKnowIsRefusedUpFront() throws Exception {
        Path conf = write("log.conf", "akka {\n  loglevel = BOGUS\n}\n");
        String problem = conf + ":2: akka.loglevel: not one of Akka's log levels OFF, ERROR, WARNING, INFO, DEBUG,"
                + " got \"BOGUS\"";
        assertOneProblem(cli("validate", UNSHARE, "--config", conf.toString()), problem);
        Path out = tmp.getRoot().toPath().resolve("out");
        Printed run = cli(
                "run",
                UNSHARE,
                "--scale",
                "0.01",
                "--config",
                conf.toString(),
                "--out",
                out.toString(),
                "--no-progress");
        assertOneProblem(run, problem);
        assertEquals("", run.out());
        assertFalse(Files.exists(out));
        Path lower = write("lower.conf", "akka.loglevel = warning\n");
        assertEquals(0, cli("validate", UNSHARE, "--config", lower.toString()).status());
    }

    @Test
    public void setMessagesSayWhatIsWrongWithTheArgumentOnOneLine() {
        assertOneProblem(
                cli("validate", UNSHARE, "--set", "workload={"),
                "--set workload={: workload: the '{' is never closed: a '}' is missing");
        assertOneProblem(
                cli("validate", UNSHARE, "--set", "x=5 } y=6"),
                "--set x=5 } y=6: x: '}' closes nothing: a '{' is missing before it, or this one is extra");
        assertOneProblem(
                cli("validate", UNSHARE, "--set", "workload.workers=${HOME}"),
                "--set workload.workers=${HOME}: workload.workers: must be an integer in 1..1000000000, got \""
                        + System.getenv("HOME") + "\" (from the environment variable HOME)");
        assertOneProblem(
                cli("validate", UNSHARE, "--set", "workload.workers=${NETNS_LAB_SURELY_UNSET}"),
                "--set workload.workers=${NETNS_LAB_SURELY_UNSET}: ${NETNS_LAB_SURELY_UNSET} is neither a key of"
                        + " the scenario nor an environment variable");
        assertOneProblem(
                cli("validate", UNSHARE, "--set", "workload.workers=[1,2]"),
                "--set workload.workers=[1,2]: workload.workers: must be an integer in 1..1000000000, got [1,2]");
        String name = "a".repeat(100_000);
        assertOneProblem(
                cli("validate", UNSHARE, "--set", name + "=1"),
                "--set " + "a".repeat(60) + "... (100002 characters): " + "a".repeat(60)
                        + "... (100000 characters): unknown key; expected one of [baseline, custom-designs,"
                        + " derived-ratios, description, designs, execution, machine, min-scale, model, name, random-seed,"
                        + " repeat, seed, seed-ratios, sensitivity, workload]");
    }

    @Test
    public void theHeaderAtAScaleGivesTheCountsRunAndTheDescriptionAsOfScaleOne() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("out");
        Printed run = unshareRun(out);
        assertEquals(run.err(), 0, run.status());
        String header = "\nscenario unshare-loop (scale 0.01): 40 workers x 1 iteration (after 1 warm-up)\n"
                + "  at scale 1: 40 parallel loops of 100 unshare -n: sock_inuse freed by its owner's exit, in"
                + " net_free, after a per-exit RCU barrier, or unsafely\nseed: ";
        assertTrue(run.out(), run.out().startsWith(header));
        assertTrue(cli("report", out.toString()).out().startsWith(header));
    }

    /** At scale 1 with --set, the counts run differ from the description's too: the header gives both. */
    @Test
    public void theHeaderWithOverridesGivesTheCountsRunAndTheFilesDescription() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("set");
        Printed run = unshareRun(out, "--set", "workload.workers=3");
        assertEquals(run.err(), 0, run.status());
        String header = "\nscenario unshare-loop (scale 0.01): 3 workers x 1 iteration (after 1 warm-up)\n"
                + "  as the file describes it at scale 1: 40 parallel loops of 100 unshare -n: sock_inuse freed by";
        assertTrue(run.out(), run.out().startsWith(header));
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(
                html.contains("This run, at scale 0.01 with its overrides (--set, --sweep): 3 workers x 1 iteration"));
        assertTrue(html.contains("<p>As the file describes it at scale 1: 40 parallel loops of 100 unshare -n"));
    }

    /**
     * README's first command: its verdict as README shows it, the arrival-bound line giving the designs' throughputs
     * (within 0.1% of each other) as the range they span rather than one design's figure.
     */
    @Test
    public void readmesFirstCommandGivesReadmesVerdict() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("readme");
        Printed run = cli(
                "run",
                "load-tests/uevent-tc1-userns.conf",
                "--scale",
                "0.01",
                "--out",
                out.toString(),
                "--no-progress");
        assertEquals(run.err(), 0, run.status());
        assertTrue(
                run.out(),
                run.out()
                        .contains("\n  per-netns-2018 cuts the mean uevent.transaction 18% against"
                                + " kernel-4.18 (52.0 vs 63.8 us, lower is better); ratio 0.815, one run; seed: 18% (0.82): AGREES"
                                + " within +-0.05.\n"));
        assertTrue(
                run.out(),
                run.out()
                        .contains("\n  Throughput is the same for every design (19,058 to 19,062"
                                + " transactions/s): the load is arrival-bound"));
        assertTrue(run.out(), run.out().contains("\n  throughput 19,058 transactions/s (arrival-bound"));
    }

    @Test
    public void theLanesLineSaysWhetherTheyAreTheDefault() {
        assertEquals("the default: the available processors, 2; --jobs N sets it", Jobs.from(null, 2, 2));
        assertEquals(
                "the default: the available processors, 8, lowered to what the heap holds; --jobs N sets it",
                Jobs.from(null, 3, 8));
        assertEquals("--jobs 4", Jobs.from(4, 4, 2));
        assertEquals("--jobs 4, lowered to what the heap holds", Jobs.from(4, 2, 2));
    }

    /** An empty path names the current folder to Java: it is said as an empty path, not as a folder. */
    @Test
    public void anEmptyPathIsSaidAsOne() {
        Printed v = cli("validate", "");
        assertEquals(v.err(), 2, v.status());
        assertEquals(
                "netns-lab: 1 configuration problem:\n  '': an empty path, not a scenario file (e.g."
                        + " load-tests/unshare-loop.conf)\n",
                v.err());
        Printed l = cli("list", "--dir", "");
        assertEquals(l.err(), 2, l.status());
        assertEquals("netns-lab: --dir: an empty path; give a folder of scenario files, e.g. load-tests\n", l.err());
    }

    /** list says each INVALID file and then exits 2, so that a script can tell. */
    @Test
    public void listExitsTwoWhenAScenarioIsInvalid() throws Exception {
        java.nio.file.Path dir = tmp.newFolder("list").toPath();
        java.nio.file.Files.writeString(dir.resolve("bad.conf"), "name = x\nworkload { type = nope }\n");
        Printed l = cli("list", "--dir", dir.toString());
        assertEquals(l.err(), 2, l.status());
        assertTrue(l.out(), l.out().contains("bad.conf\n    INVALID: "));
        assertEquals("netns-lab: 1 of 1 scenario(s) in " + dir + " INVALID (validate FILE says why)\n", l.err());
        Printed ok = cli("list");
        assertEquals(ok.err(), 0, ok.status());
    }

    /** @return {@code dir/name}, written as {@code includes} then load-tests/unshare-loop.conf, a valid scenario */
    private static java.nio.file.Path withIncludes(java.nio.file.Path dir, String name, String includes)
            throws java.io.IOException {
        return java.nio.file.Files.writeString(
                dir.resolve(name),
                includes + java.nio.file.Files.readString(java.nio.file.Path.of("load-tests/unshare-loop.conf")));
    }

    /** A fragment that other files of the folder include is listed as such, not as an INVALID scenario. */
    @Test
    public void listNamesAnIncludedFragmentByItsIncluders() throws Exception {
        java.nio.file.Path dir = tmp.newFolder("fragments").toPath();
        java.nio.file.Path common =
                java.nio.file.Files.writeString(dir.resolve("common.conf"), "machine { cpus = 2 }\n");
        java.nio.file.Path mine = withIncludes(dir, "mine.conf", "include required(\"common.conf\")\n");
        Printed l = cli("list", "--dir", dir.toString());
        assertEquals(l.err(), 0, l.status());
        assertTrue(l.out(), l.out().startsWith(common + "\n    included by mine.conf\n" + mine + "\n    name: "));
    }

    /** Two files that include each other are INVALID in the list, as validate says of either, not fragments. */
    @Test
    public void listCallsAnIncludeCycleInvalid() throws Exception {
        java.nio.file.Path dir = tmp.newFolder("cycle").toPath();
        java.nio.file.Path a = java.nio.file.Files.writeString(dir.resolve("cyc-a.conf"), "include \"cyc-b.conf\"\n");
        java.nio.file.Path b = java.nio.file.Files.writeString(dir.resolve("cyc-b.conf"), "include \"cyc-a.conf\"\n");
        Printed l = cli("list", "--dir", dir.toString());
        assertEquals(l.err(), 2, l.status());
        assertEquals(
                a + "\n    INVALID: a cycle of includes: cyc-a.conf -> cyc-b.conf -> cyc-a.conf\n" + b
                        + "\n    INVALID: a cycle of includes: cyc-b.conf -> cyc-a.conf -> cyc-b.conf\n",
                l.out());
        assertEquals("netns-lab: 2 of 2 scenario(s) in " + dir + " INVALID (validate FILE says why)\n", l.err());
    }

    /** A plain include that finds no file is warned of with its line: HOCON skips it and the settings it held. */
    @Test
    public void aPlainIncludeThatFindsNothingIsWarnedOf() throws Exception {
        java.nio.file.Path dir = tmp.newFolder("plain").toPath();
        java.nio.file.Files.writeString(dir.resolve("notes"), "machine { cpus = 2 }\n");
        java.nio.file.Files.writeString(dir.resolve("there.conf"), "machine { cpus = 2 }\n");
        java.nio.file.Path mine =
                withIncludes(dir, "mine.conf", "include \"nothere.conf\"\ninclude \"notes\"\ninclude \"there.conf\"\n");
        Printed v = cli("validate", mine.toString());
        assertEquals(v.err(), 0, v.status());
        assertTrue(
                v.err(),
                v.err()
                        .startsWith(
                                "netns-lab: warning: " + mine + ":1: include \"nothere.conf\" finds no file, so HOCON"
                                        + " skips it and the settings it was to add; include required(\"nothere.conf\") makes that an"
                                        + " error\nnetns-lab: warning: " + mine
                                        + ":2: include \"notes\" finds no file (notes.conf,"
                                        + " .json or .properties), so HOCON skips it and the settings it was to add; include"
                                        + " required(\"notes\") makes that an error\n"));
        org.junit.Assert.assertFalse(v.err(), v.err().contains("include \"there.conf\""));
        // one level down, and the include as written
        java.nio.file.Files.writeString(dir.resolve("part.conf"), "include file(\"nothere2.conf\")\n");
        java.nio.file.Path nested = withIncludes(dir, "nested.conf", "include \"part.conf\"\n");
        Printed n = cli("validate", nested.toString());
        assertEquals(n.err(), 0, n.status());
        assertTrue(
                n.err(),
                n.err()
                        .startsWith("netns-lab: warning: " + dir.resolve("part.conf")
                                + ":1: include file(\"nothere2.conf\")" + " finds no file, so HOCON skips it"));
    }

    /**
     * Every form of a plain include that finds nothing is warned of: an absolute or sub-folder path, a file: url and a
     * classpath resource (another url scheme is HOCON's to fetch, and is not checked); ones that find theirs are not.
     */
    @Test
    public void everyFormOfAnIncludeThatFindsNothingIsWarnedOf() throws Exception {
        java.nio.file.Path dir = tmp.newFolder("forms").toPath();
        java.nio.file.Path gone = dir.resolve("gone.conf");
        java.nio.file.Files.createDirectories(dir.resolve("sub"));
        java.nio.file.Files.writeString(dir.resolve("sub").resolve("here.conf"), "machine { cpus = 2 }\n");
        java.nio.file.Path mine = withIncludes(
                dir,
                "mine.conf",
                "include file(\"" + gone + "\")\ninclude url(\"" + gone.toUri()
                        + "\")\ninclude classpath(\"nowhere.conf\")"
                        + "\ninclude \"sub/gone.conf\"\ninclude \"sub/here.conf\"\ninclude classpath(\"machine-fragment.conf\")\n"
                        + "include \"machine-fragment.conf\"\n"); // a plain one that misses beside it: the classpath
        Printed v = cli("validate", mine.toString());
        assertEquals(v.err(), 0, v.status());
        String tail = ", so HOCON skips it and the settings it was to add; include required(";
        assertTrue(v.err(), v.err().contains(mine + ":1: include file(\"" + gone + "\") finds no file" + tail));
        assertTrue(v.err(), v.err().contains(mine + ":2: include url(\"" + gone.toUri() + "\") finds no file" + tail));
        assertTrue(
                v.err(),
                v.err()
                        .contains(mine + ":3: include classpath(\"nowhere.conf\") finds no resource" + tail
                                + "classpath(\"nowhere.conf\")) makes that an error"));
        assertTrue(v.err(), v.err().contains(mine + ":4: include \"sub/gone.conf\" finds no file" + tail));
        org.junit.Assert.assertFalse(v.err(), v.err().contains(":5:"));
        org.junit.Assert.assertFalse(v.err(), v.err().contains(":6:"));
        org.junit.Assert.assertFalse(v.err(), v.err().contains(":7:"));
        // file("sub/here.conf") is read from the working directory (as java.io.File reads it), not beside the file:
        // HOCON skips it here, where the working directory is the project's
        java.nio.file.Path cwd = withIncludes(dir, "cwd.conf", "include file(\"sub/here.conf\")\n");
        Printed c = cli("validate", cwd.toString());
        assertEquals(c.err(), 0, c.status());
        assertTrue(c.err(), c.err().contains(cwd + ":1: include file(\"sub/here.conf\") finds no file" + tail));
    }

    /** A tool setting given to a scenario is sent to --config; a misspelt model key is given its nearest known one. */
    @Test
    public void aToolSettingOrAMisspeltModelKeyIsPointedAtWhatWasMeant() {
        Printed t = cli("validate", "load-tests/unshare-loop.conf", "--set", "netns-lab.run.ask-timeout=5s");
        assertEquals(2, t.status());
        assertTrue(
                t.err(),
                t.err()
                        .contains(
                                "--set netns-lab.run.ask-timeout=5s: netns-lab: a setting of the tool, not of a"
                                        + " scenario: give it in a --config FILE (or as -Dnetns-lab... in NETNS_LAB_JAVA_OPTS)"));
        Printed prefixed =
                cli("validate", "load-tests/unshare-loop.conf", "--set", "netns-lab.model.uevent.listener-rcvbuf=1");
        assertEquals(2, prefixed.status());
        assertTrue(
                prefixed.err(), prefixed.err().contains("; for this scenario's own model, drop the netns-lab. prefix"));
        Printed m = cli("validate", "load-tests/unshare-loop.conf", "--set", "model.uevent.listner-rcvbuf=1000");
        assertEquals(2, m.status());
        assertTrue(
                m.err(),
                m.err()
                        .contains("model.uevent.listner-rcvbuf: unknown model key; did you mean"
                                + " model.uevent.listener-rcvbuf? (netns-lab.model in reference.conf lists them)"));
        Printed far = cli("validate", "load-tests/unshare-loop.conf", "--set", "model.uevent.zzzzzzzz=1");
        assertEquals(2, far.status());
        assertTrue(
                far.err(),
                far.err()
                        .contains("model.uevent.zzzzzzzz: unknown model key (netns-lab.model in reference.conf"
                                + " lists them)"));
    }

    /** A file's problems are listed by line, whatever order the checks met them in; one with no line first. */
    @Test
    public void problemsAreListedByLine() throws Exception {
        java.nio.file.Path f = tmp.newFile("order.conf").toPath();
        java.nio.file.Files.writeString(
                f,
                "name = order\ndescription = \"d\"\ndesigns = [nope-design]\nseed = \"s\"\nworkload {\n"
                        + "  type = uevent-injection\n  netns { userns-owned = 10 }\n  injections-per-netns = -5\n"
                        + "  injectorz = 3\n}\nbogus = 1\n");
        Printed v = cli("validate", f.toString());
        assertEquals(2, v.status());
        java.util.List<String> at = v.err()
                .lines()
                .skip(1)
                .map(l ->
                        l.trim().replaceFirst("^" + java.util.regex.Pattern.quote(f.toString()) + "(:\\d+)?: ", "$1 "))
                .map(l -> l.substring(0, l.indexOf(':', 1)))
                .toList();
        assertEquals(
                java.util.List.of(
                        " workload.injectors",
                        ":3 designs",
                        ":8 workload.injections-per-netns",
                        ":9 workload.injectorz",
                        ":11 bogus"),
                at);
    }

    /** A default output folder that cannot be made names the setting its parent came from, and where it was set. */
    @Test
    public void anOutDirThatCannotBeMadeNamesItsSetting() throws Exception {
        java.nio.file.Path file = tmp.newFile("in-the-way").toPath();
        java.nio.file.Path conf = tmp.newFile("out-dir.conf").toPath();
        java.nio.file.Files.writeString(conf, "netns-lab.run.out-dir = \"" + file.resolve("sub") + "\"\n");
        Printed p = cli(
                "run", "load-tests/unshare-loop.conf", "--scale", "0.01", "--config", conf.toString(), "--no-progress");
        assertEquals(p.err(), 2, p.status());
        assertTrue(
                p.err(),
                p.err()
                        .contains("(its parent is netns-lab.run.out-dir = " + file.resolve("sub") + ", from " + conf
                                + ": 1; or give --out)"));
    }
}
