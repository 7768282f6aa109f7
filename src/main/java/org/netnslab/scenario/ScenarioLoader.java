package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netnslab.design.Design;
import org.netnslab.uevent.SeqnumScope;
import org.netnslab.uevent.UeventSerialization;
import org.netnslab.workload.Workload;
import org.netnslab.workload.churn.NetnsChurnWorkload;
import org.netnslab.workload.injection.UeventInjectionWorkload;
import org.netnslab.workload.procevents.ProcEventsWorkload;

/**
 * Reads a scenario file, applies {@code --set} overrides and validates everything before anything
 * runs: unknown keys, wrong types, values out of range, unknown designs or strategy values, missing
 * required keys. All problems are reported at once, each with file, line and key path.
 */
public final class ScenarioLoader {
  private static final Set<String> TOP_LEVEL =
      Set.of("name", "description", "seed", "workload", "designs", "baseline", "seed-ratios", "model",
          "custom-designs");
  private static final Set<String> UEVENT_WORKLOAD =
      Set.of("type", "netns", "listeners-per-netns", "injections-per-netns", "warmup-per-netns", "injectors");
  private static final Set<String> NETNS_KEYS = Set.of("userns-owned", "init-owned");
  private static final Set<String> PROC_WORKLOAD = Set.of("type", "processes", "nonzero-exit-fraction", "listeners");
  private static final Map<String, Integer> PROC_EVENT_NAMES = Map.ofEntries(Map.entry("FORK", 0x1),
      Map.entry("EXEC", 0x2), Map.entry("UID", 0x4), Map.entry("GID", 0x40), Map.entry("SID", 0x80),
      Map.entry("PTRACE", 0x100), Map.entry("COMM", 0x200), Map.entry("NONZERO_EXIT", 0x20000000),
      Map.entry("COREDUMP", 0x40000000), Map.entry("EXIT", 0x80000000), Map.entry("ALL", 0xE00003C7));
  private static final Set<String> CHURN_WORKLOAD = Set.of("type", "workers", "iterations", "new-userns", "sockets",
      "warmup-iterations");
  /** Most netns, injectors or workers one run may have: beyond that the JVM's heap, not the model, decides. */
  private static final int MAX_POPULATION = 100_000;
  /** Most listener sockets one run may bind (each is a running stream). */
  private static final long MAX_LISTENERS = 200_000;
  /** Most operations a scaled count may reach per netns or worker. */
  private static final long MAX_SCALED = 1_000_000_000_000L;
  /** Most short-lived processes one proc-events run may have: every event is built in memory. */
  private static final long MAX_PROCESSES = 5_000_000;
  /** Listener names the proc-events measures reserve for the pidfd and /proc-scan monitors. */
  private static final Set<String> RESERVED_LISTENERS = Set.of("pidfd", "proc-scan");
  /** A scenario's name is also its output folder's name. */
  private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  private final Config reference;

  /** Uses the netns-lab reference configuration on the class path. */
  public ScenarioLoader() {
    this(ConfigFactory.defaultReference().getConfig("netns-lab"));
  }

  /** @param netnsLabReference the {@code netns-lab} block of the reference configuration */
  public ScenarioLoader(Config netnsLabReference) {
    this.reference = netnsLabReference;
  }

