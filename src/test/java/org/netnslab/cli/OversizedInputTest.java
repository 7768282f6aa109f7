package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.netnslab.cli.CommandLineFaultsTest.cli;
import static org.netnslab.cli.ConfigInputFaultsTest.assertOneProblem;
import static org.netnslab.cli.ConfigInputFaultsTest.unshareRun;

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

    /** Brackets nested deeper than Typesafe Config's recursive reader follows: one line, not its stack overflow. */
    @Test
    public void aFileNestedThousandsDeepIsOneLine() throws Exception {
        String deep = "[".repeat(20_000) + "]".repeat(20_000);
        Path f = tmp.getRoot().toPath().resolve("deep.conf");
        Files.writeString(f, "name = x\na = " + deep + "\n");
        String tooDeep = "nested too deep to read (thousands of '[' or '{' inside each other); a scenario nests a few"
                + " levels";
        assertOneProblem(cli("validate", f.toString()), f + ": " + tooDeep);
        assertOneProblem(
                cli("validate", ConfigInputFaultsTest.UNSHARE, "--config", f.toString()), f + ": --config: " + tooDeep);
        assertOneProblem(
                cli("validate", ConfigInputFaultsTest.UNSHARE, "--set", "designs=" + deep),
                "--set designs=" + "[".repeat(52) + "... (40008 characters): designs: " + tooDeep);
    }

    /** A description of a thousand characters is cut in the console's header, kept whole in result.json. */
    @Test
    public void aLongDescriptionIsCutInTheHeaderOnly() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("long");
        String d = "word ".repeat(200).strip();
        Printed run = unshareRun(out, "--set", "description=\"" + d + "\"");
        assertEquals(run.err(), 0, run.status());
        assertTrue(
                run.out(),
                run.out()
                        .contains(": " + d.substring(0, 400) + "... (999 characters; whole in result.json and"
                                + " report.html)\n"));
        assertTrue(Files.readString(out.resolve("result.json")).contains("\"" + d + "\""));
        // an ESC in it is escaped, not written to the terminal; a line break and its indent read as one space
        Printed esc = unshareRun(
                tmp.getRoot().toPath().resolve("esc"), "--set", "description=\"x\\u001b[31mRED\\n    y\\r\\nz\"");
        assertTrue(esc.out(), esc.out().contains(": x\\x1b[31mRED y z\n"));
    }
}
