package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.report.ConsoleReport;
import org.netnslab.report.ResultsFolder;
import org.scalatestplus.junit.JUnitSuite;

/** A design's table keeps its columns in line when a measure's name is longer than the usual 22 characters. */
public class ConsoleColumnsTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void aLongMeasureNameWidensItsColumnForEveryRow() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("proc");
        assertEquals(
                0,
                Main.execute(
                        "run",
                        "load-tests/proc-filter.conf",
                        "--scale",
                        "0.01",
                        "--no-progress",
                        "--out",
                        out.toString()));
        String console = ConsoleReport.render(ResultsFolder.read(out));
        List<String> table = console.lines()
                .dropWhile(l -> !l.startsWith("== per-listener"))
                .skip(1)
                .takeWhile(l -> l.startsWith("  proc.") || l.startsWith("  measure"))
                .toList();
        assertTrue(console, table.size() > 3);
        assertTrue(console, table.stream().anyMatch(l -> l.startsWith("  proc.listener_busy.nonzero-exit ")));
        int unitEnd = table.get(0).indexOf("unit") + "unit".length();
        for (String row : table.subList(1, table.size())) { // every unit right-aligned under the header's
            assertTrue(
                    row,
                    row.substring(0, unitEnd).endsWith(" us")
                            || row.substring(0, unitEnd).endsWith(" ms"));
        }
    }
}