  /**
   * @param file the scenario file
   * @param sets {@code path=value} overrides, applied over the file in order
   * @param scale {@code --scale}, must be finite and &gt; 0
   * @return the validated scenario
   * @throws ScenarioException listing every problem found
   */
  public Scenario load(Path file, List<String> sets, double scale) throws ScenarioException {
    List<ConfigProblem> problems = new ArrayList<>();
    String source = file.toString();
    if (!(scale > 0) || scale > 1000) {
      problems.add(new ConfigProblem("--scale", -1, "scale", "must be a number > 0 and <= 1000, got " + scale));
    }
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      problems.add(new ConfigProblem(source, -1, "-", "cannot read scenario file (missing or not a readable file)"));
      throw new ScenarioException(problems);
    }
    Config conf;
    try {
      conf = ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
    } catch (ConfigException e) {
      problems.add(ConfigProblem.at(e.origin(), "-", e.getMessage()));
      throw new ScenarioException(problems);
    }
    for (String set : sets) {
      int eq = set.indexOf('=');
      if (eq <= 0) {
        problems.add(new ConfigProblem("--set " + set, -1, set, "expected path=value"));
        continue;
      }
      try {
        Config one = ConfigFactory.parseString(set.substring(0, eq).trim() + " = " + set.substring(eq + 1),
            ConfigParseOptions.defaults().setOriginDescription("--set " + set));
        conf = one.withFallback(conf);
      } catch (ConfigException e) {
        problems.add(new ConfigProblem("--set " + set, -1, set.substring(0, eq), e.getMessage()));
      }
    }
    try {
      conf = conf.resolve();
    } catch (ConfigException e) {
      problems.add(ConfigProblem.at(e.origin(), "-", e.getMessage()));
      throw new ScenarioException(problems);
    }
    Checker c = new Checker(conf, source, problems);
    c.unknownKeys(conf.root(), TOP_LEVEL, "");
    String name = c.string("name", null);
    if (name != null && !NAME.matcher(name).matches()) {
      c.problem("name", "must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit (it names"
          + " the output folder), got '" + name + "'");
    }
    String description = c.string("description", null);
    String seed = c.string("seed", null);
    Workload workload = workload(c);
    checkScaled(c, workload, scale);
    Map<String, Design> designs = designs(c, conf);
    String baseline = designs.isEmpty() ? null : designs.keySet().iterator().next();
    if (conf.hasPath("baseline")) {
      baseline = c.string("baseline", null);
      if (baseline != null && !designs.isEmpty() && !designs.containsKey(baseline)) {
        c.problem("baseline", "'" + baseline + "' is not one of the scenario's designs " + designs.keySet());
      }
    }
    Map<String, Double> seedRatios = new LinkedHashMap<>();
    Set<String> knownDesigns = new LinkedHashSet<>(reference.getObject("designs").keySet());
    if (conf.hasPath("custom-designs") && conf.getValue("custom-designs").valueType() == ConfigValueType.OBJECT) {
      knownDesigns.addAll(conf.getObject("custom-designs").keySet());
    }
    if (conf.hasPath("seed-ratios")) {
      ConfigObject ratios = c.object("seed-ratios");
      if (ratios != null) {
        for (Map.Entry<String, ConfigValue> e : ratios.entrySet()) {
          String path = "seed-ratios." + ConfigUtil.joinPath(e.getKey());
          if (!knownDesigns.contains(e.getKey())) {
            c.problem(path, "'" + e.getKey() + "' is not a known design " + new java.util.TreeSet<>(knownDesigns));
          } else if (e.getValue().valueType() != ConfigValueType.NUMBER
              || !(((Number) e.getValue().unwrapped()).doubleValue() > 0)) {
            c.problem(path, "must be a number > 0 (the seed's ratio of this design's mean over the baseline's)");
          } else if (designs.containsKey(e.getKey())) { // a design left out of this run (--set designs) has none
            seedRatios.put(e.getKey(), ((Number) e.getValue().unwrapped()).doubleValue());
          }
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new ScenarioException(onePerLine(problems));
    }
    return new Scenario(source, name, description, seed, workload, List.copyOf(designs.values()), baseline,
        seedRatios, scale, sets);
  }

  private Workload workload(Checker c) {
    if (c.object("workload") == null) {
      return null;
    }
    String type = c.string("workload.type", null);
    if (type == null) {
      return null;
    }
    if (type.equals("netns-churn")) {
      return churn(c);
    }
    if (type.equals("proc-events")) {
      return procEvents(c);
    }
    if (!type.equals("uevent-injection")) {
      c.problem("workload.type", "unknown workload type '" + type
          + "'; expected uevent-injection, netns-churn or proc-events");
      return null;
    }
    c.unknownKeys(c.conf.getObject("workload"), UEVENT_WORKLOAD, "workload.");
    if (c.conf.hasPath("workload.netns") && c.object("workload.netns") != null) {
      c.unknownKeys(c.conf.getObject("workload.netns"), NETNS_KEYS, "workload.netns.");
    }
    long userns = c.integer("workload.netns.userns-owned", 0L, 0, MAX_POPULATION);
    long init = c.integer("workload.netns.init-owned", 0L, 0, MAX_POPULATION);
    if (userns + init < 1 && c.conf.hasPath("workload.netns")) {
      c.problem("workload.netns", "needs at least one netns (userns-owned + init-owned >= 1)");
    } else if (!c.conf.hasPath("workload.netns")) {
      c.problem("workload.netns", "missing: set userns-owned and/or init-owned");
    }
    long listeners = c.integer("workload.listeners-per-netns", 1L, 0, 1024);
    if ((userns + init) * listeners > MAX_LISTENERS) {
      c.problem("workload.listeners-per-netns", "netns x listeners-per-netns = " + (userns + init) * listeners
          + " listeners, more than " + MAX_LISTENERS + " one run can bind");
    }
    long injections = c.integer("workload.injections-per-netns", null, 1, MAX_SCALED);
    long warmup = c.integer("workload.warmup-per-netns", 0L, 0, MAX_SCALED);
    long injectors = c.integer("workload.injectors", null, 1, MAX_POPULATION);
    return new UeventInjectionWorkload((int) userns, (int) init, (int) listeners, injections, warmup, (int) injectors);
  }

  /**
   * One problem per value: a bad value in the scenario's model block (or a --set of one) would
   * otherwise be reported again for every design that inherits it. The first report, the model
   * block's own, is kept.
   */
  private static List<ConfigProblem> onePerLine(List<ConfigProblem> problems) {
    Set<String> seen = new java.util.HashSet<>();
    List<ConfigProblem> out = new ArrayList<>();
    for (ConfigProblem p : problems) {
      String key = p.path().startsWith("model.") ? p.path().substring("model.".length()) : p.path();
      if (seen.add(p.source() + "|" + p.line() + "|" + key)) {
        out.add(p);
      }
    }
    return out;
  }

  private static void checkScaled(Checker c, Workload w, double scale) {
    if (!(scale > 0) || scale > 1000) {
      return;
    }
    if (w instanceof UeventInjectionWorkload u && u.injectionsPerNetns() * scale + u.warmupPerNetns() > MAX_SCALED) {
      c.problem("workload.injections-per-netns", "times --scale " + scale + " exceeds " + MAX_SCALED
          + " injections per netns");
    } else if (w instanceof ProcEventsWorkload p && p.processes() * scale > MAX_PROCESSES) {
      c.problem("workload.processes", "times --scale " + scale + " exceeds " + MAX_PROCESSES
          + " processes (their events are built in memory)");
    } else if (w instanceof NetnsChurnWorkload n && n.iterations() * scale > MAX_SCALED) {
      c.problem("workload.iterations", "times --scale " + scale + " exceeds " + MAX_SCALED + " iterations per worker");
    }
  }

  private ProcEventsWorkload procEvents(Checker c) {
    c.unknownKeys(c.conf.getObject("workload"), PROC_WORKLOAD, "workload.");
    long processes = c.integer("workload.processes", null, 1, MAX_PROCESSES);
    double fraction = 0;
    if (c.conf.hasPath("workload.nonzero-exit-fraction")) {
      ConfigValue v = c.conf.getValue("workload.nonzero-exit-fraction");
      if (v.valueType() != ConfigValueType.NUMBER || !(((Number) v.unwrapped()).doubleValue() >= 0
          && ((Number) v.unwrapped()).doubleValue() <= 1)) {
        c.problems.add(ConfigProblem.at(v.origin(), "workload.nonzero-exit-fraction", "must be a number in 0..1, got "
            + v.render()));
      } else {
        fraction = ((Number) v.unwrapped()).doubleValue();
      }
    }
    Map<String, Integer> listeners = new LinkedHashMap<>();
    ConfigObject ls = c.object("workload.listeners");
    if (ls != null) {
      for (Map.Entry<String, ConfigValue> e : ls.entrySet()) {
        String path = "workload.listeners." + ConfigUtil.joinPath(e.getKey());
        int mask = 0;
        boolean ok = e.getValue().valueType() == ConfigValueType.LIST;
        if (ok) {
          for (Object o : (List<?>) e.getValue().unwrapped()) {
            Integer bit = PROC_EVENT_NAMES.get(String.valueOf(o));
            if (bit == null) {
              ok = false;
              break;
            }
            mask |= bit;
          }
        }
        if (!NAME.matcher(e.getKey()).matches() || RESERVED_LISTENERS.contains(e.getKey())) {
          c.problems.add(ConfigProblem.at(e.getValue().origin(), path, "a listener's name is part of measure and"
              + " file names: 1-100 letters, digits, '.', '_' or '-', and not pidfd or proc-scan"));
        } else if (!ok) {
          c.problems.add(ConfigProblem.at(e.getValue().origin(), path, "must be a list of PROC_EVENT names from "
              + new java.util.TreeSet<>(PROC_EVENT_NAMES.keySet()) + ", got "
              + e.getValue().render(com.typesafe.config.ConfigRenderOptions.concise())));
        } else {
          listeners.put(e.getKey(), mask);
        }
      }
    }
    if (ls != null && ls.isEmpty()) {
      c.problem("workload.listeners", "needs at least one listener (name = [EVENT, ...])");
    }
    return new ProcEventsWorkload(processes, fraction, listeners);
  }

  private NetnsChurnWorkload churn(Checker c) {
    c.unknownKeys(c.conf.getObject("workload"), CHURN_WORKLOAD, "workload.");
    long workers = c.integer("workload.workers", null, 1, 100_000);
    long iterations = c.integer("workload.iterations", null, 1, MAX_SCALED);
    long sockets = c.integer("workload.sockets", 0L, 0, 100_000);
    long warmup = c.integer("workload.warmup-iterations", 0L, 0, MAX_SCALED);
    boolean newUserns = false;
    if (c.conf.hasPath("workload.new-userns")) {
      ConfigValue v = c.conf.getValue("workload.new-userns");
      if (v.valueType() != ConfigValueType.BOOLEAN) {
        c.problems.add(ConfigProblem.at(v.origin(), "workload.new-userns", "must be true or false, got " + v.render()));
      } else {
        newUserns = (Boolean) v.unwrapped();
      }
    }
    return new NetnsChurnWorkload((int) workers, iterations, newUserns, (int) sockets, warmup);
  }

  private Map<String, Design> designs(Checker c, Config conf) {
    Map<String, Design> out = new LinkedHashMap<>();
    Config model = reference.getConfig("model");
    if (conf.hasPath("model") && c.object("model") != null) {
      c.knownLeaves(conf.getConfig("model"), model, "model.");
      model = conf.getConfig("model").withFallback(model);
      design(c, "model", model, "model."); // checked once, whether or not a design uses the values
    }
    Config custom = ConfigFactory.empty();
    if (conf.hasPath("custom-designs") && c.object("custom-designs") != null) {
      custom = conf.getConfig("custom-designs");
      for (Map.Entry<String, ConfigValue> e : conf.getObject("custom-designs").entrySet()) {
        String path = "custom-designs." + ConfigUtil.joinPath(e.getKey());
        if (reference.getObject("designs").containsKey(e.getKey())) {
          c.problems.add(ConfigProblem.at(e.getValue().origin(), path, "shadows the named design '" + e.getKey()
              + "' of reference.conf; give the custom design its own name"));
        } else if (e.getValue().valueType() != ConfigValueType.OBJECT) {
          c.problem(path, "must be an object of model keys (e.g. uevent.serialization = lockless)");
        } else {
          c.knownLeaves(((ConfigObject) e.getValue()).toConfig().withoutPath("description"), reference.getConfig("model"),
              path + ".");
        }
      }
    }
    List<String> names = c.stringList("designs");
    if (names == null) {
      return out;
    }
    if (names.isEmpty()) {
      c.problem("designs", "must name at least one design");
    }
    Config named = reference.getConfig("designs");
    Set<String> seen = new LinkedHashSet<>();
    for (String name : names) {
      String key = ConfigUtil.joinPath(name);
      if (!seen.add(name)) {
        c.problem("designs", "design '" + name + "' is listed twice");
        continue;
      }
      Config own;
      if (custom.hasPath(key) && custom.getValue(key).valueType() == ConfigValueType.OBJECT) {
        own = custom.getConfig(key);
      } else if (named.hasPath(key)) {
        own = named.getConfig(key);
      } else {
        c.problem("designs", "unknown design '" + name + "'; named designs: " + new java.util.TreeSet<>(named.root().keySet())
            + (custom.isEmpty() ? "" : ", custom-designs: " + new java.util.TreeSet<>(custom.root().keySet())));
        continue;
      }
      Design d = design(c, name, own.withoutPath("description").withFallback(model), "");
      if (d != null) {
        out.put(name, d);
      }
    }
    return out;
  }

  private Design design(Checker c, String name, Config model, String pathPrefix) {
    String where = pathPrefix.isEmpty() ? "design " + name + ": " : "";
    c.pathPrefix = pathPrefix;
    int before = c.problems.size();
    c.enumValue(model, "uevent.serialization", where, UeventSerialization.class);
    c.enumValue(model, "uevent.seqnum-scope", where, SeqnumScope.class);
    c.range(model, "uevent.listener-queue-capacity", where, 1, 1_048_576);
    c.enumValue(model, "netns.lifecycle-lock", where, org.netnslab.netns.LifecycleLock.class);
    c.enumValue(model, "sock-inuse.free", where, org.netnslab.sockinuse.SockInuseFree.class);
    c.range(model, "netns.kernel-sockets", where, 0, 1024);
    c.range(model, "sock-inuse.cpus", where, 0, 4096);
    c.durationRange(model, "rcu.grace-period", where);
    c.durationRange(model, "rcu.expedited-grace-period", where);
    c.enumValue(model, "proc-connector.filter", where, org.netnslab.proc.ProcConnector.Filter.class);
    c.enumValue(model, "proc-connector.accounting", where, org.netnslab.proc.ProcListenerTable.Accounting.class);
    c.enumValue(model, "proc-monitor.kind", where, org.netnslab.proc.ProcMonitor.class);
    c.range(model, "proc-connector.listener-queue-capacity", where, 1, 1_048_576);
    c.range(model, "proc-monitor.live-processes", where, 0, 1_000_000);
    c.range(model, "proc-monitor.scans", where, 1, 10_000);
    c.durationRange(model, "proc-monitor.syscall-cost", where, java.time.Duration.ofMillis(1));
    c.durationRange(model, "netns.setup-cost", where);
    c.durationRange(model, "netns.exit-cost", where);
    try {
      double f = model.getDouble("sockets.rcu-free-fraction");
      if (!(f >= 0 && f <= 1)) {
        c.problems.add(ConfigProblem.at(model.getValue("sockets.rcu-free-fraction").origin(),
            pathPrefix + "sockets.rcu-free-fraction", where + "must be in 0..1, got " + f));
      }
    } catch (ConfigException e) {
      c.problems.add(ConfigProblem.at(e.origin(), pathPrefix + "sockets.rcu-free-fraction", where + Checker.bare(e)));
    }
    c.pathPrefix = "";
    return c.problems.size() == before ? Design.fromConfig(name, model) : null;
  }

  /** Typed reads that record a located problem instead of throwing. */
  private static final class Checker {
    final Config conf;
    final String source;
    final List<ConfigProblem> problems;
    /** Prefix for model-key paths: "model." while the scenario's model block itself is checked. */
    String pathPrefix = "";

    Checker(Config conf, String source, List<ConfigProblem> problems) {
      this.conf = conf;
      this.source = source;
      this.problems = problems;
    }

    void problem(String path, String message) {
      ConfigValue v = conf.hasPathOrNull(path) ? valueOrNull(path) : null;
      if (v != null) {
        problems.add(ConfigProblem.at(v.origin(), path, message));
      } else {
        problems.add(new ConfigProblem(source, -1, path, message));
      }
    }

    private ConfigValue valueOrNull(String path) {
      try {
        return conf.getValue(path);
      } catch (ConfigException e) {
        return null;
      }
    }

    void unknownKeys(ConfigObject obj, Set<String> allowed, String prefix) {
      for (Map.Entry<String, ConfigValue> e : obj.entrySet()) {
        if (!allowed.contains(e.getKey())) {
          problems.add(ConfigProblem.at(e.getValue().origin(), prefix + e.getKey(),
              "unknown key; expected one of " + new java.util.TreeSet<>(allowed)));
        }
      }
    }

    void knownLeaves(Config given, Config known, String prefix) {
      for (Map.Entry<String, ConfigValue> e : given.entrySet()) {
        if (!known.hasPath(e.getKey())) {
          problems.add(ConfigProblem.at(e.getValue().origin(), prefix + e.getKey(),
              "unknown model key; see netns-lab.model in reference.conf"));
        }
      }
    }

    String string(String path, String dflt) {
      if (!conf.hasPath(path)) {
        if (dflt == null) {
          problem(path, "missing required key");
        }
        return dflt;
      }
      ConfigValue v = conf.getValue(path);
      if (v.valueType() != ConfigValueType.STRING) {
        problems.add(ConfigProblem.at(v.origin(), path, "must be a string, got " + v.valueType().name().toLowerCase()));
        return dflt;
      }
      return (String) v.unwrapped();
    }

    ConfigObject object(String path) {
      if (!conf.hasPath(path)) {
        problem(path, "missing required object");
        return null;
      }
      ConfigValue v = conf.getValue(path);
      if (v.valueType() != ConfigValueType.OBJECT) {
        problems.add(ConfigProblem.at(v.origin(), path, "must be an object { ... }, got " + v.valueType().name().toLowerCase()));
        return null;
      }
      return (ConfigObject) v;
    }

    List<String> stringList(String path) {
      if (!conf.hasPath(path)) {
        problem(path, "missing required list");
        return null;
      }
      try {
        return conf.getStringList(path);
      } catch (ConfigException e) {
        problems.add(ConfigProblem.at(e.origin(), path, "must be a list of design names: " + e.getMessage()));
        return null;
      }
    }

    long integer(String path, Long dflt, long min, long max) {
      if (!conf.hasPath(path)) {
        if (dflt == null) {
          problem(path, "missing required key (an integer in " + min + ".." + max + ")");
          return min;
        }
        return dflt;
      }
      ConfigValue v = conf.getValue(path);
      Object raw = v.unwrapped();
      if (v.valueType() != ConfigValueType.NUMBER || !(raw instanceof Integer || raw instanceof Long)) {
        problems.add(ConfigProblem.at(v.origin(), path, "must be an integer in " + min + ".." + max + ", got '"
            + v.render() + "'"));
        return min;
      }
      long n = ((Number) raw).longValue();
      if (n < min || n > max) {
        problems.add(ConfigProblem.at(v.origin(), path, "must be in " + min + ".." + max + ", got " + n));
        return min;
      }
      return n;
    }

    void range(Config model, String path, String where, int min, int max) {
      try {
        int v = model.getInt(path);
        if (v < min || v > max) {
          problems.add(ConfigProblem.at(model.getValue(path).origin(), pathPrefix + path,
              where + "must be in " + min + ".." + max + ", got " + v));
        }
      } catch (ConfigException e) {
        problems.add(ConfigProblem.at(e.origin(), pathPrefix + path, where + bare(e)));
      }
    }

    void durationRange(Config model, String path, String where) {
      durationRange(model, path, where, java.time.Duration.ofSeconds(10));
    }

    void durationRange(Config model, String path, String where, java.time.Duration max) {
      try {
        java.time.Duration d = model.getDuration(path);
        if (d.isNegative() || d.compareTo(max) > 0) {
          String maxText = max.toMillis() >= 1000 ? max.toSeconds() + "s" : max.toMillis() + "ms";
          problems.add(ConfigProblem.at(model.getValue(path).origin(), pathPrefix + path,
              where + "must be a duration in 0.." + maxText + ", got " + model.getValue(path).render()));
        }
      } catch (ConfigException e) {
        problems.add(ConfigProblem.at(e.origin(), pathPrefix + path, where + bare(e)));
      }
    }

    /** The exception's message without the "file: line: " its origin already gives. */
    static String bare(ConfigException e) {
      String m = e.getMessage();
      return e.origin() != null && m.startsWith(e.origin().description() + ": ")
          ? m.substring(e.origin().description().length() + 2) : m;
    }

    <E extends Enum<E>> void enumValue(Config model, String path, String where, Class<E> type) {
      try {
        org.netnslab.design.Strategies.parse(type, path, model.getString(path));
      } catch (ConfigException e) {
        problems.add(ConfigProblem.at(e.origin(), pathPrefix + path, where + bare(e)));
      } catch (IllegalArgumentException e) {
        problems.add(ConfigProblem.at(model.getValue(path).origin(), pathPrefix + path, where + e.getMessage()));
      }
    }
  }
}
