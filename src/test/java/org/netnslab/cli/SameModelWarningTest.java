package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.design.Strategies;
import org.netnslab.report.ResultsFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * kernel-4.18 and per-netns-2018 differ only in uevent keys, which a churn run never reads; a
 * churn comparison between them is noise however small its p-value, and says so. An injection run reads
 * them: no warning there.
 */
public class SameModelWarningTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final String NOTE = "per-netns-2018 and kernel-4.18 differ in no model key this workload uses"
            + " (costs.mutex-handoff, costs.netns, netns, rcu, sock-inuse, sockets): the same model here, so their"
            + " difference is noise, whatever its p-value";

    /** stdout of a CLI run that must succeed. */
    private static String stdout(String... args) {
        PrintStream before = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, Main.execute(args));
            return out.toString(StandardCharsets.UTF_8);
        } finally {
            System.setOut(before);
        }
    }

    private static JsonNode comparison(Path out) throws Exception {
        return new ObjectMapper()
                .readTree(out.resolve(ResultsFolder.RESULT_JSON).toFile())
                .at("/comparisons/0");
    }

    @Test
    public void everyModelKeyFallsInAGroup() {
        for (Strategies.Row<?> row : Strategies.ROWS) {
            assertNotNull(row.key(), Strategies.groupOf(row.key()));
        }
    }

    @Test
    public void aChurnRunBetweenDesignsThatDifferOnlyInUeventKeysWarns() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("churn");
        String console = stdout(
                "run",
                "load-tests/unshare-loop.conf",
                "--scale",
                "0.01",
                "--no-progress",
                "--out",
                out.toString(),
                "--set",
                "workload.workers=2",
                "--set",
                "designs=[kernel-4.18, per-netns-2018]",
                "--set",
                "baseline=kernel-4.18");
        assertTrue(console, console.contains("  WARNING: " + NOTE + "\n"));
        JsonNode c = comparison(out);
        assertFalse(c.get("designs_differ_in_used_keys").asBoolean(true));
        assertEquals(NOTE, c.get("note").asText());
        String html = Files.readString(out.resolve(ResultsFolder.REPORT_HTML));
        assertTrue(html, html.contains("<b>Warning:</b> " + NOTE));
    }

    @Test
    public void anInjectionRunBetweenThemDoesNotWarn() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("injection");
        String console = stdout(
                "run",
                "load-tests/uevent-tc1-userns.conf",
                "--scale",
                "0.001",
                "--no-progress",
                "--out",
                out.toString(),
                "--set",
                "workload.netns.userns-owned=4",
                "--set",
                "workload.injectors=4",
                "--set",
                "designs=[kernel-4.18, per-netns-2018]",
                "--set",
                "baseline=kernel-4.18");
        assertFalse(console, console.contains("WARNING"));
        JsonNode c = comparison(out);
        assertTrue(c.get("designs_differ_in_used_keys").asBoolean(false));
        assertFalse(c.has("note"));
        assertFalse(Files.readString(out.resolve(ResultsFolder.REPORT_HTML)).contains("<b>Warning:</b>"));
    }

    /** validate says it before anything runs, on stderr beside its OK line. */
    @Test
    public void validateWarnsOfDesignsThatAreOneModelForTheWorkload() {
        CommandLineFaultsTest.Printed v = CommandLineFaultsTest.cli(
                "validate",
                "load-tests/unshare-loop.conf",
                "--set",
                "designs=[kernel-4.18, per-netns-2018]",
                "--set",
                "baseline=kernel-4.18");
        assertEquals(v.err(), 0, v.status());
        assertEquals("netns-lab: warning: " + NOTE + "\n", v.err());
        CommandLineFaultsTest.Printed t = CommandLineFaultsTest.cli(
                "validate", "load-tests/uevent-tc1-userns.conf", "--set", "designs=[kernel-4.18, per-netns-2018]");
        assertEquals(t.err(), 0, t.status());
        assertEquals("", t.err());
    }
}
