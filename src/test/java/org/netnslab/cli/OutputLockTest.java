package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.report.StagedOutput;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Two runs into the same --out at once (the second is refused, exit 2, naming the first's pid),
 * and a SIGKILLed run's temporary folder (the next run removes it and says so).
 */
public class OutputLockTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static String[] tiny(Path out) {
        return new String[] {
            "run",
            "load-tests/uevent-tc1-userns.conf",
            "--scale",
            "0.001",
            "--no-progress",
            "--out",
            out.toString(),
            "--set",
            "workload.netns.userns-owned=2",
            "--set",
            "workload.injectors=2",
            "--set",
            "designs=[kernel-6.9]",
            "--set",
            "baseline=kernel-6.9"
        };
    }

    /** Another process staging output for a folder, holding it until its stdin closes. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            StagedOutput s = StagedOutput.begin(Path.of(args[0]), "netns-lab test", "holder");
            System.out.println("staged");
            System.out.flush();
            System.in.read(); // until the test closes stdin, or kills it
            s.discard();
        }
    }

    @Test
    public void aSecondRunIntoTheSameFolderIsRefusedNamingTheFirst() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("out");
        Process holder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Holder.class.getName(),
                        out.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader r =
                    new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("staged", r.readLine());
            CommandLineFaultsTest.Printed refused = CommandLineFaultsTest.cli(tiny(out));
            assertEquals(refused.err(), Main.EXIT_CONFIG, refused.status());
            Path theirs = tmp.getRoot().toPath().resolve(".out.tmp-" + holder.pid());
            assertEquals(
                    "netns-lab: output folder " + out + ": another run (pid " + holder.pid()
                            + ") is writing its results" + " for this folder now (its temporary folder " + theirs
                            + "); wait for it to end, or choose another --out\n",
                    refused.err());
            assertTrue("the holder's folder is left alone", Files.isDirectory(theirs));

            holder.destroyForcibly(); // SIGKILL: it cannot remove its temporary folder
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
            assertTrue(Files.isDirectory(theirs));
            CommandLineFaultsTest.Printed next = CommandLineFaultsTest.cli(tiny(out));
            assertEquals(next.err(), 0, next.status());
            assertEquals(
                    "netns-lab: removed " + theirs + ", the temporary folder of a run (pid " + holder.pid()
                            + ") that no" + " longer exists (killed?)\n",
                    next.err());
            assertFalse(Files.exists(theirs));
            assertTrue(Files.isRegularFile(out.resolve("result.json")));
            assertFalse("the lock file is not a result", Files.exists(out.resolve(StagedOutput.LOCK_FILE)));
        } finally {
            holder.destroyForcibly();
        }
    }

    @Test
    public void aRunStagedInThisJvmHoldsTheFolderToo() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("out");
        StagedOutput first = StagedOutput.begin(out, "netns-lab test", "s");
        try {
            CommandLineFaultsTest.Printed refused = CommandLineFaultsTest.cli(tiny(out));
            assertEquals(Main.EXIT_CONFIG, refused.status());
            assertTrue(
                    refused.err(),
                    refused.err()
                            .contains("another run (pid "
                                    + ProcessHandle.current().pid() + ")"));
        } finally {
            first.discard();
        }
        assertEquals(0, CommandLineFaultsTest.cli(tiny(out)).status());
    }
}
