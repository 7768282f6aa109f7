package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.cli.CommandLineFaultsTest.Printed;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Values of the wrong kind or out of range in a {@code --config} file, a {@code -D} property, a scenario or a
 * {@code --set}: one line in the documented {@code file:line: full.key: what is wrong, got VALUE} form, exit 2, from
 * {@code validate} and {@code run} alike. Akka settings in a {@code --config} file that Akka cannot start with: {@code validate} and {@code run} (virtual,
 * live, a cluster's coordinator) refuse each up front in one line naming the file, line and key, exit 2; what gets
 * past those checks and still stops Akka from starting is said in one line too, never as a stack trace.
 */
public class ConfigValueFaultsTest extends JUnitSuite {
    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final String SCENARIO = "load-tests/uevent-tc1-userns.conf";

    private int configs;

    private Path config(String text) throws Exception {
        Path f = tmp.newFile("akka-" + ++configs + ".conf").toPath();
        Files.writeString(f, text + "\n");
        return f;
    }

    /** @return {@code run} of the scenario at a small scale into {@code out} with {@code --config f} and more options */
    private static Printed run(Path f, Path out, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                SCENARIO,
                "--scale",
                "0.001",
                "--no-progress",
                "--out",
                out.toString(),
                "--config",
                f.toString()));
        args.addAll(List.of(more));
        return CommandLineFaultsTest.cli(args.toArray(String[]::new));
    }

    /** validate, a virtual run, a live run and a cluster's coordinator all refuse {@code text} with {@code problem}. */
    private void refused(String text, String problem) throws Exception {
        Path f = config(text);
        String expected = "netns-lab: 1 configuration problem:\n  " + f + ":1: " + problem + "\n";
        Printed validate = CommandLineFaultsTest.cli("validate", SCENARIO, "--config", f.toString());
        assertEquals(validate.err(), Main.EXIT_CONFIG, validate.status());
        assertEquals(expected, validate.err());
        Path out = tmp.getRoot().toPath().resolve("out");
        for (String[] more : new String[][] {
            {"--set", "execution=virtual"}, {"--set", "execution=live"}, {"--cluster", "127.0.0.1:25529"}
        }) {
            Printed run = run(f, out, more);
            assertEquals(run.err(), Main.EXIT_CONFIG, run.status());
            assertEquals(expected, run.err());
            assertFalse(Files.exists(out));
        }
    }

    @Test
    public void anAkkaClassThatIsNotOnTheClassPathIsRefusedUpFront() throws Exception {
        refused(
                "akka.actor.provider = bogus",
                "akka.actor.provider: no such class (expected one of cluster, local, remote, or a class on the class"
                        + " path), got 'bogus'");
        refused(
                "akka.loggers = [\"no.such.Logger\"]",
                "akka.loggers: no such class (expected a logger class, e.g. akka.event.slf4j.Slf4jLogger), got"
                        + " 'no.such.Logger'");
        refused(
                "akka.actor.default-dispatcher.executor = \"no.such.Executor\"",
                "akka.actor.default-dispatcher.executor: no such class (expected one of affinity-pool-executor,"
                        + " default-executor, fork-join-executor, thread-pool-executor, or a class on the class path),"
                        + " got 'no.such.Executor'");
        refused(
                "netns-lab.model-dispatcher.executor = \"no.such.Executor\"",
                "netns-lab.model-dispatcher.executor: no such class (expected one of affinity-pool-executor,"
                        + " default-executor, fork-join-executor, thread-pool-executor, or a class on the class path),"
                        + " got 'no.such.Executor'");
    }

    /**
     * A machine key of a --config file that is out of range, or a count with a fraction (which Typesafe Config would
     * cut to a whole one), is refused with its file and line.
     */
    @Test
    public void aMachineValueOfAConfigFileIsRefusedWithItsPlace() throws Exception {
        for (String[] c : new String[][] {
            {
                "host-background.doubling-netns = 1.5",
                "machine.host-background.doubling-netns must be a whole number," + " got 1.5"
            },
            {"host-background.period = 10us", "machine.host-background.period must be in 1ms..60s, got 10000 ns"},
            {"cold-switch.cached-tasks = 102.7", "machine.cold-switch.cached-tasks must be a whole number, got 102.7"}
        }) {
            Path f = config("netns-lab.machine." + c[0]);
            Printed validate = CommandLineFaultsTest.cli("validate", SCENARIO, "--config", f.toString());
            assertEquals(validate.err(), Main.EXIT_CONFIG, validate.status());
            assertEquals("netns-lab: configuration: " + f + ":1: " + c[1] + "\n", validate.err());
        }
    }

    @Test
    public void anAkkaValueOutOfItsRangeIsRefusedUpFront() throws Exception {
        refused(
                "akka.actor.default-dispatcher.fork-join-executor.parallelism-max = -3",
                "akka.actor.default-dispatcher.fork-join-executor.parallelism-max: must be an integer in 1..32767,"
                        + " got -3");
        refused(
                "akka.scheduler.tick-duration = 0ms",
                "akka.scheduler.tick-duration: must be a duration in 1ms..1s, got \"0ms\"");
        refused(
                "akka.scheduler.tick-duration = 1h",
                "akka.scheduler.tick-duration: must be a duration in 1ms..1s, got \"1h\"");
        refused(
                "akka.remote.artery.advanced.maximum-frame-size = 10b",
                "akka.remote.artery.advanced.maximum-frame-size: must be at least 32 KiB (Artery's least frame), got"
                        + " \"10b\"");
    }

    /**
     * A --config key nothing reads is refused, not ignored: a misspelt netns-lab, a bare value at the top, a scenario
     * given as --config. A block of one's own (a dispatcher netns-lab.dispatcher names) stays welcome.
     */
    @Test
    public void aTopLevelKeyNothingReadsIsRefused() throws Exception {
        String sets = " (a --config file sets netns-lab.*, akka.* and blocks they name by path, such as a dispatcher)";
        refused("netnslab.run.ask-timeout = 1s", "netnslab: nothing reads it: did you mean netns-lab or akka?" + sets);
        refused("foo = 1", "foo: a value nothing reads" + sets);
        Path scenario = config("name = x\ndesigns = [kernel-4.18]\nworkload { kind = uevent-injection }\n");
        Printed v = CommandLineFaultsTest.cli("validate", SCENARIO, "--config", scenario.toString());
        assertEquals(v.err(), Main.EXIT_CONFIG, v.status());
        assertEquals(
                "netns-lab: 1 configuration problem:\n  " + scenario + ": --config: looks like a scenario file (it has"
                        + " name, designs, workload): give it as the scenario (netns-lab run " + scenario + ");"
                        + " --config takes netns-lab.* and akka.* settings\n",
                v.err());
        // a model value is checked though every design a scenario runs sets its own
        refused(
                "netns-lab.model.uevent.serialization = nope",
                "netns-lab.model.uevent.serialization: unknown uevent.serialization 'nope'; expected one of"
                        + " global-owner, per-netns-owner, per-netns-owner-fixed, lockless");
        Printed device = CommandLineFaultsTest.cli("validate", SCENARIO, "--config", "/dev/null");
        assertEquals(
                "netns-lab: 1 configuration problem:\n  /dev/null: --config: not a regular file (a device, a pipe or a"
                        + " socket)\n",
                device.err());
        Path own = config("mine { type = Dispatcher, executor = fork-join-executor }\nnetns-lab.dispatcher = mine\n");
        Printed ok = CommandLineFaultsTest.cli("validate", SCENARIO, "--config", own.toString());
        assertEquals(ok.err(), 0, ok.status());
    }

    /** Akka would refuse these only at the model's first spawn, or run on a pool that cannot start a thread. */
    @Test
    public void aModelDispatcherAkkaCannotRunIsRefusedUpFront() throws Exception {
        refused(
                "netns-lab.dispatcher = no-such.dispatcher",
                "netns-lab.dispatcher: must name a dispatcher block (netns-lab.model-dispatcher,"
                        + " akka.actor.default-dispatcher or one of your own); there is none at that path, got"
                        + " \"no-such.dispatcher\"");
        refused(
                "netns-lab.dispatcher = netns-lab.run",
                "netns-lab.dispatcher: must name a dispatcher block; the block at that path sets neither type nor"
                        + " executor, got \"netns-lab.run\"");
        refused(
                "x { executor = thread-pool-executor, thread-pool-executor.fixed-pool-size = 0 }\n"
                        + "netns-lab.dispatcher = x",
                "x.thread-pool-executor.fixed-pool-size: must be an integer in 1..2147483647, got 0");
    }

    @Test
    public void anAkkaValueOfTheWrongKindIsRefusedUpFrontInEveryExecution() throws Exception {
        refused(
                "akka.cluster.split-brain-resolver.stable-after = banana",
                "akka.cluster.split-brain-resolver.stable-after: must be a duration with its unit (e.g. 20s), got"
                        + " \"banana\"");
        refused("akka = 5", "akka: must be a block of settings akka { ... } (see its reference.conf), got 5");
        refused(
                "akka.actor.default-dispatcher.throughput = \"lots\"",
                "akka.actor.default-dispatcher.throughput: must be an integer, got \"lots\"");
        // Akka's own words for a switch are taken where it takes a number or a duration
        Path off = config("akka.log-dead-letters = off\nakka.cluster.down-removal-margin = off");
        assertEquals(
                0,
                CommandLineFaultsTest.cli("validate", SCENARIO, "--config", off.toString())
                        .status());
    }

    @Test
    public void whatStillStopsAkkaFromStartingIsOneLineNamingTheConfig() throws Exception {
        Path f = config("akka.actor.provider = java.lang.String"); // a class, but no actor-ref provider
        Path out = tmp.getRoot().toPath().resolve("out");
        Printed run = run(f, out);
        assertEquals(run.err(), Main.EXIT_CONFIG, run.status());
        assertEquals(
                "netns-lab: Akka cannot start with this configuration (--config " + f
                        + "): interface akka.actor.ActorRefProvider is not assignable from class java.lang.String\n",
                run.err());
        assertFalse(Files.exists(out));
    }

    @Test
    public void aRunSettingOfTheWrongKindIsNamedByItsFullKey() throws Exception {
        refused(
                "netns-lab.run.ask-timeout = banana",
                "netns-lab.run.ask-timeout: must be a duration with its unit (e.g. 60s), got \"banana\"");
        refused(
                "netns-lab.run.heap-check = maybe",
                "netns-lab.run.heap-check: must be on or off (true or false), got \"maybe\"");
        refused(
                "netns-lab = 5",
                "netns-lab: must be a block of settings netns-lab { ... } (see its reference.conf), got 5");
    }

    /** A custom design named as a --config file's named design is refused naming that file, not reference.conf. */
    @Test
    public void aCustomDesignShadowingAConfigDesignNamesTheConfigFile() throws Exception {
        Path config = tmp.newFile("designs.conf").toPath();
        Files.writeString(config, "netns-lab.designs.mine { uevent.serialization = lockless }\n");
        Path scenario = tmp.newFile("mine.conf").toPath();
        Files.writeString(
                scenario,
                String.join(
                        "\n",
                        "name = mine",
                        "description = d",
                        "seed = s",
                        "workload { type = uevent-injection, netns { userns-owned = 2, init-owned = 0 },"
                                + " injections-per-netns = 10, injectors = 2 }",
                        "designs = [kernel-4.18, mine]",
                        "custom-designs { mine { uevent.serialization = lockless } }",
                        ""));
        Printed v = CommandLineFaultsTest.cli("validate", scenario.toString(), "--config", config.toString());
        assertEquals(v.err(), Main.EXIT_CONFIG, v.status());
        assertTrue(
                v.err(),
                v.err()
                        .contains(scenario + ":6: custom-designs.mine: shadows the named design 'mine' of " + config
                                + ":1; give the custom design its own name"));
    }

    /** A --config file's plain include that finds no file is warned of, as a scenario file's is. */
    @Test
    public void aConfigFilesMissingIncludeIsWarnedOf() throws Exception {
        Path f = tmp.newFile("with-include.conf").toPath();
        Files.writeString(f, "include \"gone2.conf\"\nnetns-lab.run.heap-check = on\n");
        Printed v = CommandLineFaultsTest.cli("validate", SCENARIO, "--config", f.toString());
        assertEquals(v.err(), 0, v.status());
        assertEquals(
                "netns-lab: warning: " + f + ":1: include \"gone2.conf\" finds no file, so HOCON skips it and the"
                        + " settings it was to add; include required(\"gone2.conf\") makes that an error\n",
                v.err());
    }

    /** An empty output folder would put every run's folder into the current one, as --out '' would: refused too. */
    @Test
    public void anEmptyOutDirIsRefused() throws Exception {
        refused(
                "netns-lab.run.out-dir = \"\"",
                "netns-lab.run.out-dir: is empty, which would write every run's folder into the current folder: give a"
                        + " folder (\".\" to mean the current one)");
    }

    @Test
    public void aRunDurationThatIsNotAboveZeroIsNamedAlone() throws Exception {
        refused(
                "netns-lab.run.stall-timeout = -1s",
                "netns-lab.run.stall-timeout: must be a duration > 0 (e.g. 60s), got \"-1s\"");
    }

    @Test
    public void aSystemPropertyOfTheWrongKindIsNamedByItsKey() {
        System.setProperty("netns-lab.run.ask-timeout", "zzz");
        ConfigFactory.invalidateCaches();
        try {
            Printed p = CommandLineFaultsTest.cli("validate", SCENARIO);
            assertEquals(p.err(), Main.EXIT_CONFIG, p.status());
            assertEquals(
                    "netns-lab: 1 configuration problem:\n  system properties: netns-lab.run.ask-timeout: must be a"
                            + " duration with its unit (e.g. 60s), got \"zzz\"\n",
                    p.err());
        } finally {
            System.clearProperty("netns-lab.run.ask-timeout");
            ConfigFactory.invalidateCaches();
        }
    }

    @Test
    public void designsThatAreNotAListSayWhatTheyAre() throws Exception {
        Path f = tmp.newFile("d1.conf").toPath();
        Files.writeString(
                f, Files.readString(Path.of(SCENARIO)).replaceFirst("(?m)^designs = .*$", "designs = \"kernel-4.18\""));
        int line = 1
                + (int) Files.readString(f)
                        .lines()
                        .takeWhile(l -> !l.startsWith("designs ="))
                        .count();
        Printed p = CommandLineFaultsTest.cli("validate", f.toString());
        assertEquals(Main.EXIT_CONFIG, p.status());
        assertEquals(
                "netns-lab: 1 configuration problem:\n  " + f + ":" + line
                        + ": designs: must be a list [ ... ] of design names, got \"kernel-4.18\"\n",
                p.err());
    }

    /** validate refuses the scenario with one {@code --set} with {@code problem}. */
    private static void setRefused(String set, String problem) {
        Printed p = CommandLineFaultsTest.cli("validate", SCENARIO, "--set", set);
        assertEquals(p.err(), Main.EXIT_CONFIG, p.status());
        assertEquals("netns-lab: 1 configuration problem:\n  " + problem + "\n", p.err());
    }

    @Test
    public void aFractionForAnIntegerModelKeyIsRefusedNotCutDown() {
        Printed p = CommandLineFaultsTest.cli(
                "validate", SCENARIO, "--set", "model.costs.uevent.broadcast-cached-sockets=1.5");
        assertEquals(p.err(), Main.EXIT_CONFIG, p.status());
        assertTrue(
                p.err(),
                p.err().contains("costs.uevent.broadcast-cached-sockets: must be an integer in 0..10000000, got 1.5"));
        Printed whole = CommandLineFaultsTest.cli(
                "validate", SCENARIO, "--set", "model.costs.uevent.broadcast-cached-sockets=1500");
        assertEquals(whole.err(), 0, whole.status());
    }

    @Test
    public void aSetOfNullALineBreakOrANegativeDurationIsNamedByTheSetAsTyped() {
        setRefused(
                "workload.injectors=null",
                "--set workload.injectors=null: workload.injectors: null removes this required key (an integer in"
                        + " 1..1000000000)");
        setRefused(
                "seed=\"a\"\nname=zzz",
                "--set seed=\"a\"\\nname=zzz: seed: the value holds a line break, which would start another key:"
                        + " give each key a --set of its own");
        setRefused("name=\"abc", "--set name=\"abc: name: the '\"' is never closed: a '\"' is missing");
        setRefused(
                "workload.injector-start-interval=-5ms",
                "--set workload.injector-start-interval=-5ms: workload.injector-start-interval: must be a duration in"
                        + " 0..60s, got \"-5ms\"");
    }

    @Test
    public void aModelValueOfTheConfigIsNamedByItsKeyNotByTheDesignsThatInheritIt() throws Exception {
        refused(
                "netns-lab.model.uevent.listener-rcvbuf = -7",
                "netns-lab.model.uevent.listener-rcvbuf: must be in 0..2147483647, got -7");
    }
}
