package org.netnslab.cli;

import static org.junit.Assert.assertEquals;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.cli.CommandLineFaultsTest.Printed;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A {@code netns-lab.*} value of the wrong kind or out of range in a {@code --config} file, a {@code -D} property or
 * a scenario: one line in the documented {@code file:line: full.key: what is wrong, got VALUE} form, exit 2, from
 * {@code validate} and {@code run} alike.
 */
public class ConfigValueKindsTest extends JUnitSuite {
    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final String SCENARIO = "load-tests/uevent-tc1-userns.conf";

    private int files;

    /** validate and run refuse {@code --config} holding {@code text} with {@code problem} at its line 1. */
    private void refused(String text, String problem) throws Exception {
        Path f = tmp.newFile("c" + ++files + ".conf").toPath();
        Files.writeString(f, text + "\n");
        String expected = "netns-lab: 1 configuration problem:\n  " + f + ":1: " + problem + "\n";
        Printed validate = CommandLineFaultsTest.cli("validate", SCENARIO, "--config", f.toString());
        assertEquals(validate.err(), Main.EXIT_CONFIG, validate.status());
        assertEquals(expected, validate.err());
        Printed run = CommandLineFaultsTest.cli(
                "run",
                SCENARIO,
                "--scale",
                "0.001",
                "--no-progress",
                "--out",
                tmp.getRoot() + "/out",
                "--config",
                f.toString());
        assertEquals(run.err(), Main.EXIT_CONFIG, run.status());
        assertEquals(expected, run.err());
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
    public void aSetOfNullALineBreakOrANegativeDurationIsNamedByTheSetAsTyped() {
        setRefused(
                "workload.injectors=null",
                "--set workload.injectors=null: workload.injectors: null removes this required key (an integer in"
                        + " 1..1000000000)");
        setRefused(
                "seed=\"a\"\nname=zzz",
                "--set seed=\"a\"\\nname=zzz: seed: the value holds a line break, which would start another key:"
                        + " give each key a --set of its own");
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
