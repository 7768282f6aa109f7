package org.netnslab.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The workload types a scenario may name, each with its parser: the one place {@code workload.type}
 * is switched on.
 */
public final class WorkloadParsers {
  private WorkloadParsers() {}

  /** Parser by {@code workload.type}, in the order error messages list them. */
  private static final Map<String, WorkloadParser<?>> BY_TYPE = byType(
      new UeventInjectionParser(), new NetnsChurnParser(), new ProcEventsParser());

  private static Map<String, WorkloadParser<?>> byType(WorkloadParser<?>... parsers) {
    Map<String, WorkloadParser<?>> m = new LinkedHashMap<>();
    for (WorkloadParser<?> p : parsers) {
      m.put(p.type(), p);
    }
    return Collections.unmodifiableMap(m);
  }

  /**
   * Reads {@code workload}: its type, then the type's own keys.
   *
   * @param c the scenario's checker
   * @return the workload, or null when the block or its type is missing or unknown (a problem is recorded)
   */
  static Workload parse(HoconChecker c) {
    if (c.object("workload") == null) {
      return null;
    }
    String type = c.string("workload.type", null);
    if (type == null) {
      return null;
    }
    WorkloadParser<?> p = BY_TYPE.get(type);
    if (p == null) {
      List<String> types = new ArrayList<>(BY_TYPE.keySet());
      String last = types.remove(types.size() - 1);
      c.problem("workload.type", "unknown workload type '" + type + "'; expected " + String.join(", ", types) + " or "
          + last);
      return null;
    }
    return p.parse(c);
  }

  /**
   * @param w a workload
   * @param scale {@code --scale}, in (0, 1000]
   * @param c the scenario's checker, told of a count that goes beyond its limit once scaled
   */
  static void checkScale(Workload w, double scale, HoconChecker c) {
    checkScale(of(w), w, scale, c);
  }

  /**
   * @param w a workload
   * @return every measure name its runs can record
   */
  static Set<String> measures(Workload w) {
    return measures(of(w), w);
  }

  /**
   * @param scenario a validated scenario
   * @return its workload's shape in a few words, at the scenario's scale, for {@code validate}
   */
  public static String summary(Scenario scenario) {
    return summary(of(scenario.workload()), scenario.workload(), scenario.scale());
  }

  private static WorkloadParser<?> of(Workload w) {
    return BY_TYPE.values().stream().filter(p -> p.workloadClass().isInstance(w)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no parser registered for " + w.getClass().getName()));
  }

  private static <W extends Workload> void checkScale(WorkloadParser<W> p, Workload w, double scale, HoconChecker c) {
    p.checkScale(p.workloadClass().cast(w), scale, c);
  }

  private static <W extends Workload> Set<String> measures(WorkloadParser<W> p, Workload w) {
    return p.measures(p.workloadClass().cast(w));
  }

  private static <W extends Workload> String summary(WorkloadParser<W> p, Workload w, double scale) {
    return p.summary(p.workloadClass().cast(w), scale);
  }
}
