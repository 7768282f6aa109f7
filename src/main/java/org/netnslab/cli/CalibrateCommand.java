package org.netnslab.cli;

import com.typesafe.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.netnslab.calibrate.Beyond;
import org.netnslab.calibrate.CalibratedConf;
import org.netnslab.calibrate.CalibrationJson;
import org.netnslab.calibrate.CalibrationReport;
import org.netnslab.calibrate.CostFit;
import org.netnslab.calibrate.HostFacts;
import org.netnslab.calibrate.Predictions;
import org.netnslab.calibrate.ProbeBuilder;
import org.netnslab.calibrate.ProbeException;
import org.netnslab.calibrate.ProbeRunner;
import org.netnslab.calibrate.ProbeSet;
import org.netnslab.run.RunFailure;
import org.netnslab.scenario.ScenarioException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code calibrate}: measure this host's kernel with the probe programs, fit the model's costs on the fit set,
 * predict the prediction set with them, and write calibration.json, calibrated.conf, report.html and the
 * model's scenarios into {@code --out}. Exit 0 done (misses are results), 2 something the probes need is
 * missing or refused (one line naming it and what to do) or a bad option, 1 a model run or a write failed.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true, version = Main.VERSION,
    description = "Measure this host's kernel with probe programs, fit the model's costs on simple probes (fit set)"
        + " and compare its predictions with contended loads it was not fitted on (prediction set).")
final class CalibrateCommand implements Callable<Integer> {
  @Option(names = "--out", paramLabel = "DIR", description = "output folder (default target/netns-lab/calibrate-<timestamp>)")
  Path out;

  @Option(names = "--quick", description = "smaller probes and loads (about 15 s instead of 1-2 min; for CI)")
  boolean quick;

  @Option(names = "--only", paramLabel = "PARTS", split = ",",
      description = "run only these parts: uevent, proc, lifecycle (default all)")
  List<String> only = new ArrayList<>();

  @Option(names = "--from", paramLabel = "FILE",
      description = "no probes: fit and predict from the measurements in a saved calibration.json")
  Path from;

  @Option(names = "--timeout", paramLabel = "S", defaultValue = "300",
      description = "the longest one probe run may take, s (default ${DEFAULT-VALUE})")
  long timeoutSeconds;

  /**
   * The environment that finds the C compiler: the process's, with {@code CC} from the system property
   * {@code netns-lab.cc} when set (how a test stands in a missing compiler without changing PATH).
   */
  static Map<String, String> compilerEnvironment() {
    Map<String, String> env = new HashMap<>(System.getenv());
    String cc = System.getProperty("netns-lab.cc");
    if (cc != null) {
      env.put("CC", cc);
    }
    return env;
  }

  /** Variables added to the probes' environment: NETNS_LAB_PROBE_FAIL from {@code netns-lab.probe-fail} (tests). */
  static Map<String, String> probeEnvironment() {
    String fail = System.getProperty("netns-lab.probe-fail");
    return fail == null ? Map.of() : Map.of("NETNS_LAB_PROBE_FAIL", fail);
  }

  /**
   * calibrate writes only into a folder that is missing, empty, or an earlier calibrate's (it holds a
   * calibration.json), so it never overwrites files it did not write.
   *
   * @return why dir is refused, or null
   */
  static String refusedOutput(Path dir) {
    if (!Files.exists(dir)) {
      return null;
    }
    if (!Files.isDirectory(dir)) {
      return "is a file, not a folder";
    }
    try (var entries = Files.list(dir)) {
      if (entries.findAny().isEmpty() || Files.isRegularFile(dir.resolve("calibration.json"))) {
        return null;
      }
    } catch (IOException e) {
      return "cannot be read: " + e.getMessage();
    }
    return "holds files and no calibration.json: not an earlier calibrate's folder; name a new or empty folder";
  }

