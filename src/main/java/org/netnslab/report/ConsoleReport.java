package org.netnslab.report;

import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.MeasureSummary;

/**
 * The console summary of a run: a table per design (count, mean, sd, p50, p99, max in us, the
 * throughput, every invariant counter), then each comparison with its ratio beside the seed's and
 * Welch's test printed as R prints it. It renders a {@link RunRecord} only, so a run prints the same
 * summary as {@code netns-lab report} does from the saved results; a record read back with notes
 * (files that could not be read) prints them first.
 */
public final class ConsoleReport {
  private ConsoleReport() {}

  /**
   * @param r the run
   * @return the summary text
   */
  public static String render(RunRecord r) {
    StringBuilder sb = new StringBuilder();
    r.notes().forEach(n -> sb.append(String.format("%nnote: %s", n)));
    sb.append(String.format("%nscenario %s (scale %s): %s%nseed: %s%n", r.scenario(), fmtScale(r.scale()),
        r.description(), seed(r)));
    for (DesignRecord d : r.designs()) {
      sb.append(String.format("%n== %s  %s%n", d.name(), d.strategies()));
      sb.append(String.format("  %-22s %6s %10s %12s %12s %12s %12s %12s%n", "measure", "unit", "count", "mean", "sd",
          "p50", "p99", "max"));
      for (Map.Entry<String, MeasureSummary> e : d.measures().entrySet()) {
        MeasureSummary s = e.getValue();
        sb.append(String.format("  %-22s %6s %10d %12s %12s %12s %12s %12s%n", e.getKey(), s.unit(), s.count(),
            num(s.mean()), num(s.sd()), num(s.p50()), num(s.p99()), num(s.max())));
      }
      sb.append(String.format("  throughput %,.0f %s/s, counted phase %.2f s%n", d.throughputPerSec(),
          d.throughputUnit() == null ? "" : d.throughputUnit(), d.wallSeconds()));
      if (!d.counters().isEmpty()) {
        sb.append("  counters:");
        d.counters().forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        sb.append('\n');
      }
      sb.append("  invariants:");
      d.invariants().forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
      sb.append('\n');
    }
    for (var ratio : r.ratios()) {
      sb.append(String.format("%n%s = %.3f; seed: %.2f", ratio.name(), ratio.model(), ratio.seed()));
    }
    if (!r.ratios().isEmpty()) {
      sb.append('\n');
    }
    if (r.designs().stream().anyMatch(d -> d.wallSeconds() < 2)) {
      sb.append(String.format("%nnote: a counted phase took under 2 s; at this scale JIT warm-up and scheduling"
          + " noise dominate, so ratios between designs can change from run to run. Use --scale 0.1 or more for"
          + " figures.%n"));
    }
    for (Comparison c : r.comparisons()) {
      Double seed = r.seedRatios().get(c.b());
      String unit = r.designs().get(0).measures().get(c.measure()).unit();
      sb.append(String.format("%n%s: %s / %s = %.3f (mean %s / %s %s)%s%n", c.measure(), c.b(), c.a(),
          c.ratioBOverA(), num(c.meanB()), num(c.meanA()), unit, seed == null ? "" : String.format("; seed: %.3f", seed)));
      if (c.welch() != null) {
        sb.append(c.welch().formatLikeR(c.a(), c.b(), unit));
      } else {
        sb.append("  no Welch test: each design needs at least 2 values with some spread\n");
      }
    }
    return sb.toString();
  }

  /** @return the seed, or a word that it was not saved */
  static String seed(RunRecord r) {
    return r.seed() == null ? "(not saved with these results)" : r.seed();
  }

  /** Two decimals for ordinary values, four significant digits for small ones (seconds of a short loop). */
  private static String num(double v) {
    return Math.abs(v) >= 10 || v == 0 ? String.format("%.2f", v) : String.format("%.4g", v);
  }

  private static String fmtScale(double s) {
    return s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
  }
}
