package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.cli.CommandLineFaultsTest.Printed;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Akka settings in a {@code --config} file that Akka cannot start with: {@code validate} and {@code run} (virtual,
 * live, a cluster's coordinator) refuse each up front in one line naming the file, line and key, exit 2; what gets
 * past those checks and still stops Akka from starting is said in one line too, never as a stack trace.
 */
public class AkkaConfigFaultsTest extends JUnitSuite {
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
            Printed run = CommandLineFaultsTest.cli(
                    "run",
                    SCENARIO,
                    "--scale",
                    "0.001",
                    "--no-progress",
                    "--out",
                    out.toString(),
                    "--config",
                    f.toString(),
                    more[0],
                    more[1]);
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
        Printed run = CommandLineFaultsTest.cli(
                "run",
                SCENARIO,
                "--scale",
                "0.001",
                "--no-progress",
                "--out",
                out.toString(),
                "--config",
                f.toString());
        assertEquals(run.err(), Main.EXIT_CONFIG, run.status());
        assertEquals(
                "netns-lab: Akka cannot start with this configuration (--config " + f
                        + "): interface akka.actor.ActorRefProvider is not assignable from class java.lang.String\n",
                run.err());
        assertFalse(Files.exists(out));
    }
}
