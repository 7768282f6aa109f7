package org.netnslab.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.RunResult;

/**
 * Writes one HdrHistogram percentile distribution per design and measure,
 * {@code <design>.<measure>.hgrm}, values in the measure's unit (us for latencies) (plot with HdrHistogram's plotter or any tool that
 * reads .hgrm).
 */
public final class HgrmFiles {
  private HgrmFiles() {}

  /**
   * @param result the run
   * @param dir the output folder
   * @return the files written
   * @throws IOException when a file cannot be written
   */
  public static List<Path> write(RunResult result, Path dir) throws IOException {
    List<Path> written = new ArrayList<>();
    for (DesignResult d : result.designs()) {
      for (Map.Entry<String, LatencyRecorder> e : d.recorders().entrySet()) {
        Path file = dir.resolve(d.name() + "." + e.getKey() + ".hgrm");
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
          e.getValue().histogram().outputPercentileDistribution(out, e.getValue().perUnit());
        }
        written.add(file);
      }
    }
    return written;
  }
}
