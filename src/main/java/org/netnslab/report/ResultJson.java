package org.netnslab.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.WelchTest;

/**
 * Writes result.json, schema version 1 (ARCHITECTURE.md section 5), field for field, plus three
 * additions: the run's {@code overrides} ({@code --set} arguments), the invariant
 * {@code sock_inuse_sum} and a design's {@code counters} (grace periods, rcu_barrier calls, batches). Numbers that are
 * not finite (a ratio over a zero mean) are written as null, never as a non-JSON NaN.
 */
public final class ResultJson {
  /** The schema version written. */
  public static final int SCHEMA = 1;

  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ResultJson() {}

  /**
   * @param result the run
   * @return the result.json tree
   */
  public static ObjectNode toJson(RunResult result) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("schema", SCHEMA);
    root.put("scenario", result.scenario());
    root.put("description", result.description());
    root.put("scale", result.scale());
    ObjectNode machine = root.putObject("machine");
    machine.put("cpus", Runtime.getRuntime().availableProcessors());
    machine.put("java", System.getProperty("java.version"));
    machine.put("akka", akka.Version.current());
    root.put("started", result.started().toString());
    ArrayNode overrides = root.putArray("overrides");
    result.overrides().forEach(overrides::add);
    num(root, "wall_s", result.wallSeconds());
    ArrayNode designs = root.putArray("designs");
    for (DesignResult d : result.designs()) {
      ObjectNode dn = designs.addObject();
      dn.put("name", d.name());
      ObjectNode strategies = dn.putObject("strategies");
      d.strategies().forEach(strategies::put);
      ObjectNode measures = dn.putObject("measures");
      for (Map.Entry<String, MeasureSummary> e : d.measures().entrySet()) {
        MeasureSummary s = e.getValue();
        ObjectNode m = measures.putObject(e.getKey());
        m.put("unit", s.unit());
        m.put("count", s.count());
        num(m, "mean", s.mean());
        num(m, "sd", s.sd());
        num(m, "p50", s.p50());
        num(m, "p90", s.p90());
        num(m, "p99", s.p99());
        num(m, "p999", s.p999());
        num(m, "max", s.max());
        pair(m, "ci95", s.ci95()[0], s.ci95()[1]);
      }
      num(dn, "throughput_per_s", d.throughputPerSec());
      num(dn, "wall_s", d.wallSeconds());
      ObjectNode inv = dn.putObject("invariants");
      d.invariants().asMap().forEach(inv::put);
      ObjectNode counters = dn.putObject("counters");
      d.counters().forEach(counters::put);
    }
    ArrayNode ratios = root.putArray("ratios");
    for (var ratio : result.ratios()) {
      ObjectNode rn = ratios.addObject();
      rn.put("name", ratio.name());
      num(rn, "model", ratio.model());
      num(rn, "seed", ratio.seed());
    }
    ArrayNode comparisons = root.putArray("comparisons");
    for (Comparison c : result.comparisons()) {
      ObjectNode cn = comparisons.addObject();
      cn.put("measure", c.measure());
      cn.put("a", c.a());
      cn.put("b", c.b());
      num(cn, "mean_a", c.meanA());
      num(cn, "mean_b", c.meanB());
      num(cn, "ratio_b_over_a", c.ratioBOverA());
      WelchTest w = c.welch();
      if (w == null) {
        cn.putNull("welch");
      } else {
        ObjectNode wn = cn.putObject("welch");
        num(wn, "t", w.t());
        num(wn, "df", w.df());
        num(wn, "p", w.p());
        pair(wn, "ci95", w.ciLow(), w.ciHigh());
      }
    }
    return root;
  }

  /**
   * Writes result.json.
   *
   * @param result the run
   * @param file the file to write
   * @throws IOException when it cannot be written
   */
  public static void write(RunResult result, Path file) throws IOException {
    MAPPER.writeValue(file.toFile(), toJson(result));
  }

  private static void num(ObjectNode node, String key, double v) {
    if (Double.isFinite(v)) {
      node.put(key, v);
    } else {
      node.putNull(key);
    }
  }

  private static void pair(ObjectNode node, String key, double lo, double hi) {
    ArrayNode a = node.putArray(key);
    if (Double.isFinite(lo)) {
      a.add(lo);
    } else {
      a.addNull();
    }
    if (Double.isFinite(hi)) {
      a.add(hi);
    } else {
      a.addNull();
    }
  }
}
