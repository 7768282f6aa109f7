package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;
import org.netnslab.scenario.HeapEstimate;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.ScenarioLoader;
import org.scalatestplus.junit.JUnitSuite;

/** Command-line faults: -V, --help's wrapping and defaults, unknown commands, --sweep, heap figures, stdout. */
public class CommandLineFaultsTest extends JUnitSuite {
    /** What a command printed and returned. */
    record Printed(int status, String out, String err) {}

    static synchronized Printed cli(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
        try {
            int status = Main.execute(args);
            return new Printed(status, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    public void versionIsTheProjectsVersion() throws Exception {
        Matcher m = Pattern.compile("<artifactId>netns-lab</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(m.find());
        assertEquals("netns-lab " + m.group(1) + "\n", cli("-V").out());
        assertEquals("netns-lab " + m.group(1) + "\n", cli("run", "-V").out());
        assertTrue(m.group(1), m.group(1).endsWith("-SNAPSHOT"));
    }

    @Test
    public void helpBreaksLinesAtSpacesOnlyAndShowsTheOutFolderAsAPath() {
        String top = cli("--help").out();
        String run = cli("run", "--help").out();
        for (String help : List.of(top, run)) {
            String[] lines = help.split("\n");
            for (int i = 0; i < lines.length; i++) {
                assertTrue(lines[i], lines[i].length() <= HelpText.WIDTH);
                assertFalse(
                        "a dotted word broken: " + lines[i],
                        i + 1 < lines.length && lines[i].matches(".*\\w\\.$") && lines[i + 1].matches(" {3,}[a-z].*"));
            }
        }
        assertTrue(top, top.contains("report.html"));
        assertTrue(run, run.contains("machine.cpus=1,2,4,8"));
        assertTrue(
                run,
                run.replaceAll("\\s+", " ")
                        .contains("(default target/netns-lab/<scenario>-<timestamp>, the first"
                                + " part from netns-lab.run.out-dir)"));
        assertTrue(run, run.startsWith("Usage: netns-lab run [-hV]"));
    }

    /** A misspelt, missing or repeated option is one line naming it and where the options are, and a close match. */
    @Test
    public void aBadOptionIsOneLineWithTheHelpToRead() {
        Printed p = cli("run", "load-tests/unshare-loop.conf", "--scael", "2");
        assertEquals(2, p.status());
        assertEquals(
                "netns-lab: unknown option '--scael' (netns-lab run --help lists the options)\n"
                        + "Possible solutions: --scale\n",
                p.err());
        p = cli("run", "load-tests/unshare-loop.conf", "extra.conf");
        assertEquals(2, p.status());
        assertEquals(
                "netns-lab: 'extra.conf' is one argument more than netns-lab run takes (netns-lab run --help lists the"
                        + " options)\n",
                p.err());
        p = cli("validate");
        assertEquals(2, p.status());
        assertEquals(
                "netns-lab: Missing required parameter: 'FILE' (netns-lab validate --help lists the options)\n",
                p.err());
        p = cli("run", "x.conf", "--scale", "1", "--scale", "2");
        assertEquals(
                "netns-lab: option '--scale' (F) should be specified only once (netns-lab run --help lists the options)\n",
                p.err());
    }

    @Test
    public void anUnknownCommandListsTheCommandsAndSuggestsOnlyACloseOne() {
        Printed p = cli("foo", "x");
        assertEquals(Main.EXIT_CONFIG, p.status());
        assertEquals(
                "netns-lab: unknown command 'foo'. The commands are run, list, validate, report, calibrate, worker (netns-lab --help).\n",
                p.err());
        assertFalse(p.err(), p.err().contains("did you mean"));
        assertTrue(cli("valiadte", "x").err(), cli("valiadte", "x").err().contains("did you mean 'validate'?"));
        assertFalse(cli("start", "x").err().contains("did you mean"));
        Printed help = cli("compare", "--help"); // not the top-level help with 0, as if compare were a command
        assertEquals(Main.EXIT_CONFIG, help.status());
        assertEquals("", help.out());
        assertTrue(help.err(), help.err().startsWith("netns-lab: unknown command 'compare'."));
        // an unknown word before a command is named, not skipped for the command's own complaint
        Printed before = cli("foo", "run");
        assertEquals(Main.EXIT_CONFIG, before.status());
        assertTrue(before.err(), before.err().startsWith("netns-lab: unknown command 'foo'."));
        // help [command], as git takes it: the --help of the whole or of the command; an unknown one is named
        assertEquals(cli("--help").out(), cli("help").out());
        assertEquals(0, cli("help").status());
        assertEquals(cli("--help").out(), cli("help", "help").out());
        assertEquals(cli("--help").out(), cli("help", "--help").out());
        Printed runHelp = cli("help", "run");
        assertEquals(0, runHelp.status());
        assertEquals(cli("run", "--help").out(), runHelp.out());
        assertTrue(runHelp.out(), runHelp.out().contains("--scale"));
        assertTrue(cli("help", "fo").err(), cli("help", "fo").err().startsWith("netns-lab: unknown command 'fo'."));
        Printed empty = cli("report", "");
        assertEquals(Main.EXIT_CONFIG, empty.status());
        assertEquals("netns-lab: report: empty folder name; name the output folder of a run\n", empty.err());
    }

    /** A key given twice by --set: the last wins, as in HOCON, and the user hears which one was overridden. */
    @Test
    public void aKeySetTwiceSaysTheLastWins() {
        Printed p = cli(
                "validate",
                "load-tests/unshare-loop.conf",
                "--set",
                "machine.cpus=2",
                "--set",
                "machine.cpus=3",
                "--set",
                "machine.jitter=0.2");
        assertEquals(p.err(), 0, p.status());
        assertEquals(
                "netns-lab: warning: --set machine.cpus=3 overrides the earlier --set machine.cpus=2 (the last one"
                        + " given wins)\n",
                p.err());
    }

    /**
     * An object given by --set merges with the scenario's (HOCON): the user hears which keys stay, and how to change
     * one; an object that names every key, or one after a null, merges nothing away.
     */
    @Test
    public void anObjectSetOverAnObjectSaysWhichKeysStay() {
        Printed p = cli("validate", "load-tests/uevent-tc1-userns.conf", "--set", "seed-ratios={}");
        assertEquals(p.err(), 0, p.status());
        assertEquals(
                "netns-lab: warning: --set seed-ratios={} merges with seed-ratios as the scenario has it (HOCON merges"
                        + " objects), so per-netns-2018 stays: give a key a --set of its own to change it (e.g. --set"
                        + " seed-ratios.per-netns-2018=...; null removes a key the scenario adds, such as a seed ratio)\n",
                p.err());
        Printed replaced = cli(
                "validate",
                "load-tests/uevent-tc1-userns.conf",
                "--set",
                "seed-ratios=null",
                "--set",
                "seed-ratios={}");
        assertEquals(replaced.err(), "", replaced.err());
        Printed named =
                cli("validate", "load-tests/uevent-tc1-userns.conf", "--set", "seed-ratios={per-netns-2018=0.9}");
        assertEquals(named.err(), "", named.err());
    }

    /** A --set of designs that leaves the file's baseline out says to set the baseline too. */
    @Test
    public void designsSetWithoutTheBaselineSaysToSetItToo() {
        Printed p = cli("validate", "load-tests/unshare-loop.conf", "--set", "designs=[kernel-6.9]");
        assertEquals(p.err(), Main.EXIT_CONFIG, p.status());
        assertTrue(
                p.err(),
                p.err()
                        .contains(
                                "baseline: 'net-free-4.16' is not one of the scenario's designs [kernel-6.9] (--set designs"
                                        + " changed them: give --set baseline=kernel-6.9 too)"));
    }

    /** HOCON's += appends to a list from the command line too; one that names no key is refused as a --set is. */
    @Test
    public void aPlusEqualsSetAppendsToAList() {
        Printed p = cli("validate", "load-tests/unshare-loop.conf", "--set", "designs+=kernel-6.9");
        assertEquals(p.err(), 0, p.status());
        assertTrue(
                p.out(),
                p.out()
                        .contains("6 design(s) [owner-exit-4.16, net-free-4.16, exit-barrier-4.16, exit-unsafe-4.16,"
                                + " net-free-rwsem, kernel-6.9]"));
        // appended to a list a --set gave: the designs are the --set's (a seed ratio of another is no fault), and
        // nothing was overridden
        Printed both = cli(
                "validate",
                "load-tests/uevent-tc1-userns.conf",
                "--set",
                "designs=[kernel-4.18]",
                "--set",
                "designs+=kernel-6.9");
        assertEquals(both.err(), 0, both.status());
        assertEquals("", both.err());
        Printed none = cli("validate", "load-tests/unshare-loop.conf", "--set", "+=x");
        assertEquals(none.err(), Main.EXIT_CONFIG, none.status());
        assertTrue(none.err(), none.err().contains("--set +=x: expected path=value, e.g. --set machine.cpus=2"));
    }

    @Test
    public void aSweepRefusedInLiveModeNamesTheSweepAsTyped() {
        Printed p =
                cli("run", "load-tests/unshare-loop.conf", "--set", "execution=live", "--sweep", "machine.cpus=1,2");
        assertEquals(Main.EXIT_CONFIG, p.status());
        assertTrue(
                p.err(),
                p.err()
                        .contains("--sweep machine.cpus=1,2: machine.cpus: a CPU sweep (a list of counts) needs"
                                + " execution = virtual"));
        assertFalse(p.err(), p.err().contains("--set machine.cpus"));
        // nor a warning that machine.cpus has no effect, beside the refusal that says why
        assertFalse(p.err(), p.err().contains("machine.cpus has no effect"));
        Printed huge = cli("run", "load-tests/unshare-loop.conf", "--sweep", "machine.cpus=1,99999999999");
        assertEquals(Main.EXIT_CONFIG, huge.status());
        assertTrue(huge.err(), huge.err().contains("got '99999999999' (out of range)"));
        Printed file = cli("run", "load-tests/isolation-soak.conf", "--sweep", "machine.cpus=2,4");
        assertEquals(Main.EXIT_CONFIG, file.status());
        assertFalse(file.err(), file.err().contains("has no effect"));
    }

    /** validate takes a run's --sweep, --repeat, --sensitivity and --jobs, and refuses what run would refuse. */
    @Test
    public void validateChecksTheOptionsOfARunsLine() throws Exception {
        Printed ok = cli(
                "validate",
                "load-tests/uevent-tc1-userns.conf",
                "--sweep",
                "machine.cpus=2,4",
                "--repeat",
                "3",
                "--jobs",
                "2");
        assertEquals(ok.err(), 0, ok.status());
        assertTrue(ok.out(), ok.out().contains("; 3 replicates; at [2, 4] CPUs; 18 design runs; heap estimate "));
        Printed twice = cli("validate", "load-tests/uevent-tc1-userns.conf", "--sweep", "machine.cpus=2,2");
        assertEquals(Main.EXIT_CONFIG, twice.status());
        assertEquals("netns-lab: --sweep machine.cpus: 2 is repeated\n", twice.err());
        Printed jobs = cli("validate", "load-tests/uevent-tc1-userns.conf", "--jobs", "0");
        assertEquals(Main.EXIT_CONFIG, jobs.status());
        assertEquals("netns-lab: --jobs: must be in 1..1024, got 0\n", jobs.err());
        Printed live = cli("validate", "load-tests/isolation-soak.conf", "--sensitivity", "4");
        assertEquals(Main.EXIT_CONFIG, live.status());
        assertTrue(live.err(), live.err().contains("needs execution = virtual"));
        // the cluster's settings, as run checks them before it starts anything
        Printed banana =
                cli("validate", "load-tests/unshare-loop.conf", "--set", "execution=virtual", "--cluster", "banana");
        assertEquals(banana.err(), Main.EXIT_CONFIG, banana.status());
        assertEquals("netns-lab: --cluster: expected HOST:PORT (e.g. 127.0.0.1:2552), got 'banana'\n", banana.err());
        Printed far = cli("validate", "load-tests/unshare-loop.conf", "--cluster", "10.9.9.9:2552");
        assertEquals(far.err(), Main.EXIT_CONFIG, far.status());
        assertTrue(far.err(), far.err().startsWith("netns-lab: --cluster 10.9.9.9:2552: not a loopback address"));
        assertEquals(
                0,
                cli("validate", "load-tests/unshare-loop.conf", "--cluster", "127.0.0.1:2552")
                        .status());
        // what Akka would refuse as it starts, with no reason said: refused here, naming the address or key
        assertTrue(cli("validate", "load-tests/unshare-loop.conf", "--cluster", "::1:2552")
                .err()
                .contains("--cluster ::1:2552: an IPv6 address; the cluster listens at an IPv4 address or a host"));
        assertTrue(cli("validate", "load-tests/unshare-loop.conf", "--cluster", "127.1:2552")
                .err()
                .contains("--cluster 127.1:2552: write the IPv4 address in full, four numbers"));
        assertEquals(
                "netns-lab: --cluster: expected HOST:PORT (e.g. 127.0.0.1:2552), got '127.0.0.1:2552:1' (one colon too"
                        + " many)\n",
                cli("validate", "load-tests/unshare-loop.conf", "--cluster", "127.0.0.1:2552:1")
                        .err());
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Printed inUse =
                    cli("validate", "load-tests/unshare-loop.conf", "--cluster", "127.0.0.1:" + taken.getLocalPort());
            assertEquals(inUse.err(), Main.EXIT_CONFIG, inUse.status());
            assertTrue(inUse.err(), inUse.err().contains(": port " + taken.getLocalPort() + " is already in use on"));
        }
        assertEquals( // pasted from the coordinator's banner
                "netns-lab: --cluster akka://netns-lab-cluster@127.0.0.1:2552: give the HOST:PORT alone, e.g."
                        + " 127.0.0.1:2552\n",
                cli("validate", "load-tests/unshare-loop.conf", "--cluster", "akka://netns-lab-cluster@127.0.0.1:2552")
                        .err());
        assertEquals(
                "netns-lab: --cluster tcp://127.0.0.1:2552/x: give the HOST:PORT alone, e.g. 127.0.0.1:2552\n",
                cli("validate", "load-tests/unshare-loop.conf", "--cluster", "tcp://127.0.0.1:2552/x")
                        .err());
        for (String[] key : new String[][] {
            {"akka.remote.artery.transport = aeron-udp", "akka.remote.artery.transport: the cluster runs on"},
            {"netns-lab.cluster.wait-for-workers = 300d", "netns-lab.cluster.wait-for-workers: must be 0 or more and"}
        }) {
            java.nio.file.Path conf = java.nio.file.Files.createTempFile("cluster", ".conf");
            java.nio.file.Files.writeString(conf, key[0] + "\n");
            Printed p = cli(
                    "validate",
                    "load-tests/unshare-loop.conf",
                    "--cluster",
                    "127.0.0.1:2552",
                    "--config",
                    conf.toString());
            java.nio.file.Files.delete(conf);
            assertEquals(p.err(), Main.EXIT_CONFIG, p.status());
            assertTrue(p.err(), p.err().startsWith("netns-lab: " + key[1]));
        }
    }

    /** list --dir names a missing folder as missing, a file as not a folder. */
    @Test
    public void listOfAMissingFolderSaysItIsMissing() throws Exception {
        Printed missing = cli("list", "--dir", "/nonexistent-netns-lab-folder");
        assertEquals(missing.err(), 2, missing.status());
        assertTrue(missing.err(), missing.err().contains("--dir /nonexistent-netns-lab-folder: no such folder"));
        Printed file = cli("list", "--dir", "README.md");
        assertTrue(file.err(), file.err().contains("--dir README.md: not a folder"));
    }

    /** list prints a multi-line description and seed on one line each, an ESC escaped, as run's header does. */
    @Test
    public void listPrintsAMultiLineDescriptionOnOneLine() throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory("netns-lab-list");
        String text = java.nio.file.Files.readString(Path.of("load-tests/unshare-loop.conf"))
                .replaceFirst("(?m)^description = .*$", "description = \"\"\"two\n    lines\u001b[31m\"\"\"")
                .replaceFirst("(?m)^seed = .*$", "seed = \"\"\"a\nb\"\"\"");
        java.nio.file.Files.writeString(dir.resolve("m.conf"), text);
        Printed p = cli("list", "--dir", dir.toString());
        java.nio.file.Files.delete(dir.resolve("m.conf"));
        java.nio.file.Files.delete(dir);
        assertEquals(p.err(), 0, p.status());
        assertTrue(p.out(), p.out().contains("    seed: a b\n    two lines\\x1b[31m\n"));
    }

    /** A soak repeats a request that got EAGAIN, so a netns-actor fault on every request would never let it end. */
    @Test
    public void aSoakRefusesAFaultOnEveryUeventRequest() {
        Printed p = cli("validate", "load-tests/isolation-soak.conf", "--set", "model.faults.netns-actor=1");
        assertEquals(p.err(), 2, p.status());
        assertTrue(
                p.err(),
                p.err()
                        .contains("model.faults.netns-actor: an isolation-soak run would never end with it at 1: every"
                                + " uevent request fails with EAGAIN and its sender repeats it; use 2 or more"));
        assertEquals(
                0,
                cli("validate", "load-tests/isolation-soak.conf", "--set", "model.faults.netns-actor=2")
                        .status());
    }

    /** A baseline that never records the compared measure is warned of: no design would be compared with it. */
    @Test
    public void aBaselineWithoutTheComparedMeasureIsWarnedOf() {
        Printed p = cli("validate", "load-tests/proc-filter.conf", "--set", "baseline=pidfd");
        assertEquals(p.err(), 0, p.status());
        assertTrue(
                p.err(),
                p.err()
                        .contains(
                                "netns-lab: warning: the baseline 'pidfd' records no proc.event (its proc-monitor.kind"
                                        + " is pidfd, which subscribes to no proc connector), so no design is compared with it on that"
                                        + " measure"));
        Printed fine = cli("validate", "load-tests/proc-filter.conf");
        assertFalse(fine.err(), fine.err().contains("warning"));
        // a baseline that is no design is an error alone: no warning about the seed ratios over the file's
        Printed nope = cli("validate", "load-tests/uevent-tc1-userns.conf", "--set", "baseline=nope");
        assertEquals(nope.err(), 2, nope.status());
        assertFalse(nope.err(), nope.err().contains("warning"));
    }

    /** A model key every design run (or some) sets itself is said on stderr, with the designs and their values. */
    @Test
    public void aModelKeyTheDesignsSetThemselvesIsWarnedOf() {
        Printed all =
                cli("validate", "load-tests/uevent-tc1-userns.conf", "--set", "model.uevent.serialization=lockless");
        assertEquals(all.err(), 0, all.status());
        assertTrue(
                all.err(),
                all.err()
                        .contains("netns-lab: warning: model.uevent.serialization has no effect: every design run sets"
                                + " its own (kernel-4.18: global-owner, per-netns-2018: per-netns-owner, kernel-6.9:"
                                + " lockless); a custom design (custom-designs) runs another value"));
        Printed some = cli(
                "validate",
                "load-tests/uevent-tc1-userns.conf",
                "--set",
                "designs=[kernel-4.18, mine]",
                "--set",
                "custom-designs.mine.uevent.listener-rcvbuf=4096",
                "--set",
                "model.uevent.seqnum-scope=per-netns");
        assertEquals(some.err(), 0, some.status());
        assertTrue(
                some.err(),
                some.err()
                        .contains("netns-lab: warning: model.uevent.seqnum-scope does not reach kernel-4.18: global,"
                                + " which sets its own"));
        Printed none =
                cli("validate", "load-tests/uevent-tc1-userns.conf", "--set", "model.uevent.listener-rcvbuf=4096");
        assertFalse(none.err(), none.err().contains("warning"));
        // a value that is refused gets its error alone, not a warning that it would have had no effect
        Printed bad = cli("validate", "load-tests/uevent-tc1-userns.conf", "--set", "model.uevent.serialization=bogus");
        assertEquals(bad.err(), 2, bad.status());
        assertTrue(bad.err(), bad.err().contains("model.uevent.serialization: unknown uevent.serialization 'bogus'"));
        assertFalse(bad.err(), bad.err().contains("warning"));
    }

    /**
     * A --config file's netns-lab.model key that every design run sets itself is warned of as the scenario's is,
     * once; one the scenario's model sets again is said as the scenario's.
     */
    @Test
    public void aConfigFilesModelKeyTheDesignsSetThemselvesIsWarnedOf() throws Exception {
        java.nio.file.Path conf = java.nio.file.Files.createTempFile("shadowed", ".conf");
        try {
            java.nio.file.Files.writeString(conf, "netns-lab.model.uevent.serialization = lockless\n");
            Printed p = cli("validate", "load-tests/uevent-tc1-userns.conf", "--config", conf.toString());
            assertEquals(p.err(), 0, p.status());
            assertEquals(
                    "netns-lab: warning: netns-lab.model.uevent.serialization has no effect: every design run sets its"
                            + " own (kernel-4.18: global-owner, per-netns-2018: per-netns-owner, kernel-6.9: lockless);"
                            + " a custom design (custom-designs) runs another value\n",
                    p.err());
            java.nio.file.Files.writeString( // set to reference.conf's own value, it still does not reach them
                    conf, "netns-lab.model.uevent.serialization = global-owner\n");
            Printed same = cli("validate", "load-tests/uevent-tc1-userns.conf", "--config", conf.toString());
            assertTrue(
                    same.err(), same.err().startsWith("netns-lab: warning: netns-lab.model.uevent.serialization has"));
            Printed both = cli(
                    "validate",
                    "load-tests/uevent-tc1-userns.conf",
                    "--config",
                    conf.toString(),
                    "--set",
                    "model.uevent.serialization=global-owner");
            assertEquals(both.err(), 1, both.err().split("warning").length - 1);
            assertTrue(both.err(), both.err().contains("warning: model.uevent.serialization has no effect"));
        } finally {
            java.nio.file.Files.delete(conf);
        }
    }

    /** A scenario named without a folder is named so in its problems and in validate's OK line, not as ./x.conf. */
    @Test
    public void aBareFileNameIsNamedAsTyped() throws Exception {
        java.nio.file.Path bare = java.nio.file.Path.of(
                "bare-name-test-" + ProcessHandle.current().pid() + ".conf");
        try {
            java.nio.file.Files.writeString(
                    bare, java.nio.file.Files.readString(java.nio.file.Path.of("load-tests/uevent-tc1-userns.conf")));
            Printed ok = cli("validate", bare.toString());
            assertEquals(ok.err(), 0, ok.status());
            assertTrue(ok.out(), ok.out().startsWith(bare + ": OK: "));
            java.nio.file.Files.writeString(bare, "workload.injectors = 0\n", java.nio.file.StandardOpenOption.APPEND);
            Printed bad = cli("validate", bare.toString());
            assertEquals(bad.err(), 2, bad.status());
            assertTrue(bad.err(), bad.err().contains("\n  " + bare + ":"));
            assertFalse(bad.err(), bad.err().contains("./" + bare));
        } finally {
            java.nio.file.Files.deleteIfExists(bare);
        }
    }

    /** A scheduling key that the run will not use is said on stderr: under fifo, and in live execution. */
    @Test
    public void aSchedulingKeyWithoutEffectIsWarnedOf() {
        Printed fifo = cli(
                "validate",
                "load-tests/unshare-loop.conf",
                "--set",
                "machine.scheduler=fifo",
                "--set",
                "machine.task-group=session");
        assertEquals(fifo.err(), 0, fifo.status());
        assertTrue(
                fifo.err(),
                fifo.err()
                        .contains("netns-lab: warning: machine.task-group has no effect: machine.scheduler"
                                + " = fifo runs steps, not tasks"));
        // RTNL's holds are steps of the fair machine's tasks: a share asked for under fifo is one; 0 asks for none
        Printed rtnl = cli(
                "validate",
                "load-tests/unshare-loop.conf",
                "--set",
                "machine.scheduler=fifo",
                "--set",
                "model.netns.rtnl.setup-share=0.5",
                "--set",
                "model.netns.rtnl.exit-share=0");
        assertTrue(
                rtnl.err(),
                rtnl.err()
                        .contains("netns-lab: warning: model.netns.rtnl.setup-share has no effect: machine.scheduler"
                                + " = fifo runs steps, not tasks"));
        assertFalse(rtnl.err(), rtnl.err().contains("exit-share"));
        Printed live = cli(
                "validate",
                "load-tests/unshare-loop.conf",
                "--set",
                "execution=live",
                "--set",
                "machine.scheduler=fair");
        assertTrue(
                live.err(),
                live.err()
                        .contains("netns-lab: warning: machine.scheduler has no effect: live execution"
                                + " runs on the host's own CPUs and scheduler"));
        Printed cpusLive =
                cli("validate", "load-tests/unshare-loop.conf", "--set", "execution=live", "--set", "machine.cpus=8");
        assertTrue(
                cpusLive.err(),
                cpusLive.err()
                        .contains(
                                "netns-lab: warning: machine.cpus has no effect: live execution runs on the host's own"
                                        + " CPUs and scheduler"));
        // the file's own simulated machine, switched to live by --set: the user's choice, no warning
        Printed fileLive = cli("validate", "load-tests/uevent-tc1-userns.conf", "--set", "execution=live");
        assertEquals(fileLive.err(), 0, fileLive.status());
        assertFalse(fileLive.err(), fileLive.err().contains("has no effect"));
        Printed jitterLive = cli(
                "validate", "load-tests/unshare-loop.conf", "--set", "execution=live", "--set", "machine.jitter=0.2");
        assertTrue(
                jitterLive.err(),
                jitterLive
                        .err()
                        .contains("netns-lab: warning: machine.jitter has no effect: live execution measures the"
                                + " host's own work and jitters no modelled cost"));
        Printed hostLive = cli(
                "validate",
                "load-tests/unshare-loop.conf",
                "--set",
                "execution=live",
                "--set",
                "machine.host-background.per-netns=20us");
        assertTrue(
                hostLive.err(),
                hostLive.err()
                        .contains("netns-lab: warning: machine.host-background has no effect: live execution"
                                + " runs on the host's own CPUs and scheduler"));
        Printed wokenLive = cli(
                "validate",
                "load-tests/uevent-tc1-userns.conf",
                "--set",
                "execution=live",
                "--set",
                "workload.listeners-woken-at-end=true");
        assertTrue(
                wokenLive.err(),
                wokenLive
                        .err()
                        .contains("netns-lab: warning: workload.listeners-woken-at-end has no effect: live execution"
                                + " runs on the host's own CPUs and scheduler"));
        Printed notWoken = cli(
                "validate",
                "load-tests/uevent-tc1-userns.conf",
                "--set",
                "execution=live",
                "--set",
                "workload.listeners-woken-at-end=false");
        assertFalse(notWoken.err(), notWoken.err().contains("listeners-woken-at-end"));
        Printed fair = cli(
                "validate",
                "load-tests/unshare-loop.conf",
                "--set",
                "machine.task-group=session",
                "--set",
                "machine.host-background.per-netns=20us");
        assertFalse(fair.err(), fair.err().contains("warning"));
    }

    /** A --set of machine.cpus in any HOCON spelling beside --sweep is refused, not silently overridden. */
    @Test
    public void aSweepBesideASetOfTheCpusInAnySpellingIsRefused() {
        for (String set :
                new String[] {"machine.cpus=2", "machine { cpus = 2 }", "machine{cpus=2}", "machine.cpus = [1, 2]"}) {
            Printed p = cli("run", "load-tests/unshare-loop.conf", "--set", set, "--sweep", "machine.cpus=1,2");
            assertEquals(set, Main.EXIT_CONFIG, p.status());
            assertTrue(
                    set + ": " + p.err(),
                    p.err().contains("--sweep machine.cpus and --set of machine.cpus both given"));
        }
        assertFalse(RunCommand.setsCpus("machine.jitter=0.5"));
        assertFalse(RunCommand.setsCpus("machine.cpus")); // not HOCON: the loader reports it
    }

    /** --sweep takes the list in --set's bracket form too, as its help says it is the same. */
    @Test
    public void aSweepTakesTheBracketForm() {
        assertEquals("machine.cpus=[2, 4]", RunCommand.sweepSet("machine.cpus=[2,4]"));
        assertEquals(RunCommand.sweepSet("machine.cpus=2,4"), RunCommand.sweepSet("machine.cpus=[2,4]"));
    }

    @Test
    public void anEstimateOverTheUsableHeapNeverReadsAsTheSameFigure() throws Exception {
        Scenario s = new ScenarioLoader().load(Path.of("load-tests/uevent-tc1-userns.conf"), List.of(), 1);
        long need = HeapEstimate.bytes(s);
        try {
            HeapEstimate.check(s, need - 1, need, List.of());
            throw new AssertionError("refused: one byte short");
        } catch (ScenarioException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("needs about " + HeapEstimate.mib(need) + " MiB"));
            assertTrue(e.getMessage(), e.getMessage().contains("usable heap of " + ((need - 1) >> 20) + " MiB"));
            assertTrue(HeapEstimate.mib(need) > (need - 1) >> 20);
        }
    }

    @Test
    public void aWriteErrorOnStdoutIsStatus1WithALineOnStderr() {
        PrintStream full = new PrintStream(
                new OutputStream() {
                    @Override
                    public void write(int b) throws IOException {
                        throw new IOException("No space left on device");
                    }
                },
                true);
        full.println("results: x/result.json");
        Main.savedIn = null; // as a command that wrote no results leaves it
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(e, true, StandardCharsets.UTF_8);
        assertEquals(Main.EXIT_FAILED, Main.checkStdout(0, full, err));
        assertEquals(
                "netns-lab: could not write to standard output (a full disk or a closed pipe?): what the command"
                        + " printed there is lost\n",
                e.toString(StandardCharsets.UTF_8));
        e.reset();
        Main.savedIn = Path.of("out", "tc1");
        try {
            assertEquals(Main.EXIT_FAILED, Main.checkStdout(0, full, err));
        } finally {
            Main.savedIn = null;
        }
        assertEquals(
                "netns-lab: could not write to standard output (a full disk or a closed pipe?): what the command"
                        + " printed there is lost; its results are written and kept in out/tc1\n",
                e.toString(StandardCharsets.UTF_8));
        assertEquals(
                "a bad command line keeps its status", Main.EXIT_CONFIG, Main.checkStdout(Main.EXIT_CONFIG, full, err));
        assertEquals(0, Main.checkStdout(0, new PrintStream(new ByteArrayOutputStream()), err));
    }

    /**
     * The launcher checks NETNS_LAB_JAVA_OPTS before it builds or runs anything: options the JVM refuses are one line
     * naming the variable, with the JVM's reason (on stderr or stdout, between its lines that say only that it
     * stopped), and exit 2 (not the JVM's three lines and exit 1); an option that makes java print and stop is named.
     */
    @Test
    public void javaOptionsTheJvmRefusesAreOneLineFromTheLauncher() throws Exception {
        String refused = "netns-lab: NETNS_LAB_JAVA_OPTS: the JVM refused these options: ";
        assertEquals(refused + "-Xmxfoo (Invalid maximum heap size: -Xmxfoo)\n", launcherWith("-Xmxfoo"));
        assertEquals(refused + "-Xmx1m (Too small maximum heap)\n", launcherWith("-Xmx1m"));
        assertEquals(
                refused + "-Xmx64m -Xms128m (Initial heap size set to a larger value than the maximum heap size)\n",
                launcherWith("-Xmx64m -Xms128m"));
        assertEquals(
                "netns-lab: NETNS_LAB_JAVA_OPTS: -version makes java print and stop without running netns-lab; leave it"
                        + " out\n",
                launcherWith("-Xmx1g -version"));
    }

    /** @return what {@code ./netns-lab list} prints on stderr with these options, after checking it exits 2 */
    private static String launcherWith(String options) throws Exception {
        ProcessBuilder b = new ProcessBuilder("./netns-lab", "list").redirectOutput(ProcessBuilder.Redirect.DISCARD);
        b.environment().put("NETNS_LAB_JAVA_OPTS", options);
        b.environment()
                .put(
                        "PATH",
                        Path.of(System.getProperty("java.home"), "bin")
                                + java.io.File.pathSeparator
                                + System.getenv("PATH"));
        Process p = b.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(err, 2, p.waitFor());
        return err;
    }
}
