package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.report.Verdict;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The verdict comes first (console, report.html, result.json), a disagreeing seed figure (TC3) says
 * DISAGREES in all three, and {@code --check} exits 3 on it.
 */
public class VerdictTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    /** TC3, small: 100 netns (50 userns-owned, 50 init-owned), one injector each, 10 injections each. */
    private static String[] tc3(Path out, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "run",
                "load-tests/uevent-tc3-no-listeners.conf",
                "--scale",
                "0.001",
                "--no-progress",
                "--out",
                out.toString(),
                "--set",
                "workload.netns.userns-owned=50",
                "--set",
                "workload.netns.init-owned=50",
                "--set",
                "workload.injectors=100"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    public void aDisagreeingSeedFigureSaysSoFirstEverywhereAndFailsTheCheck() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("tc3");
        CommandLineFaultsTest.Printed run = CommandLineFaultsTest.cli(tc3(out));
        assertEquals(run.err(), 0, run.status());
        List<String> lines = run.out().lines().toList();
        int header = 0;
        while (!lines.get(header).startsWith("execution ")) { // the run header: scenario, seed, execution
            header++;
        }
        assertEquals("the first result line after the header is the verdict", "verdict:", lines.get(header + 2));
        assertTrue(
                lines.get(header + 3),
                lines.get(header + 3)
                        .startsWith("  per-netns-2018 and kernel-4.18 gave identical" + " mean uevent.transaction ("));
        assertTrue(
                lines.get(header + 3),
                lines.get(header + 3)
                        .endsWith("model 1.00, seed 0.79: DISAGREES by more than" + " +-0.05 (why: " + Verdict.WHY
                                + ")."));
        assertTrue(run.out(), run.out().contains("  Invariants: all held in every design.\n"));

        String html = Files.readString(out.resolve("report.html"));
        int verdict = html.indexOf("<h2>Verdict</h2>");
        assertTrue(
                "the verdict is the page's first section",
                verdict > 0 && verdict < html.indexOf("<h2>", verdict + 1) && html.indexOf("<h2>") == verdict);
        assertTrue(html.substring(verdict, html.indexOf("</div>", verdict)).contains("<li class=\"disagrees\">"));
        assertTrue(html.contains("seed 0.79: DISAGREES by more than +-0.05"));

        JsonNode json = new ObjectMapper().readTree(out.resolve("result.json").toFile());
        JsonNode c = json.get("comparisons").get(0);
        assertEquals("per-netns-2018", c.get("b").asText());
        assertFalse(c.get("agrees_with_seed").booleanValue());
        assertEquals(0.05, c.get("seed_tolerance").doubleValue(), 0);
        assertEquals(0.79, c.get("seed").doubleValue(), 0);
        assertFalse(
                "kernel-6.9 has no seed figure", json.get("comparisons").get(1).has("agrees_with_seed"));
        assertFalse(json.at("/verdict/passes").booleanValue());
        assertEquals(
                "Invariants: all held in every design.",
                json.at("/verdict/invariants").asText());

        CommandLineFaultsTest.Printed checked =
                CommandLineFaultsTest.cli(tc3(tmp.getRoot().toPath().resolve("c"), "--check"));
        assertEquals(checked.err(), Main.EXIT_CHECK, checked.status());
        assertTrue(checked.err(), checked.err().startsWith("netns-lab: --check: per-netns-2018 and kernel-4.18 gave"));
        assertEquals(
                Main.EXIT_CHECK,
                CommandLineFaultsTest.cli("report", out.toString(), "--check").status());
    }

    /**
     * socket-churn-teardown, virtual: exit-barrier's loops wait for no cleanup batch, so its loop wall matches
     * net-free's, while its per-exit barrier halves its lifecycles/s; the verdict says so beside the loop wall.
     */
    @Test
    public void aThroughputAgainstTheMeasuresVerdictIsSaidBesideIt() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("teardown");
        CommandLineFaultsTest.Printed run = CommandLineFaultsTest.cli(
                "run",
                "load-tests/socket-churn-teardown.conf",
                "--scale",
                "0.05",
                "--no-progress",
                "--out",
                out.toString());
        assertEquals(run.err(), 0, run.status());
        List<String> lines = run.out().lines().toList();
        assertTrue(
                run.out(),
                lines.contains("  exit-barrier and net-free gave identical mean netns.loop_wall (0.0269 s): they differ"
                        + " in keys this workload reads, but at this load no contended lock or queue tells them apart;"
                        + " yet exit-barrier's throughput is 0.50x net-free's (476.9 vs 954.5 netns lifecycles/s):"
                        + " netns.loop_wall leaves out much of what they cost."));
        assertTrue(
                run.out(),
                lines.stream().filter(l -> l.contains("yet ")).count() == 1); // owner-exit and exit-unsafe: within 2x
    }

    /**
     * A filter delivers fewer events by design: per-listener's rate of deliveries at half of none's is not a cost the
     * proc.event measure leaves out, so the verdict does not say so.
     */
    @Test
    public void aRateOfDeliveriesIsNotSetAgainstTheMeasure() throws Exception {
        Path f = tmp.newFile("reaper.conf").toPath();
        java.nio.file.Files.writeString(
                f,
                String.join(
                        "\n",
                        "name = reaper",
                        "description = \"a reaper's filter\"",
                        "seed = \"none\"",
                        "workload { type = proc-events, processes = 2000, nonzero-exit-fraction = 0.2,",
                        "  listeners { reaper = [NONZERO_EXIT], everything = [ALL], forks = [FORK, COMM] } }",
                        "designs = [none, per-listener]",
                        ""));
        Path out = tmp.getRoot().toPath().resolve("reaper");
        CommandLineFaultsTest.Printed run =
                CommandLineFaultsTest.cli("run", f.toString(), "--no-progress", "--out", out.toString());
        assertEquals(run.err(), 0, run.status());
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(out.resolve("result.json").toFile());
        double none = json.at("/designs/0/throughput_per_s").doubleValue();
        double filtered = json.at("/designs/1/throughput_per_s").doubleValue();
        assertTrue(none + " " + filtered, filtered / none < 0.5); // the case a "yet ..." would be said on
        assertTrue(run.out(), run.out().contains("per-listener cuts the mean proc.event"));
        assertFalse(run.out(), run.out().contains("yet "));
    }

    @Test
    public void reportHtmlSaysWhichLinesCoincideAndKeepsHostAndSimulatedCpusApart() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("tc1");
        CommandLineFaultsTest.Printed p = CommandLineFaultsTest.cli(
                "run",
                "load-tests/uevent-tc1-userns.conf",
                "--scale",
                "0.001",
                "--no-progress",
                "--out",
                out.toString(),
                "--set",
                "workload.netns.userns-owned=100",
                "--set",
                "workload.injectors=100");
        assertEquals(p.err(), 0, p.status());
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(
                "per-netns-2018 and kernel-6.9 draw one line, named so",
                html.contains("per-netns-2018 = kernel-6.9 (the same line)"));
        assertTrue(
                html,
                html.contains("<br/>Host (where the JVM ran): "
                        + Runtime.getRuntime().availableProcessors() + " CPUs, Java "));
        assertTrue(html.contains(
                "<br/>Simulated machine (what the figures are of): 64 CPUs, jitter 0.1, random-seed 1, scheduler fair"
                        + " (preempt none, HZ 250, task-group root, context switch 2000 ns)<br/>"));
        assertTrue(
                "started to the second",
                java.util.regex.Pattern.compile("started \\d{4}-\\d\\d-\\d\\d" + " \\d\\d:\\d\\d:\\d\\d UTC, wall")
                        .matcher(html)
                        .find());
        assertFalse("no proc key in a uevent run's designs", html.contains("proc-monitor.kind"));
        assertTrue(html.contains("<details><summary>8 more keys the same in every design</summary>"));
        assertFalse("no line said twice", p.out().contains("per-netns-2018 and kernel-6.9 gave identical figures"));
    }

    @Test
    public void aRunWithNoSeedFigureOrBrokenInvariantPassesTheCheck() {
        // unshare-loop without exit-barrier (its seed figure) and without exit-unsafe (expected to break one)
        CommandLineFaultsTest.Printed p = CommandLineFaultsTest.cli(
                "run",
                "load-tests/unshare-loop.conf",
                "--scale",
                "0.01",
                "--no-progress",
                "--out",
                tmp.getRoot().toPath().resolve("u").toString(),
                "--set",
                "workload.workers=2",
                "--set",
                "designs=[net-free-4.16, net-free-rwsem]",
                "--check");
        assertEquals(p.err(), 0, p.status());
        assertTrue(p.out(), p.out().contains("\nverdict:\n  net-free-rwsem cuts the mean netns.loop_wall "));
        assertTrue(p.out(), p.out().contains("lower is better"));
    }
}
