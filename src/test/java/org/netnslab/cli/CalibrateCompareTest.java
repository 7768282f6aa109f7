package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code calibrate --compare}: two of the project's own recordings compared row by row, the CSV written beside, and
 * the options it cannot take, each refused with a line that names it and exit 2 before anything is written.
 */
public class CalibrateCompareTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final String A = "docs/measurements/calibration-6.18-2cpu-2026-12-06-check251.json";
    private static final String B = "docs/measurements/calibration-6.18-2cpu-2026-12-06-order240.json";

    @Test
    public void twoRecordingsOfThisHostRowByRow() throws Exception {
        Path csv = tmp.getRoot().toPath().resolve("rows.csv");
        CommandLineFaultsTest.Printed p =
                CommandLineFaultsTest.cli("calibrate", "--compare", A, B, "--csv", csv.toString());
        assertEquals(p.err(), 0, p.status());
        assertEquals("", p.err());
        // TC1 N=3000's throughput: both recordings' predictions out (1.72x and more), the hosts' 20.8k and 19.7k in
        assertTrue(
                p.out(),
                p.out()
                        .contains(String.format(
                                "  %-36s %-44s %8s %7s%% %8s%n",
                                "tc1 N=3000 *", "throughput, sends/s", "0/2", "100", "2/2")));
        assertTrue(
                p.out(),
                p.out()
                        .contains(
                                "a recording, median over the 2: the model within on 44.5 of 53 rows"
                                        + " (10.5 of 14 at the largest sizes); the median of the other recordings' host figures on 48 (12)\n"));
        assertTrue(p.out(), p.out().endsWith("csv: " + csv + "\n"));
        assertEquals(54, Files.readAllLines(csv).size()); // the header and 53 rows
        assertEquals(
                "rw-r--r--", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(csv)));
    }

    @Test
    public void whatCompareCannotTakeIsRefused() throws Exception {
        CommandLineFaultsTest.Printed p = CommandLineFaultsTest.cli("calibrate", "--compare", A);
        assertEquals(2, p.status());
        assertEquals(
                "netns-lab: calibrate --compare: needs two or more calibration.json of one host, got 1 (" + A + ")\n",
                p.err());
        String folder = tmp.getRoot().toString();
        p = CommandLineFaultsTest.cli("calibrate", "--compare", folder);
        assertEquals(2, p.status());
        assertEquals(
                "netns-lab: calibrate --compare: needs two or more calibration.json of one host, got 1 (" + folder
                        + ", a folder of no calibration.json: name its recordings, e.g. " + folder + "/*.json)\n",
                p.err());
        p = CommandLineFaultsTest.cli("calibrate", "--compare", A, B, "--from", A, "--seed", "3");
        assertEquals(2, p.status());
        assertEquals(
                "netns-lab: calibrate --compare reads saved calibrations and runs no probe: --from and --seed cannot be"
                        + " given with it (--csv FILE writes its rows)\n",
                p.err());
        p = CommandLineFaultsTest.cli("calibrate", "--compare", A, B, "--bogus"); // not read as a file
        assertEquals(2, p.status());
        assertEquals("netns-lab: unknown option '--bogus' (netns-lab calibrate --help lists the options)\n", p.err());
        p = CommandLineFaultsTest.cli("calibrate", "--csv", "x.csv");
        assertEquals(2, p.status());
        assertEquals("netns-lab: calibrate --csv: only with --compare, which it writes the rows of\n", p.err());
        Path nowhere = tmp.getRoot().toPath().resolve("no-such-folder").resolve("rows.csv");
        p = CommandLineFaultsTest.cli("calibrate", "--compare", A, B, "--csv", nowhere.toString());
        assertEquals(2, p.status());
        assertEquals(
                "netns-lab: calibrate --csv " + nowhere + ": its folder " + nowhere.getParent()
                        + " does not exist or is not a folder; nothing written\n",
                p.err());
        assertEquals("", p.out());
        assertFalse(Files.exists(nowhere.getParent()));

        // a link, or one of the recordings: the CSV would replace it
        Path target = tmp.newFile("target.csv").toPath();
        Path link = Files.createSymbolicLink(tmp.getRoot().toPath().resolve("link.csv"), target);
        p = CommandLineFaultsTest.cli("calibrate", "--compare", A, B, "--csv", link.toString());
        assertEquals(2, p.status());
        assertEquals(
                "netns-lab: calibrate --csv " + link + ": is not an ordinary file (a link, device or pipe), which the"
                        + " CSV would replace; name another; nothing written\n",
                p.err());
        assertTrue(Files.isSymbolicLink(link));
        Path copy = tmp.getRoot().toPath().resolve("copy.json");
        Files.copy(Path.of(B), copy);
        long size = Files.size(copy);
        p = CommandLineFaultsTest.cli("calibrate", "--compare", A, copy.toString(), "--csv", copy.toString());
        assertEquals(2, p.status());
        assertEquals(
                "netns-lab: calibrate --csv " + copy + ": is " + copy + ", one of the recordings compared; nothing"
                        + " written\n",
                p.err());
        assertEquals(size, Files.size(copy));
        // another existing file that is not a .csv (a report, a note) is not replaced
        Path notes = tmp.newFile("notes.txt").toPath();
        p = CommandLineFaultsTest.cli("calibrate", "--compare", A, B, "--csv", notes.toString());
        assertEquals(2, p.status());
        assertTrue(p.err(), p.err().contains(": exists and is not a .csv file, which the CSV would replace"));
        Path upper = tmp.newFile("UP.CSV").toPath(); // a .csv whatever its case is one to replace
        p = CommandLineFaultsTest.cli("calibrate", "--compare", A, B, "--csv", upper.toString());
        assertEquals(p.err(), 0, p.status());
        // -: the CSV alone on stdout
        p = CommandLineFaultsTest.cli("calibrate", "--compare", A, B, "--csv", "-");
        assertEquals(p.err(), 0, p.status());
        assertEquals(54, p.out().lines().count());
        assertTrue(p.out(), p.out().startsWith("load,measure,recordings,"));
    }
}
