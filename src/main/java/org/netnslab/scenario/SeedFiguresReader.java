package org.netnslab.scenario;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigUtil;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the seed reported, as a scenario declares it: {@code seed-ratios} (each design's mean over the
 * baseline's on the compared measure). A figure naming a known design that this run leaves out (e.g.
 * by {@code --set designs=[...]}) is checked and then dropped.
 */
final class SeedFiguresReader {
  private final HoconChecker c;
  private final Set<String> knownDesigns;
  private final Set<String> runDesigns;

  /**
   * @param c the scenario's checker
   * @param knownDesigns every design the scenario may name
   * @param runDesigns the designs this run runs
   */
  SeedFiguresReader(HoconChecker c, Set<String> knownDesigns, Set<String> runDesigns) {
    this.c = c;
    this.knownDesigns = knownDesigns;
    this.runDesigns = runDesigns;
  }

  /** @return {@code seed-ratios} of the designs run, by design */
  Map<String, Double> seedRatios() {
    Map<String, Double> out = new LinkedHashMap<>();
    if (!c.conf().hasPath("seed-ratios")) {
      return out;
    }
    ConfigObject ratios = c.object("seed-ratios");
    if (ratios == null) {
      return out;
    }
    for (String design : ratios.keySet()) {
      String path = "seed-ratios." + ConfigUtil.joinPath(design);
      if (!knownDesigns.contains(design)) {
        c.problem(path, "'" + design + "' is not a known design " + new TreeSet<>(knownDesigns));
        continue;
      }
      Double ratio = c.positive(path, "the seed's ratio of this design's mean over the baseline's");
      if (ratio != null && runDesigns.contains(design)) {
        out.put(design, ratio);
      }
    }
    return out;
  }
}
