package org.netnslab.cli;

import static org.junit.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/** Two runs begun in the same second without {@code --out} each get a folder of their own. */
public class DefaultFolderTest extends JUnitSuite {
    private static final LocalDateTime AT = LocalDateTime.of(2026, 12, 6, 7, 17, 50);

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void aNameTakenInTheSameSecondGetsTheNextSuffix() throws Exception {
        Path parent = tmp.getRoot().toPath();
        Path first = StagedRun.defaultFolder(parent, "tc1", AT);
        assertEquals(parent.resolve("tc1-20261206-071750"), first);
        Files.createDirectory(first); // a finished run's results
        assertEquals(parent.resolve("tc1-20261206-071750-2"), StagedRun.defaultFolder(parent, "tc1", AT));
        // a run still writing aside for -2 (its temporary folder, named with its pid)
        Files.createDirectory(parent.resolve(".tc1-20261206-071750-2.tmp-4242"));
        assertEquals(parent.resolve("tc1-20261206-071750-3"), StagedRun.defaultFolder(parent, "tc1", AT));
        // another scenario's folder of that second is not this one's
        assertEquals(parent.resolve("tc2-20261206-071750"), StagedRun.defaultFolder(parent, "tc2", AT));
        // a parent that does not exist yet: the plain name
        assertEquals(
                parent.resolve("new/tc1-20261206-071750"), StagedRun.defaultFolder(parent.resolve("new"), "tc1", AT));
    }
}
