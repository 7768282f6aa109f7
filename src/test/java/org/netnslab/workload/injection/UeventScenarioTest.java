package org.netnslab.workload.injection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.cli.Main;
import org.netnslab.metrics.RunResult;
import org.netnslab.report.ConsoleReport;
import org.netnslab.report.HgrmFiles;
import org.netnslab.report.ResultJson;
import org.netnslab.report.RunRecord;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.ScenarioRunner;
import org.netnslab.scenario.TinyScenario;
import org.scalatestplus.junit.JUnitSuite;

public class UeventScenarioTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    /** Live: these runs go through the test kit's actor system (virtual is the default for a scenario that does not say). */
    private static final String SCENARIO =
            TinyScenario.tc2("kernel-4.18, per-netns-2018, kernel-6.9") + "execution = live\n";

    private static final RunSettings SETTINGS =
            new RunSettings(Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofMillis(200));

    private static List<String> fieldNames(JsonNode n) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    @Test
    public void tinyScenarioWritesResultJsonSchema2FieldByField() throws Exception {
        Path file = tmp.newFile("tiny.conf").toPath();
        Files.writeString(file, SCENARIO);
        Scenario scenario = new ScenarioLoader().load(file, List.of(), 0.05);
        Instant before = Instant.now();
        RunResult result = new ScenarioRunner(testKit.system(), SETTINGS, RunObserver.SILENT).run(scenario);
        Path out = tmp.newFolder("out").toPath();
        RunRecord record = RunRecord.of(result, RunRecord.Machine.current());
        ResultJson.write(record, out.resolve("result.json"));
        List<Path> hgrm = HgrmFiles.write(result, out);

        JsonNode root = new ObjectMapper().readTree(out.resolve("result.json").toFile());
        assertEquals(
                List.of(
                        "schema",
                        "scenario",
                        "description",
                        "scale",
                        "shape",
                        "verdict",
                        "machine",
                        "started",
                        "overrides",
                        "wall_s",
                        "execution",
                        "repeat",
                        "replicates",
                        "designs",
                        "ratios",
                        "comparisons"),
                fieldNames(root));
        assertEquals("live", root.get("execution").get("mode").asText());
        // real threads: the host's scheduler ran them, none of the simulated machine's keys did anything
        assertEquals(
                "[\"cpus\",\"jitter\",\"scheduler\",\"preempt\",\"hz\",\"base_slice_ns\",\"context_switch_ns\","
                        + "\"task_group\"]",
                root.at("/execution/machine/no_effect").toString());
        assertEquals(0, root.get("overrides").size());
        assertEquals(2, root.get("schema").asInt());
        assertEquals(1, root.get("repeat").asInt());
        assertEquals(1, root.get("replicates").size());
        assertEquals("tiny-tc2", root.get("scenario").asText());
        assertEquals("TC2 in miniature", root.get("description").asText());
        assertEquals(0.05, root.get("scale").asDouble(), 0);
        assertEquals(
                Runtime.getRuntime().availableProcessors(),
                root.get("machine").get("cpus").asInt());
        assertEquals(
                System.getProperty("java.version"),
                root.get("machine").get("java").asText());
        assertEquals("2.6.21", root.get("machine").get("akka").asText());
        assertTrue(!Instant.parse(root.get("started").asText()).isBefore(before.minusSeconds(1)));
        assertTrue(root.get("wall_s").asDouble() > 0);

        JsonNode designs = root.get("designs");
        assertEquals(3, designs.size());
        String[][] strategies = {{"global-owner", "global"}, {"per-netns-owner", "per-netns"}, {"lockless", "global"}};
        String[] names = {"kernel-4.18", "per-netns-2018", "kernel-6.9"};
        for (int i = 0; i < 3; i++) {
            JsonNode d = designs.get(i);
            assertEquals(
                    List.of("name", "strategies", "measures", "throughput_per_s", "wall_s", "invariants", "counters"),
                    fieldNames(d));
            assertEquals(names[i], d.get("name").asText());
            assertEquals(
                    strategies[i][0],
                    d.get("strategies").get("uevent.serialization").asText());
            assertEquals(
                    strategies[i][1],
                    d.get("strategies").get("uevent.seqnum-scope").asText());
            // 5 netns x 400 x 0.05 = 100 counted transactions, warm-up left out; 2 listeners per netns
            JsonNode tx = d.get("measures").get("uevent.transaction");
            assertEquals(
                    List.of("unit", "description", "count", "mean", "sd", "p50", "p90", "p99", "p999", "max", "ci95"),
                    fieldNames(tx));
            assertEquals("us", tx.get("unit").asText());
            assertTrue(tx.get("description").asText().startsWith("one injected uevent, as its injector times it"));
            assertEquals(100, tx.get("count").asLong());
            assertEquals(
                    200, d.get("measures").get("uevent.delivery").get("count").asLong());
            double mean = tx.get("mean").asDouble();
            assertTrue(tx.get("ci95").get(0).asDouble() <= mean
                    && mean <= tx.get("ci95").get(1).asDouble());
            assertTrue(tx.get("p50").asDouble() <= tx.get("p90").asDouble());
            assertTrue(tx.get("p90").asDouble() <= tx.get("p99").asDouble());
            assertTrue(tx.get("p99").asDouble() <= tx.get("p999").asDouble());
            assertTrue(tx.get("p999").asDouble() <= tx.get("max").asDouble() * 1.001);
            double wall = d.get("wall_s").asDouble();
            assertEquals(100 / wall, d.get("throughput_per_s").asDouble(), 1e-6 * (100 / wall));
            JsonNode inv = d.get("invariants");
            assertEquals(
                    List.of(
                            "seqnum_out_of_order",
                            "seqnum_duplicates",
                            "lost_without_enobufs",
                            "enobufs",
                            "cross_netns_deliveries",
                            "eperm",
                            "use_after_free",
                            "leaked",
                            "sock_inuse_sum"),
                    fieldNames(inv));
            for (String k : List.of(
                    "seqnum_duplicates",
                    "lost_without_enobufs",
                    "enobufs",
                    "cross_netns_deliveries",
                    "eperm",
                    "use_after_free",
                    "leaked")) {
                assertEquals(names[i] + " " + k, 0, inv.get(k).asLong());
            }
            if (i < 2) {
                assertEquals(0, inv.get("seqnum_out_of_order").asLong());
            }
            assertTrue(hgrm.contains(out.resolve(names[i] + ".uevent.transaction.hgrm")));
            assertTrue(Files.readString(out.resolve(names[i] + ".uevent.delivery.hgrm"))
                    .contains("Value     Percentile"));
        }

        JsonNode comparisons = root.get("comparisons");
        assertEquals(2, comparisons.size());
        for (int i = 0; i < 2; i++) {
            JsonNode c = comparisons.get(i);
            List<String> seed = c.has("seed") ? List.of("seed", "seed_tolerance", "agrees_with_seed") : List.of();
            List<String> fields = new java.util.ArrayList<>(
                    List.of("measure", "a", "b", "mean_a", "mean_b", "ratio_b_over_a", "designs_differ_in_used_keys"));
            fields.addAll(seed);
            fields.addAll(List.of("verdict", "replicate_means_a", "replicate_means_b", "ratio_ci95", "welch"));
            assertEquals(fields, fieldNames(c));
            assertTrue(
                    "the designs differ in uevent keys, which injection uses",
                    c.get("designs_differ_in_used_keys").asBoolean());
            assertEquals("uevent.transaction", c.get("measure").asText());
            assertEquals("kernel-4.18", c.get("a").asText());
            assertEquals(names[i + 1], c.get("b").asText());
            assertEquals(
                    designs.get(0)
                            .get("measures")
                            .get("uevent.transaction")
                            .get("mean")
                            .asDouble(),
                    c.get("mean_a").asDouble(),
                    1e-9);
            assertEquals(
                    c.get("mean_b").asDouble() / c.get("mean_a").asDouble(),
                    c.get("ratio_b_over_a").asDouble(),
                    1e-9);
            assertEquals(
                    c.get("mean_a").asDouble(),
                    c.get("replicate_means_a").get(0).asDouble(),
                    0);
            assertTrue(c.get("welch").isNull()); // one run: no test, no interval
            assertTrue(c.get("ratio_ci95").isNull());
        }
        String console = ConsoleReport.render(record);
        assertTrue(console, console.contains("uevent.transaction: per-netns-2018 / kernel-4.18 = "));
        assertTrue(console, console.contains("; seed: 0.900"));
        assertTrue(console, console.contains("no significance can be claimed from one run"));
        assertTrue(console, !console.contains("Welch Two Sample t-test"));
    }

    @Test
    public void moreInjectorsThanNetnsSplitEachNetnsCountExactly() throws Exception {
        Path file = tmp.newFile("split.conf").toPath();
        Files.writeString(
                file,
                SCENARIO.replace("injectors = 4", "injectors = 12")
                        .replace("[kernel-4.18, per-netns-2018, kernel-6.9]", "[per-netns-2018]")
                        .replace("seed-ratios { \"per-netns-2018\" = 0.90 }", "")); // the baseline has none
        Scenario scenario = new ScenarioLoader().load(file, List.of(), 0.0275); // 11 per netns over 2-3 injectors each
        RunResult r = new ScenarioRunner(testKit.system(), SETTINGS, RunObserver.SILENT).run(scenario);
        assertEquals(
                55, r.designs().get(0).recorders().get("uevent.transaction").count());
        assertEquals(110, r.designs().get(0).recorders().get("uevent.delivery").count());
        assertEquals(0, r.designs().get(0).invariants().lostWithoutEnobufs());
        assertEquals(List.of(), r.comparisons());
    }

    @Test
    public void cliExitStatusIsTwoForBadConfigurationAndZeroForARun() throws Exception {
        Path bad = tmp.newFile("bad.conf").toPath();
        Files.writeString(bad, SCENARIO.replace("injectors = 4", "injectors = 0"));
        assertEquals(2, Main.execute("validate", bad.toString()));
        assertEquals(2, Main.execute("run", bad.toString(), "--no-progress"));
        assertEquals(2, Main.execute("run", "--scale", "abc", bad.toString()));
        assertEquals(2, Main.execute("frobnicate"));
        Path good = tmp.newFile("good.conf").toPath();
        Files.writeString(good, SCENARIO);
        assertEquals(0, Main.execute("validate", good.toString()));
        Path out = tmp.getRoot().toPath().resolve("cli-out");
        assertEquals(
                0,
                Main.execute(
                        "run",
                        good.toString(),
                        "--scale",
                        "0.01",
                        "--out",
                        out.toString(),
                        "--no-progress",
                        "--set",
                        "designs=[kernel-6.9]"));
        JsonNode root = new ObjectMapper().readTree(out.resolve("result.json").toFile());
        assertEquals(1, root.get("designs").size());
        assertEquals(
                20,
                root.get("designs")
                        .get(0)
                        .get("measures")
                        .get("uevent.transaction")
                        .get("count")
                        .asLong());
        assertTrue(Files.exists(out.resolve("kernel-6.9.uevent.transaction.hgrm")));
    }

    /**
     * Live, faults.netns-actor fails every second message a netns actor gets: per-netns-2018's injections go through
     * it and half of them come back EAGAIN, not sent again. The failed ones are counted beside the transactions (which
     * add up to the counted injections with them) and the verdict names the loss; the designs whose injections do not
     * go through the actor lose nothing.
     */
    @Test
    public void injectionsAFaultFailedAreCountedAndTheVerdictNamesThem() throws Exception {
        Path file = tmp.newFile("faulty.conf").toPath();
        Files.writeString(file, SCENARIO + "model.faults.netns-actor = 2\n");
        Scenario scenario = new ScenarioLoader().load(file, List.of(), 0.05);
        RunResult result = new ScenarioRunner(testKit.system(), SETTINGS, RunObserver.SILENT).run(scenario);
        String failed = org.netnslab.metrics.Losses.INJECTIONS_FAILED;
        List<String> lost = new ArrayList<>();
        for (var d : result.designs()) {
            long counted = d.recorders().get("uevent.transaction").count();
            Long n = d.counters().get(failed);
            if (d.name().equals("per-netns-2018")) {
                assertTrue(d.counters().toString(), n != null && n > 0);
                lost.add(String.format(java.util.Locale.ROOT, "%s %s %,d", d.name(), failed, n));
            }
            assertEquals(
                    d.name(),
                    result.designs()
                            .get(0)
                            .recorders()
                            .get("uevent.transaction")
                            .count(),
                    counted + (n == null ? 0 : n));
        }
        assertEquals(1, lost.size());
        String console = org.netnslab.report.ConsoleReport.render(RunRecord.of(result, RunRecord.Machine.current()));
        assertTrue(console, console.contains("Lost before the figures: " + lost.get(0) + ". Those designs' measures"));
    }
}
