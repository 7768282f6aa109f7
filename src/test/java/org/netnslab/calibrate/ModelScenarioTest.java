package org.netnslab.calibrate;

import static java.util.Map.entry;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.netnslab.calibrate.ModelScenario.keys;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.workload.injection.UeventInjectionWorkload;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A scenario calibrate builds as objects is the scenario its written file gives when a user runs it again: the loader
 * reads the same workload, designs and machine from both, and the file's text is the one calibrate has always written.
 */
public class ModelScenarioTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final HostFacts HOST =
            new HostFacts("6.18.44-test", 2, 250, "none", 1_500_000, "derived", 0.0, null, null, null, null);

    private static Config calibrated() throws Exception {
        CostFit fit = CostFit.fit(CalibrationJson.readSets(CostFitTest.RECORDED).fit());
        return ConfigFactory.parseString(CalibratedConf.text(HOST, fit))
                .withFallback(ConfigFactory.load())
                .resolve();
    }

    private static ModelScenario scenario(
            String name, Map<String, Object> workload, Map<String, Object> model, List<String> designs) {
        return new ModelScenario(
                name,
                name,
                List.of("Written by a test.", "./netns-lab run THIS_FILE --config calibrated.conf"),
                "a test: " + name,
                "netns-lab calibrate, prediction set (measured on this host)",
                workload,
                model,
                2,
                designs,
                1);
    }

    /** The proc connector listeners' load, as the prediction of the proc listeners builds it. */
    private static ModelScenario listeners() {
        return scenario(
                "proc-listeners-8000",
                ProcRows.listenersWorkload(8000, 875687, 219660),
                ProcRows.LISTENERS_MODEL,
                List.of(HOST.eraName()));
    }

    @Test
    public void theBuiltScenarioIsTheOneItsFileGives() throws Exception {
        Config system = calibrated();
        ScenarioLoader loader = new ScenarioLoader(system.getConfig("netns-lab"));
        List<ModelScenario> scenarios = List.of(
                scenario(
                        "beyond-tc1-n100",
                        ModelScenario.injection(100, 100, 200),
                        Map.of(),
                        List.of(HOST.eraName(), "kernel-4.18", "per-netns-2018")),
                scenario("unshare-loops-40x100", ModelScenario.churn(40, 100), Map.of(), List.of(HOST.eraName())),
                listeners(),
                scenario(
                        "proc-scan-2000",
                        ProcRows.SCAN_WORKLOAD,
                        ProcRows.scanModel(2069, 5),
                        List.of(HOST.eraName())));
        for (ModelScenario s : scenarios) {
            Path file = s.file(tmp.getRoot().toPath());
            Files.writeString(file, s.text());
            Scenario built = loader.load(s.config(), file.toString());
            Scenario read = loader.load(file, List.of(), 1.0);
            assertEquals(s.name(), read, built);
            assertEquals("calib-" + s.name(), built.name());
            assertEquals(s.designs().size(), built.designs().size());
            if (built.workload() instanceof UeventInjectionWorkload w) { // the probe's stop pipe wakes its listeners
                assertTrue(w.listenersWokenAtEnd());
            }
        }
    }

    @Test
    public void theFileSaysTheScenarioAsCalibrateWritesIt() {
        assertEquals(
                "# Written by a test.\n"
                        + "# ./netns-lab run THIS_FILE --config calibrated.conf\n"
                        + "name = calib-proc-listeners-8000\n"
                        + "description = \"a test: proc-listeners-8000\"\n"
                        + "seed = \"netns-lab calibrate, prediction set (measured on this host)\"\n"
                        + "workload {\n"
                        + "  type = proc-events\n"
                        + "  processes = 8000\n"
                        + "  nonzero-exit-fraction = 0.1\n"
                        + "  exit-after-forks = 0\n"
                        + "  process-interval = 875687ns\n"
                        + "  exec-delay = 219660ns\n"
                        + "  listeners { all = [ALL], exit = [EXIT], nonzero-exit = [NONZERO_EXIT] }\n"
                        + "}\n"
                        + "model { proc-connector { listener-rcvbuf = 536870912, listener-rcvbuf-option = so-rcvbufforce"
                        + " } }\n"
                        + "execution = virtual\n"
                        + "machine { cpus = 2 }\n"
                        + "designs = [\"host-6.18.44-test\"]\n"
                        + "baseline = \"host-6.18.44-test\"\n",
                listeners().text());
    }

    /** A string that HOCON would not read back as itself unquoted is quoted. */
    @Test
    public void aValueThatIsNoWordIsQuoted() {
        ModelScenario s = scenario(
                "q",
                keys(entry("type", "netns-churn"), entry("odd", "true"), entry("spaced", "a b"), entry("exp", "1e5")),
                Map.of(),
                List.of("d"));
        assertEquals(
                "workload {\n  type = netns-churn\n  odd = \"true\"\n  spaced = \"a b\"\n  exp = \"1e5\"\n}\n",
                s.text().substring(s.text().indexOf("workload {"), s.text().indexOf("execution")));
    }

    /**
     * A /proc scan load runs as many scans as it asks for, also with fewer events than scans (calibrate's scan load is
     * one process: three events): 5 and 2 scans of 2069 entries.
     */
    @Test
    public void aScanLoadRunsTheScansItAsksFor() throws Exception {
        for (int scans : new int[] {5, 2}) {
            ModelScenario s = scenario(
                    "proc-scan-" + scans,
                    ProcRows.SCAN_WORKLOAD,
                    ProcRows.scanModel(2069, scans),
                    List.of(HOST.eraName()));
            org.netnslab.metrics.DesignResult d = ModelRun.run(
                            calibrated(), s, tmp.getRoot().toPath())
                    .designs()
                    .get(0);
            assertEquals(Long.valueOf(scans), d.counters().get("scans"));
            assertEquals(scans, d.recorders().get("proc.scan").count());
        }
    }
}
