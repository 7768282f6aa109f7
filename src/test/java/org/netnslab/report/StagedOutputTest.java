package org.netnslab.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/** Results written aside and swapped in at the end; abandoned, they leave the previous ones as they were. */
public class StagedOutputTest extends JUnitSuite {
    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private static List<String> names(Path dir) throws Exception {
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> names.add(p.getFileName().toString()));
        }
        names.sort(null);
        return names;
    }

    /** A folder as a first run left it: result.json and a.hgrm, listed in its manifest. */
    private Path previousRun() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("out");
        StagedOutput first = StagedOutput.begin(out, "netns-lab test", "s");
        first.write(d -> {
            Files.writeString(d.resolve("result.json"), "old");
            return Files.writeString(d.resolve("a.hgrm"), "old a");
        });
        assertNull(first.commit());
        return out;
    }

    @Test
    public void anAbandonedOutputIsNeverCommittedAndLeavesThePreviousResults() throws Exception {
        Path out = previousRun();
        StagedOutput second = StagedOutput.begin(out, "netns-lab test", "s");
        assertEquals(
                List.of(".out.tmp-" + ProcessHandle.current().pid(), "out"),
                names(tmp.getRoot().toPath()));
        second.write(d -> Files.writeString(d.resolve("result.json"), "new"));
        assertTrue("nothing was committed", second.abandon());
        org.junit.Assert.assertThrows(InterruptedIOException.class, second::commit);
        assertEquals(List.of("out"), names(tmp.getRoot().toPath()));
        assertEquals(List.of(OutputManifest.FILE_NAME, "a.hgrm", "result.json"), names(out));
        assertEquals("old", Files.readString(out.resolve("result.json")));
    }

    /** Another scenario's results in the folder are said before the run; a re-run of the same scenario is not. */
    @Test
    public void anotherScenariosResultsAreSaidToBeReplaced() throws Exception {
        Path out = previousRun();
        StagedOutput same = StagedOutput.begin(out, "netns-lab test", "s");
        assertEquals(List.of(), same.notes());
        same.abandon();
        StagedOutput other = StagedOutput.begin(out, "netns-lab test", "t");
        assertEquals(1, other.notes().size());
        assertTrue(other.notes().get(0), other.notes().get(0).startsWith(out + " holds the results of s (written "));
        assertTrue(
                other.notes().get(0),
                other.notes()
                        .get(0)
                        .endsWith("): this run's results replace them when it ends"
                                + " (Ctrl-C before then keeps them)"));
        other.abandon();
    }

    /** calibrate's host measurements are not replaced by a run's results; calibrate itself may write there again. */
    @Test
    public void aCalibrateFolderIsRefusedToARunAndLeftAsItWas() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("cal");
        StagedOutput cal = StagedOutput.begin(out, "netns-lab test", "calibrate");
        cal.write(d -> Files.writeString(d.resolve("calibration.json"), "measured"));
        assertNull(cal.commit());

        OutputFolderException refused = org.junit.Assert.assertThrows(
                OutputFolderException.class, () -> StagedOutput.begin(out, "netns-lab test", "proc-filter"));
        assertTrue(
                refused.getMessage(), refused.getMessage().startsWith(out + ": holds calibrate's results (written "));
        assertTrue(
                refused.getMessage(),
                refused.getMessage()
                        .endsWith("), host measurements a run's results would replace: choose another --out, or remove"
                                + " the folder first if you mean to"));
        assertEquals(List.of("cal"), names(tmp.getRoot().toPath())); // no temporary folder left
        assertEquals("measured", Files.readString(out.resolve("calibration.json")));

        StagedOutput again = StagedOutput.begin(out, "netns-lab test", "calibrate");
        assertEquals(List.of(), again.notes());
        again.abandon();
    }

    @Test
    public void aCommitReplacesTheListedFilesAndKeepsAnythingAddedMeanwhile() throws Exception {
        Path out = previousRun();
        StagedOutput second = StagedOutput.begin(out, "netns-lab test", "s");
        second.write(d -> Files.writeString(d.resolve("result.json"), "new"));
        Files.writeString(out.resolve("added-during-the-run.txt"), "mine"); // after the check, before the commit
        Path kept = second.commit();
        assertFalse("abandon after the commit: the results stay", second.abandon());
        assertEquals(List.of(OutputManifest.FILE_NAME, "result.json"), names(out));
        assertEquals("new", Files.readString(out.resolve("result.json")));
        assertEquals(
                tmp.getRoot()
                        .toPath()
                        .resolve(".out.old-" + ProcessHandle.current().pid()),
                kept);
        assertEquals(List.of("added-during-the-run.txt"), names(kept));
        assertEquals(List.of("result.json"), OutputManifest.read(out).files());
    }

    @Test
    public void aManifestNamingAPathOutsideItsFolderIsRefused() throws Exception {
        Path out = tmp.newFolder("out").toPath();
        Path outside = tmp.newFile("outside.txt").toPath();
        Files.writeString(out.resolve(OutputManifest.FILE_NAME), "{\"files\": [\"../outside.txt\"]}");
        OutputFolderException e = org.junit.Assert.assertThrows(
                OutputFolderException.class, () -> StagedOutput.begin(out, "netns-lab test", "s"));
        assertEquals(
                out.resolve(OutputManifest.FILE_NAME) + ": files: \"../outside.txt\" is not a file name; choose"
                        + " another --out or empty " + out,
                e.getMessage());
        assertTrue(Files.exists(outside));
        assertEquals(List.of("out", "outside.txt"), names(tmp.getRoot().toPath()));
    }

    @Test
    public void aManifestGivingItsFilesTwiceIsRefusedNotReadLast() throws Exception {
        Path out = tmp.newFolder("out").toPath();
        Files.writeString(out.resolve("mine.txt"), "a user's own file");
        Files.writeString(
                out.resolve(OutputManifest.FILE_NAME), "{\"files\": [\"result.json\"],\n \"files\": [\"mine.txt\"]}");
        OutputFolderException e = org.junit.Assert.assertThrows(
                OutputFolderException.class, () -> StagedOutput.begin(out, "netns-lab test", "s"));
        assertEquals(
                out.resolve(OutputManifest.FILE_NAME)
                        + ": cannot read it as a netns-lab manifest (not valid JSON (line 2,"
                        + " column 9): the key \"files\" appears twice in one object (which one would count?)); choose another --out or empty "
                        + out,
                e.getMessage());
        assertEquals("a user's own file", Files.readString(out.resolve("mine.txt")));
    }
}
