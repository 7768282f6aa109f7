package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * How {@link ProbeRunner} reads a probe that ends badly, with stand-in probes (shell scripts): one ended by a signal
 * half-way through its line (a Ctrl-C reaches the probe with calibrate) is an interrupt, never a JSON parser's
 * message; a probe defect (a line that is not JSON) names the probe and the line.
 */
public class ProbeRunnerTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    /** @return a folder holding a probe named netns_probe that runs {@code script} */
    private Path probe(String script) throws IOException {
        Path bin = tmp.newFolder().toPath();
        Path p = bin.resolve("netns_probe");
        Files.writeString(p, "#!/bin/sh\n" + script + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }

    @Test
    public void aProbeKilledBySigtermMidLineIsAnInterruptNotAParserMessage() throws Exception {
        // the start of a result line, flushed by a fork, then the signal: the reader sees it cut short
        Path bin = probe("printf '{\"probe\":\"lifecycle\",\"set\":\"fit\",\"loops\":1'; kill -TERM $$");
        InterruptedIOException e = org.junit.Assert.assertThrows(
                InterruptedIOException.class, () -> new ProbeRunner(bin, 30).run("netns_probe", "serial", "30"));
        assertEquals("netns_probe serial 30 was ended by SIGTERM before its result", e.getMessage());
    }

    @Test
    public void aProbesHandlerExitAfterSigintMidLineIsAnInterruptToo() throws Exception {
        // netns_probe's own handler removes its tracefs instance and exits 128 + the signal's number (SIGINT: 2)
        Path bin = probe("printf '{\"probe\":\"lifecycle\",'; exit 130");
        InterruptedIOException e = org.junit.Assert.assertThrows(
                InterruptedIOException.class, () -> new ProbeRunner(bin, 30).run("netns_probe", "serial", "30"));
        assertEquals("netns_probe serial 30 was ended by SIGINT before its result", e.getMessage());
    }

    @Test
    public void aLineThatIsNotJsonNamesTheProbeAndTheLine() throws Exception {
        Path bin = probe("echo '{\"probe\":\"lifecycle\"}'; echo 'not json'");
        IOException e = org.junit.Assert.assertThrows(
                IOException.class, () -> new ProbeRunner(bin, 30).run("netns_probe", "clean"));
        assertEquals(
                "netns_probe clean printed a line that is not a JSON object (a probe defect): not json",
                e.getMessage());
        assertFalse(e instanceof InterruptedIOException);
    }

    @Test
    public void aProbesErrorLineComesBeforeALineItCutShort() throws Exception {
        // the probe's alarm: its error line on a line of its own after a result line's start
        Path bin = probe("printf '{\"probe\":\"lifecycle\",'; printf '\\n{\"error\":\"probe timed out\",\"missing\":"
                + "\"time\",\"hint\":\"retry\"}\\n'; exit 3");
        ProbeException e = org.junit.Assert.assertThrows(
                ProbeException.class, () -> new ProbeRunner(bin, 30).run("netns_probe", "serial", "30"));
        assertEquals("time missing or refused: netns_probe serial 30: probe timed out; retry", e.line());
    }
}
