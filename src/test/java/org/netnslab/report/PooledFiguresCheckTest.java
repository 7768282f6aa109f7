package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code report --check} refuses a figure edited alone that the others fix, as one run writes them: a design's pooled
 * invariants (the replicates' sums), throughput and counted-phase time (their means), a pooled mean outside the
 * replicates' means, percentiles that do not rise, and a {@code .hgrm} file that is not its result.json's.
 */
public class PooledFiguresCheckTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private Path saved() throws Exception {
        Path dir = tmp.newFolder().toPath();
        ResultsFolder.save(TinyRun.replicated(), null, dir);
        return dir;
    }

    /** @return report --check's stderr, after asserting it refused the folder (exit 2) */
    private static String refused(Path dir) {
        ReportCommandTest.Output o = ReportCommandTest.execute("report", dir.toString(), "--check");
        assertEquals(o.err(), 2, o.status());
        return o.err();
    }

    /** Asserts that {@code report --check} refuses the folder (exit 2) with {@code fragment} in its message. */
    private static void assertRefused(Path dir, String fragment) {
        String err = refused(dir);
        assertTrue(err, err.contains(fragment));
    }

    private static void edit(Path file, String from, String to) throws Exception {
        String text = Files.readString(file);
        assertTrue(from, text.contains(from));
        Files.writeString(file, text.replaceFirst(java.util.regex.Pattern.quote(from), to));
    }

    /** The untouched run is read: its verdict (a seed ratio it misses, exit 3) is a result, not a refusal. */
    @Test
    public void anUntouchedReplicatedRunIsRead() throws Exception {
        ReportCommandTest.Output o = ReportCommandTest.execute("report", saved().toString(), "--check");
        assertEquals(o.err(), 3, o.status());
        assertTrue(o.err(), !o.err().contains("edited"));
    }

    @Test
    public void aPooledFigureEditedAloneIsRefused() throws Exception {
        Path dir = saved();
        Path json = dir.resolve("result.json");
        String good = Files.readString(json);
        // kernel-4.18's out-of-order counts are 0, 1 and 2 in its three replicates: 3 pooled
        edit(json, "\"seqnum_out_of_order\" : 3", "\"seqnum_out_of_order\" : 4");
        assertRefused(
                dir,
                json + ": designs[0].invariants.seqnum_out_of_order: 4 is not the replicates' sum (3):"
                        + " not the figures a run wrote (was the file edited?)");
        Files.writeString(json, good);
        // a pooled key deleted, or one no replicate has: a broken invariant hidden, or one made up
        edit(json, "\"seqnum_out_of_order\" : 3,", "");
        assertRefused(dir, "designs[0].invariants.seqnum_out_of_order: missing, where the" + " replicates sum to 3");
        Files.writeString(json, good);
        edit(json, "\"seqnum_out_of_order\" : 3,", "\"seqnum_out_of_order\" : 3, \"made_up\" : 5,");
        assertRefused(dir, "designs[0].invariants.made_up: 5 is in no replicate's");
        Files.writeString(json, good);
        // its three replicates' means are 52.4185, 49.4185 and 55.4185 us
        edit(json, "\"mean\" : 52.4185,", "\"mean\" : 56.0,");
        edit(json, "\"ci95\" : [ ", "\"ci95\" : [ 55.0, 57.0 ], \"was_ci95\" : [ "); // its interval moved with it
        assertRefused(
                dir,
                "designs[0].measures[\"uevent.transaction\"].mean: 56.0 is"
                        + " outside the replicates' means (49.4185 .. 55.4185)");
        Files.writeString(json, good);
        edit(json, "\"ci95\" : [ ", "\"ci95\" : [ 100.0, 200.0 ], \"was_ci95\" : [ ");
        assertRefused(
                dir,
                "designs[0].measures[\"uevent.transaction\"].ci95: [100.0," + " 200.0] does not hold the mean 52.4185");
        Files.writeString(json, good);
        edit(json, "\"ci95\" : [ ", "\"ci95\" : [ null, 10.0 ], \"was_ci95\" : [ ");
        assertRefused(dir, "ci95: [NaN, 10.0]: one end without the other");
        Files.writeString(json, good);
        edit(json, "\"index\" : 2,", "\"index\" : 7,");
        assertRefused(dir, "replicates[1].index: 7, where it is replicate 2 in the run's" + " order");
        Files.writeString(json, good);
        edit(json, "\"p90\" : ", "\"p90\" : 1.0E9, \"was_p90\" : ");
        assertRefused(dir, "do not rise: not the figures a run wrote");
    }

    @Test
    public void aHistogramFileThatIsNotItsResultJsonsIsNamed() throws Exception {
        Path dir = saved();
        Path hgrm = dir.resolve(HgrmFiles.fileName("kernel-4.18", "uevent.transaction"));
        String text = Files.readString(hgrm);
        // the median's row: its value (3 decimals), then the percentile 0.5
        java.util.regex.Matcher p50 = java.util.regex.Pattern.compile("(?m)^\\s*([0-9.]+)\\s+0\\.500000000000")
                .matcher(text);
        assertTrue(text, p50.find());
        Files.writeString(hgrm, text.substring(0, p50.start(1)) + "99.000" + text.substring(p50.end(1)));
        String err = refused(dir);
        assertTrue(
                err,
                err.contains(hgrm + ": value 99.0 at 0.5, where result.json's p50 is 52.383: the two files are not one"
                        + " run's (was one edited?)"));
    }
}
