package org.netnslab.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * {@code DIR/calibrated.conf}: a HOCON file for {@code --config} holding the costs {@link CostFit} fitted on
 * this host (under {@code netns-lab.model}, so every design run with it runs on this calibrated machine) and a
 * design era named after the kernel release ({@link HostFacts#eraName}) with the model's kernel-6.9+ rules:
 * the lockless uevent path with one atomic SEQNUM (lib/kobject_uevent.c since v6.9) and
 * pernet_ops_rwsem (net/core/net_namespace.c since v4.17).
 */
public final class CalibratedConf {
  private CalibratedConf() {}

  /**
   * @param host the host's facts
   * @param fit the fitted costs
   * @return the file's text
   */
  public static String text(HostFacts host, CostFit fit) {
    StringBuilder b = new StringBuilder();
    b.append("# Written by `netns-lab calibrate` on ").append(Instant.now().toString(), 0, 19).append("Z for kernel ")
        .append(host.release()).append(", ").append(host.cpus()).append(" CPUs, HZ ").append(host.hz())
        .append(", preempt ").append(host.preempt()).append(".\n")
        .append("# Costs fitted on the fit set only (calibration.json fit_set); each comment names its source.\n")
        .append("# Use: ./netns-lab run SCENARIO --config THIS_FILE --set machine.cpus=").append(host.cpus())
        .append(" --set 'designs=[\"").append(host.eraName()).append("\"]' --set baseline=").append(host.eraName())
        .append("\n# (or keep the scenario's designs: they all run on these costs, e.g. kernel-4.18 on this host).\n")
        .append("netns-lab {\n  model {\n");
    for (Map.Entry<String, CostFit.Fitted> e : fit.costs().entrySet()) {
      CostFit.Fitted f = e.getValue();
      b.append("    # ").append(f.source());
      if (!Double.isNaN(f.residual())) {
        b.append(String.format("; residual %.1f%%", 100 * f.residual()));
      }
      b.append("\n    ").append(e.getKey()).append(" = ").append(Math.round(f.value())).append("ns\n");
    }
    b.append("  }\n  designs {\n    \"").append(host.eraName()).append("\" {\n")
        .append("      description = \"this host (").append(host.release()).append(", ").append(host.cpus())
        .append(" CPUs): kernel-6.9+ rules (lockless uevent path, atomic SEQNUM, pernet_ops_rwsem) on the costs"
            + " calibrate fitted\"\n")
        .append("      uevent { serialization = lockless, seqnum-scope = global }\n")
        .append("      netns.lifecycle-lock = rwsem\n    }\n  }\n}\n");
    return b.toString();
  }

  /**
   * @param file where to write
   * @param host the host's facts
   * @param fit the fitted costs
   * @throws IOException the file cannot be written
   */
  public static void write(Path file, HostFacts host, CostFit fit) throws IOException {
    Files.writeString(file, text(host, fit));
  }
}
