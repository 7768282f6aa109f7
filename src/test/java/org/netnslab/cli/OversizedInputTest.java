package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.cli.CommandLineFaultsTest.Printed;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Input past what a person writes (brackets nested thousands deep, a description of a thousand characters, control
 * characters): one configuration line for what cannot be read, and a console that stays on its lines.
 */
public class OversizedInputTest extends JUnitSuite {
    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final String UNSHARE = "load-tests/unshare-loop.conf";

    private static Printed cli(String... args) {
        return CommandLineFaultsTest.cli(args);
    }

    private Path write(String name, String text) throws Exception {
        Path f = tmp.getRoot().toPath().resolve(name);
        Files.writeString(f, text);
        return f;
    }

    private static void assertOneProblem(Printed p, String problem) {
        assertEquals(p.err(), Main.EXIT_CONFIG, p.status());
        assertEquals("netns-lab: 1 configuration problem:\n  " + problem + "\n", p.err());
    }

    /** Brackets nested deeper than Typesafe Config's recursive reader follows: one line, not its stack overflow. */
    @Test
    public void aFileNestedThousandsDeepIsOneLine() throws Exception {
        String deep = "[".repeat(20_000) + "]".repeat(20_000);
        Path f = write("deep.conf", "name = x\na = " + deep + "\n");
        String tooDeep = "nested too deep to read (thousands of '[' or '{' inside each other); a scenario nests a few"
                + " levels";
        assertOneProblem(cli("validate", f.toString()), f + ": " + tooDeep);
        assertOneProblem(cli("validate", UNSHARE, "--config", f.toString()), f + ": --config: " + tooDeep);
        assertOneProblem(
                cli("validate", UNSHARE, "--set", "designs=" + deep),
                "--set designs=" + "[".repeat(52) + "... (40008 characters): designs: " + tooDeep);
    }

    /** A description of a thousand characters is cut in the console's header, kept whole in result.json. */
    @Test
    public void aLongDescriptionIsCutInTheHeaderOnly() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("long");
        String d = "word ".repeat(200).strip();
        Printed run = cli(
                "run",
                UNSHARE,
                "--scale",
                "0.01",
                "--set",
                "description=\"" + d + "\"",
                "--jobs",
                "1",
                "--out",
                out.toString(),
                "--no-progress");
        assertEquals(run.err(), 0, run.status());
        assertTrue(
                run.out(),
                run.out()
                        .contains(": " + d.substring(0, 400) + "... (999 characters; whole in result.json and"
                                + " report.html)\n"));
        assertTrue(Files.readString(out.resolve("result.json")).contains("\"" + d + "\""));
        // an ESC or a line break in it is escaped, not written to the terminal
        Printed esc = cli(
                "run",
                UNSHARE,
                "--scale",
                "0.01",
                "--set",
                "description=\"x\\u001b[31mRED\\ny\"",
                "--jobs",
                "1",
                "--out",
                tmp.getRoot().toPath().resolve("esc").toString(),
                "--no-progress");
        assertTrue(esc.out(), esc.out().contains(": x\\x1b[31mRED\\ny\n"));
    }
}
