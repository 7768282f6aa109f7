package org.netnslab.report;

import static org.netnslab.report.JsonFields.at;
import static org.netnslab.report.JsonFields.num;
import static org.netnslab.report.JsonFields.pair;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.RunResult;
import org.netnslab.metrics.WelchTest;

/**
 * result.json, schema version 1 (ARCHITECTURE.md section 5), field for field, plus three additions:
 * the run's {@code overrides} ({@code --set} arguments), the invariant {@code sock_inuse_sum} and a
 * design's {@code counters} (grace periods, rcu_barrier calls, batches). Numbers that are not finite
 * (a ratio over a zero mean) are written as null, never as a non-JSON NaN, and read back as NaN.
 *
 * <p>{@link #read} is {@link #toJson}'s inverse for every field schema 1 holds; what it has no key
 * for (the seed, the seed's ratios, throughput units and series, percentile distributions) is left
 * null or empty in the record it returns, for {@link ResultsFolder} to fill in from the other files.
 */
public final class ResultJson {
  /** The schema version written, and the only one read. */
  public static final int SCHEMA = 1;

  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private ResultJson() {}

  /**
   * @param result the run
   * @return the result.json tree
   */
  public static ObjectNode toJson(RunRecord result) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("schema", SCHEMA);
    root.put("scenario", result.scenario());
    root.put("description", result.description());
    root.put("scale", result.scale());
    ObjectNode machine = root.putObject("machine");
    machine.put("cpus", result.machine().cpus());
    machine.put("java", result.machine().java());
    machine.put("akka", result.machine().akka());
    root.put("started", result.started().toString());
    ArrayNode overrides = root.putArray("overrides");
    result.overrides().forEach(overrides::add);
    num(root, "wall_s", result.wallSeconds());
    ArrayNode designs = root.putArray("designs");
    for (DesignRecord d : result.designs()) {
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
      d.invariants().forEach(inv::put);
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
  public static void write(RunRecord result, Path file) throws IOException {
    MAPPER.writeValue(file.toFile(), toJson(result));
  }

  /**
   * Reads a result.json back.
   *
   * @param file the file
   * @return its record: no seed, seed ratios, throughput units or series, percentiles or notes
   * @throws ReportInputException naming the file and what is wrong: missing, not JSON, a schema other
   *     than {@value #SCHEMA}, or a field missing or of the wrong type (named by its path)
   */
  public static RunRecord read(Path file) throws ReportInputException {
    JsonFields.Parsed parsed = JsonFields.parse(MAPPER, file, SCHEMA);
    JsonFields f = parsed.fields();
    JsonNode root = parsed.root();
    JsonNode machine = f.object(root, "", "machine");
    Instant started;
    try {
      started = Instant.parse(f.text(root, "", "started"));
    } catch (DateTimeParseException e) {
      throw new ReportInputException(file, "started: not an ISO-8601 instant (" + e.getMessage() + ")", e);
    }
    List<String> overrides = new ArrayList<>();
    JsonNode on = f.array(root, "", "overrides");
    for (int i = 0; i < on.size(); i++) {
      overrides.add(f.textAt(on, "overrides", i));
    }
    List<DesignRecord> designs = new ArrayList<>();
    JsonNode dn = f.array(root, "", "designs");
    for (int i = 0; i < dn.size(); i++) {
      designs.add(design(f, f.objectAt(dn, "designs", i), at("designs", i)));
    }
    List<RunResult.DerivedRatio> ratios = new ArrayList<>();
    JsonNode rn = f.array(root, "", "ratios");
    for (int i = 0; i < rn.size(); i++) {
      String p = at("ratios", i);
      JsonNode r = f.objectAt(rn, "ratios", i);
      ratios.add(new RunResult.DerivedRatio(f.text(r, p, "name"), f.number(r, p, "model"), f.number(r, p, "seed")));
    }
    List<Comparison> comparisons = new ArrayList<>();
    JsonNode cn = f.array(root, "", "comparisons");
    for (int i = 0; i < cn.size(); i++) {
      comparisons.add(comparison(f, f.objectAt(cn, "comparisons", i), at("comparisons", i)));
    }
    return new RunRecord(f.text(root, "", "scenario"), f.text(root, "", "description"), null,
        f.number(root, "", "scale"), new RunRecord.Machine((int) f.whole(machine, "machine", "cpus"),
            f.text(machine, "machine", "java"), f.text(machine, "machine", "akka")), started,
        f.number(root, "", "wall_s"), overrides, designs, ratios, comparisons, Map.of(), List.of());
  }

  private static DesignRecord design(JsonFields f, JsonNode d, String p) throws ReportInputException {
    Map<String, String> strategies = new LinkedHashMap<>();
    JsonNode sn = f.object(d, p, "strategies");
    for (Iterator<String> it = sn.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      strategies.put(k, f.text(sn, at(p, "strategies"), k));
    }
    Map<String, MeasureSummary> measures = new LinkedHashMap<>();
    JsonNode mn = f.object(d, p, "measures");
    for (Iterator<String> it = mn.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      String mp = at(at(p, "measures"), k);
      JsonNode m = f.object(mn, at(p, "measures"), k);
      measures.put(k, new MeasureSummary(f.text(m, mp, "unit"), f.whole(m, mp, "count"), f.number(m, mp, "mean"),
          f.number(m, mp, "sd"), f.number(m, mp, "p50"), f.number(m, mp, "p90"), f.number(m, mp, "p99"),
          f.number(m, mp, "p999"), f.number(m, mp, "max"), f.pair(m, mp, "ci95")));
    }
    return new DesignRecord(f.text(d, p, "name"), strategies, measures, f.number(d, p, "throughput_per_s"), null,
        f.number(d, p, "wall_s"), counts(f, f.object(d, p, "invariants"), at(p, "invariants")),
        counts(f, f.object(d, p, "counters"), at(p, "counters")), List.of(), Map.of());
  }

  private static Map<String, Long> counts(JsonFields f, JsonNode obj, String p) throws ReportInputException {
    Map<String, Long> m = new LinkedHashMap<>();
    for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      m.put(k, f.whole(obj, p, k));
    }
    return m;
  }

  private static Comparison comparison(JsonFields f, JsonNode c, String p) throws ReportInputException {
    double meanA = f.number(c, p, "mean_a");
    double meanB = f.number(c, p, "mean_b");
    JsonNode w = f.field(c, p, "welch");
    WelchTest welch = null;
    if (!w.isNull()) {
      String wp = at(p, "welch");
      w = f.object(c, p, "welch");
      double[] ci = f.pair(w, wp, "ci95");
      // WelchTest's means are the comparison's own (x = a, y = b), which schema 1 writes once
      welch = new WelchTest(f.number(w, wp, "t"), f.number(w, wp, "df"), f.number(w, wp, "p"), ci[0], ci[1], meanA,
          meanB);
    }
    return new Comparison(f.text(c, p, "measure"), f.text(c, p, "a"), f.text(c, p, "b"), meanA, meanB,
        f.number(c, p, "ratio_b_over_a"), welch);
  }
}
