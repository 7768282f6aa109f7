package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * netns_probe on this kernel (root: tracefs), stopped by a signal while it reads its trace: its tracefs instance is
 * removed all the same (the kernel refuses to remove an instance one of whose files is open), and the probe ends with
 * 128 + the signal. Three lifecycles: a short run.
 */
public class NetnsProbeTracingTest extends JUnitSuite {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static Path bin;

    @BeforeClass
    public static void buildProbes() throws Exception {
        Assume.assumeTrue("root, with tracefs", Tracefs.usable());
        bin = ProbeBuilder.build(TMP.getRoot().toPath().resolve("probes"));
    }

    @Test
    public void aSignalWhileTheTraceIsReadRemovesTheInstance() throws Exception {
        for (String signal : new String[] {"TERM", "INT"}) {
            ProcessBuilder pb = new ProcessBuilder(bin.resolve("netns_probe").toString(), "serial", "3");
            pb.environment().put("NETNS_LAB_PROBE_PAUSE", "trace-read");
            Process p = pb.start();
            String instance = "netns-lab-probe-" + p.pid();
            try {
                BufferedReader err =
                        new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
                assertEquals("lifecycle: paused at trace-read", err.readLine());
                org.junit.Assert.assertTrue(
                        Tracefs.instances().toString(), Tracefs.instances().contains(instance));
                assertEquals(
                        0,
                        new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid()))
                                .start()
                                .waitFor());
                assertEquals(signal.equals("TERM") ? 143 : 130, p.waitFor());
                assertFalse(signal, Tracefs.instances().contains(instance));
            } finally {
                p.destroyForcibly();
                p.waitFor();
                // nothing of the test's stays tracing, whatever it found
                Tracefs.run("[ ! -d " + Tracefs.INSTANCES + instance + " ] || rmdir " + Tracefs.INSTANCES + instance);
            }
        }
    }
}