  @Override
  public Integer call() {
    Set<String> parts = new LinkedHashSet<>(only.isEmpty() ? ProbeSet.PARTS : only);
    for (String p : parts) {
      if (!ProbeSet.PARTS.contains(p)) {
        System.err.println("netns-lab: calibrate --only: unknown part '" + p + "'; parts: " + String.join(", ", ProbeSet.PARTS));
        return Main.EXIT_CONFIG;
      }
    }
    if (timeoutSeconds < 1 || timeoutSeconds > 3600) {
      System.err.println("netns-lab: calibrate --timeout: must be 1..3600 s, got " + timeoutSeconds);
      return Main.EXIT_CONFIG;
    }
    Path dir = out != null ? out : Path.of("target", "netns-lab",
        "calibrate-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    String refused = refusedOutput(dir);
    if (refused != null) {
      System.err.println("netns-lab: calibrate --out " + dir + ": " + refused);
      return Main.EXIT_CONFIG;
    }
    try {
      HostFacts host;
      ProbeSet set;
      if (from != null) {
        if (!Files.isRegularFile(from)) {
          System.err.println("netns-lab: calibrate --from " + from + ": " + (Files.isDirectory(from)
              ? "is a folder; name its calibration.json" : "no such file"));
          return Main.EXIT_CONFIG;
        }
        CalibrationJson.Recorded recorded;
        try {
          recorded = CalibrationJson.readRecorded(from);
        } catch (IOException e) {
          System.err.println("netns-lab: calibrate --from " + e.getMessage());
          return Main.EXIT_CONFIG;
        }
        set = recorded.set();
        host = recorded.host();
        System.err.println("calibrate: fitting and predicting from " + from + " (measured on " + host.release() + ")");
      } else {
        host = HostFacts.read();
        if (host.loadAverage1() > host.cpus()) {
          System.err.printf("calibrate: warning: the machine is busy (load average %.2f over %d CPUs): figures will be"
              + " noisy%n", host.loadAverage1(), host.cpus());
        }
        String home = System.getProperty("netns-lab.home", ".");
        Path bin = ProbeBuilder.build(Path.of(home, "target", "probes"), compilerEnvironment());
        ProbeRunner runner = new ProbeRunner(bin, timeoutSeconds, probeEnvironment());
        Stops.onStop = runner::stopCurrent;
        try {
          set = ProbeSet.measure(runner, quick, parts, System.err);
        } finally {
          Stops.onStop = null;
        }
      }
      Files.createDirectories(dir);
      CostFit fit = CostFit.fit(set.fit());
      Path conf = dir.resolve("calibrated.conf");
      CalibratedConf.write(conf, host, fit);
      Config system = LoadedScenario.systemConfig(conf);
      List<Predictions.Row> rows = new Predictions(system, host.eraName(), host.cpus(), dir.resolve("scenarios"),
          System.err).predict(set.prediction());
      List<Beyond.Figure> beyond = List.of();
      var tc1 = set.prediction().stream().filter(l -> "tc1".equals(l.path("load").asText())).toList();
      if (!tc1.isEmpty()) {
        int n = tc1.get(tc1.size() / 2).path("injectors").asInt();
        beyond = Beyond.run(system, host.eraName(), host.cpus(), n, Math.max(10, 20_000 / n), dir.resolve("scenarios"));
      }
      CalibrationJson.write(dir.resolve("calibration.json"), Main.VERSION, quick, host, set, fit, rows, beyond);
      CalibrationReport.html(dir.resolve("report.html"), host, fit, rows, beyond);
      System.out.print(CalibrationReport.console(host, fit, rows, beyond));
      System.out.println("calibration: " + dir.resolve("calibration.json"));
      System.out.println("config:      " + conf + "   (use with --config)");
      System.out.println("report:      " + dir.resolve("report.html"));
      return 0;
    } catch (ProbeException e) {
      System.err.println("netns-lab: calibrate: " + e.line());
      return Main.EXIT_CONFIG;
    } catch (ScenarioException e) {
      System.err.println("netns-lab: calibrate: " + e.getMessage());
      return Main.EXIT_FAILED;
    } catch (RunFailure e) {
      System.err.println("netns-lab: calibrate: a model run failed: " + e.getMessage());
      return Main.EXIT_FAILED;
    } catch (IOException e) {
      System.err.println("netns-lab: calibrate: " + e.getMessage());
      return Main.EXIT_FAILED;
    }
  }
}
